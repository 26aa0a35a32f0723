import GlimpseVocabulary
/// Where blob bytes live, keyed by content hash. The service supplies a file-backed
/// one; `InMemoryBlobStore` serves tests. Streamed uploads are staged under an
/// `UploadID` and committed under their hash once verified, or discarded.
package protocol BlobStore: Sendable {
    func put(_ bytes: [UInt8], as hash: ContentHash) throws
    /// The bytes (or the given byte range of them); nil when absent.
    func get(_ hash: ContentHash, range: Range<Int>?) throws -> [UInt8]?
    func delete(_ hash: ContentHash) throws

    func stage(_ chunk: [UInt8], for upload: UploadID) throws
    func commitStaged(_ upload: UploadID, as hash: ContentHash) throws
    func discardStaged(_ upload: UploadID) throws
}

/// One upload's staging area.
package struct UploadID: Sendable, Hashable, CustomStringConvertible {
    package let value: UInt64
    package init(_ value: UInt64) { self.value = value }
    package var description: String { "upload-\(value)" }
}
