package import AssetEngine
import ProtoMapping
import RPCCore

/// glimpse-asset's settings: the catalog's limits (the byte budget among them) and how
/// Get streams.
package struct AssetSettings: Sendable {
    /// Sourced limits at their defaults; the byte budget is `--budget-bytes`.
    package var limits: AssetLimits
    /// Bytes per Get chunk when the request names none (Glimpse's choice: large enough
    /// that per-message costs vanish, small enough to start streaming at once).
    package var defaultChunkSize: Int
    /// The range a request may ask for (a message stays well under the 4 MiB gRPC default).
    package var chunkSizes: ClosedRange<Int>
    /// When a Get hashes the bytes it streams (withholding the last chunk unless they match).
    package var readVerification: ReadVerification

    package enum ReadVerification: Sendable {
        /// Every Get.
        case always
        /// The first Get of a blob after a start, and every Get after its file changed
        /// (inode, size, mtime or ctime); a blob this run wrote counts as verified. SHA-256
        /// costs about as much as the rest of a Get, and blob files are written once.
        case whenFileChanged
    }

    package init(
        limits: AssetLimits = .defaults, defaultChunkSize: Int = 256 << 10,
        chunkSizes: ClosedRange<Int> = 1 << 10...1 << 20, readVerification: ReadVerification = .whenFileChanged
    ) {
        self.limits = limits
        self.defaultChunkSize = defaultChunkSize
        self.chunkSizes = chunkSizes
        self.readVerification = readVerification
    }

    package static var defaults: Self { Self() }

    /// The chunk size for a request's `chunk_size` (0: the default).
    func chunkSize(requested: UInt32) throws(RPCError) -> Int {
        guard requested != 0 else { return defaultChunkSize }
        guard chunkSizes.contains(Int(requested)) else {
            throw InvalidField(
                "chunk_size",
                "\(requested) bytes; ask for \(chunkSizes.lowerBound)…\(chunkSizes.upperBound), or 0 for \(defaultChunkSize)"
            ).rpcError
        }
        return Int(requested)
    }
}
