package import AssetEngine
import EngineHosting
package import GlimpseMessages

/// An input of glimpse-asset, as journaled: a `glimpse.asset.v1.JournalRecord`. A put also
/// names its staging area, which only the live run needs (replay carries out no effects).
package struct AssetCommand: HostCommand {
    package typealias Answer = AssetAnswer

    package var record: GlimpseAssetV1.JournalRecord
    /// Where a put's verified bytes wait to be renamed into the store (not journaled).
    package var upload: UploadID?

    package init(
        _ input: GlimpseAssetV1.JournalRecord.Input, appToken: String = "", touched: [AssetName] = [],
        upload: UploadID? = nil
    ) {
        record = GlimpseAssetV1.JournalRecord()
        record.input = input
        record.appToken = appToken
        record.touched = touched.map(\.description)
        self.upload = upload
    }

    init(record: GlimpseAssetV1.JournalRecord) { self.record = record }

    package func encode() throws -> [UInt8] { try record.serializedBytes() }

    package static func decode(_ bytes: [UInt8]) throws -> AssetCommand {
        AssetCommand(record: try GlimpseAssetV1.JournalRecord(serializedBytes: bytes))
    }
}

/// What a command answers its caller.
package enum AssetAnswer: Sendable, Hashable {
    case none
    case registered(token: String)
    case unregistered(removedNames: Int)
    case stored(PutOutcome)
    /// The catalog refused a put after the reads before it were applied (no room: the
    /// rest is pinned). Journaled, so that replay applies those reads too.
    case refused(AssetError)
    case deleted(blobDeleted: Bool)
    /// The names pinned now whose bytes are evicted.
    case pinned(evicted: [AssetName])
    case released(count: Int)
}

/// What the service does to its blob files after a command, in journal order.
package enum AssetEffect: Sendable, Hashable {
    /// The upload's sealed staging file becomes the blob (nil in replay, where effects are dropped).
    case commit(ContentHash, upload: UploadID?)
    /// No name holds the blob any more (deleted, replaced, evicted): its file goes.
    case delete(ContentHash)
}
