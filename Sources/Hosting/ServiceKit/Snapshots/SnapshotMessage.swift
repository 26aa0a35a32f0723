package import GlimpseMessages

/// A generated message inside a service's snapshot: its protobuf bytes, which decode to an
/// equal message (the services keep manifests, errors and push records this way).
package struct SnapshotMessage<Message: GlimpseMessage>: Codable, Sendable {
    package var message: Message

    package init(_ message: Message) {
        self.message = message
    }

    package init(from decoder: any Decoder) throws {
        message = try Message(serializedBytes: try decoder.singleValueContainer().decode([UInt8].self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try message.serializedBytes())
    }
}

/// An installed app as a service's snapshot keeps it: its manifest and its token.
package struct SavedApp: Codable, Sendable {
    package var manifest: GlimpseAppV1.AppManifest
    package var token: String

    package init(manifest: GlimpseAppV1.AppManifest, token: String) {
        self.manifest = manifest
        self.token = token
    }

    /// Any of the services' app records (they all hold a manifest and a token).
    package init(_ app: some InstalledAppRecord) {
        self.init(manifest: app.manifest, token: app.token)
    }

    enum CodingKeys: String, CodingKey {
        case manifest, token
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        manifest = try container.decode(SnapshotMessage<GlimpseAppV1.AppManifest>.self, forKey: .manifest).message
        token = try container.decode(String.self, forKey: .token)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SnapshotMessage(manifest), forKey: .manifest)
        try container.encode(token, forKey: .token)
    }
}

/// What `SavedApp` reads from a service's app record.
package protocol InstalledAppRecord {
    var manifest: GlimpseAppV1.AppManifest { get }
    var token: String { get }
}
