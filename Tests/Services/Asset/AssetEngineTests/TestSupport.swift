import GlimpseVocabulary
@testable import AssetEngine
import EngineTesting

func makeCache(_ limits: AssetLimits = .defaults) -> AssetCache<InMemoryBlobStore> {
    AssetCache(engine: AssetCatalog(clock: VirtualClock(), limits: limits), store: InMemoryBlobStore())
}

func name(_ text: String) -> AssetName { try! AssetName(text) }

extension AssetCache {
    /// The whole asset, read back through the verifying reader.
    mutating func readAll(_ text: String, chunkSize: Int? = nil) throws -> [UInt8] {
        var reader = try read(name(text), chunkSize: chunkSize)
        return try reader.readAll()
    }
}
