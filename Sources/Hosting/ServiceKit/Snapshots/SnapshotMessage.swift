public import GlimpseMessages

/// A generated message inside a service's snapshot: its protobuf bytes, which decode to an
/// equal message (the services keep manifests, errors and push records this way).
public struct SnapshotMessage<Message: GlimpseMessage>: Codable, Sendable {
    public var message: Message

    public init(_ message: Message) {
        self.message = message
    }

    public init(from decoder: any Decoder) throws {
        message = try Message(serializedBytes: try decoder.singleValueContainer().decode([UInt8].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try message.serializedBytes())
    }
}

/// An installed app as a service's snapshot keeps it: its manifest and its token.
public struct SavedApp: Codable, Sendable {
    public var manifest: GlimpseAppV1.AppManifest
    public var token: String

    public init(manifest: GlimpseAppV1.AppManifest, token: String) {
        self.manifest = manifest
        self.token = token
    }

    /// Any of the services' app records (they all hold a manifest and a token).
    public init(_ app: some InstalledAppRecord) {
        self.init(manifest: app.manifest, token: app.token)
    }

    enum CodingKeys: String, CodingKey {
        case manifest, token
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        manifest = try container.decode(SnapshotMessage<GlimpseAppV1.AppManifest>.self, forKey: .manifest).message
        token = try container.decode(String.self, forKey: .token)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SnapshotMessage(manifest), forKey: .manifest)
        try container.encode(token, forKey: .token)
    }
}

/// What `SavedApp` reads from a service's app record.
public protocol InstalledAppRecord {
    var manifest: GlimpseAppV1.AppManifest { get }
    var token: String { get }
}
