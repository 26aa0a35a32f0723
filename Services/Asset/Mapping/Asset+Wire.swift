package import AssetEngine
package import GlimpseMessages
package import GlimpseVocabulary
package import ProtoMapping

/// The wire's asset fields as the catalog's values, each bad field an `InvalidField`
/// naming it; and the catalog's answers back as messages.
package enum AssetWire {
    /// A bundle id that can head asset names: not empty, no `/` (it would reach into
    /// another app's names), `\`, control character, nor a `.` or `..` segment.
    package static func app(_ bundleID: String, field: String = "bundle_id") throws(InvalidField) -> AppID {
        guard !bundleID.isEmpty else { throw InvalidField(field, "a bundle id is required") }
        guard !bundleID.contains("/"), !bundleID.contains("\\") else {
            throw InvalidField(field, "\(bundleID.debugDescription) contains a path separator")
        }
        guard bundleID != ".", bundleID != ".." else {
            throw InvalidField(field, "\(bundleID.debugDescription) is not a bundle id")
        }
        guard !bundleID.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InvalidField(field, "the bundle id contains a control character")
        }
        return AppID(bundleID)
    }

    /// An app-scoped name (`posters/coco`) as the catalog's full name (`<bundle id>/posters/coco`).
    package static func name(
        _ text: String, of app: AppID, limits: AssetLimits, field: String = "name"
    ) throws(InvalidField) -> AssetName {
        guard !text.isEmpty else { throw InvalidField(field, "an asset name is required") }
        do { return try AssetName(app: app.rawValue, name: text, maximumLength: limits.maximumNameLength) } catch {
            throw InvalidField(field, "\(text.debugDescription): \(error)")
        }
    }

    package static func use(
        _ wire: GlimpseAppV1.AssetDeclaration.Use, field: String = "use"
    ) throws(InvalidField) -> AssetUse {
        switch wire {
        case .widget: .widget
        case .liveActivityMinimal: .liveActivity(.minimal)
        case .liveActivityCompact: .liveActivity(.compact)
        case .liveActivityExpanded: .liveActivity(.expanded)
        case .liveActivityLockScreen: .liveActivity(.lockScreen)
        case .unspecified:
            throw InvalidField(field, "say what the image is for: USE_WIDGET or a Live Activity presentation")
        case .unrecognized(let n): throw InvalidField(field, "unknown use \(n)")
        }
    }

    package static func wire(_ use: AssetUse) -> GlimpseAppV1.AssetDeclaration.Use {
        switch use {
        case .widget: .widget
        case .liveActivity(.minimal): .liveActivityMinimal
        case .liveActivity(.compact): .liveActivityCompact
        case .liveActivity(.expanded): .liveActivityExpanded
        case .liveActivity(.lockScreen): .liveActivityLockScreen
        }
    }

    package static func hash(_ hex: String, field: String = "sha256") throws(InvalidField) -> ContentHash {
        guard !hex.isEmpty else { throw InvalidField(field, "the SHA-256 of the bytes is required (64 hex digits)") }
        guard let hash = ContentHash(hex: hex) else {
            throw InvalidField(
                field, "expected 64 hex digits, got \(hex.utf8.count) characters \(hex.prefix(80).debugDescription)")
        }
        return hash
    }

    /// An ETag as a client sends it back: quoted (as Get and Stat give it) or the bare hex;
    /// a weak `W/` prefix is accepted (the bytes are the same or they are not).
    package static func etag(_ text: String) -> ContentHash? {
        var value = Substring(text).drop(while: { $0 == " " })
        while value.last == " " { value = value.dropLast() }
        if value.hasPrefix("W/") { value = value.dropFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        return ContentHash(hex: String(value))
    }

    package static func wire(_ format: ImageInfo.Format) -> GlimpseAssetV1.ImageFormat {
        switch format {
        case .png: .png
        case .jpeg: .jpeg
        }
    }

    package static func format(
        _ wire: GlimpseAssetV1.ImageFormat, field: String = "format"
    ) throws(InvalidField) -> ImageInfo.Format {
        switch wire {
        case .png: return .png
        case .jpeg: return .jpeg
        case .unspecified, .unrecognized: throw InvalidField(field, "PNG or JPEG")
        }
    }

    /// A present asset.
    package static func asset(_ metadata: AssetMetadata) -> GlimpseAssetV1.Asset {
        var asset = GlimpseAssetV1.Asset()
        asset.bundleId = metadata.name.app
        asset.name = metadata.name.path
        asset.sha256 = metadata.hash.hex
        asset.etag = metadata.etag
        asset.size = UInt64(metadata.size)
        asset.format = wire(metadata.image.format)
        asset.width = UInt32(clamping: metadata.image.width)
        asset.height = UInt32(clamping: metadata.image.height)
        asset.use = wire(metadata.use)
        asset.storedAt = GoogleProtobuf.Timestamp(metadata.storedAt)
        asset.pinned = metadata.pinned
        return asset
    }

    /// A name in any state; nil when the catalog does not know it.
    package static func asset(_ lookup: AssetLookup, pinned: Bool) -> GlimpseAssetV1.Asset? {
        switch lookup {
        case .present(let metadata): return asset(metadata)
        case .evicted(let name, let hash):
            var asset = GlimpseAssetV1.Asset()
            asset.bundleId = name.app
            asset.name = name.path
            asset.sha256 = hash.hex
            asset.etag = hash.etag
            asset.pinned = pinned
            asset.evicted = true
            return asset
        case .unknown: return nil
        }
    }

    /// The record a verified upload is journaled as.
    package static func record(_ upload: UploadSession.Verified) -> GlimpseAssetV1.StoredUpload {
        var record = GlimpseAssetV1.StoredUpload()
        record.bundleId = upload.name.app
        record.name = upload.name.path
        record.use = wire(upload.use)
        record.sha256 = upload.hash.hex
        record.size = UInt64(upload.size)
        record.format = wire(upload.image.format)
        record.width = UInt32(clamping: upload.image.width)
        record.height = UInt32(clamping: upload.image.height)
        return record
    }

    /// A journaled upload, checked field by field.
    package static func verified(
        _ record: GlimpseAssetV1.StoredUpload, in catalog: AssetCatalog
    ) throws(InvalidField) -> UploadSession.Verified {
        let app = try app(record.bundleId)
        let name = try name(record.name, of: app, limits: catalog.limits)
        guard let size = Int(exactly: record.size), size > 0 else { throw InvalidField("size", "\(record.size) bytes") }
        guard record.width > 0, record.height > 0 else {
            throw InvalidField("width", "\(record.width)×\(record.height) pixels")
        }
        let image = ImageInfo(format: try format(record.format), width: Int(record.width), height: Int(record.height))
        return UploadSession.Verified(
            name: name, use: try use(record.use), hash: try hash(record.sha256), size: size, image: image)
    }
}
