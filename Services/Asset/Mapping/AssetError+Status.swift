package import AssetEngine
package import RPCCore

/// Where in a call the catalog refused: it decides which field the message names.
package enum RefusalStage: Sendable {
    /// Checking a Put's header (the declared size).
    case header
    /// Taking a Put's chunk (the bytes, or one past the declared size).
    case chunk
    /// Ending a Put (the whole: size and hash).
    case end
    /// Any other call.
    case request
}

extension AssetError {
    /// The gRPC status for this refusal, its message naming the field at fault.
    package func rpcError(at stage: RefusalStage = .request) -> RPCError {
        switch self {
        case .invalidName(let why):
            return RPCError(code: .invalidArgument, message: "name: \(why)")
        case .unsupportedImage(let why):
            return RPCError(code: .invalidArgument, message: "chunk: \(why)")
        case .imageAreaTooLarge, .imageLargerThanPresentation:
            return RPCError(code: .invalidArgument, message: "chunk: \(self) (for the declared use)")
        case .assetTooLarge:
            return RPCError(code: .invalidArgument, message: "\(stage == .header ? "size" : "chunk"): \(self)")
        case .sizeMismatch(let expected, let received):
            if stage == .chunk {
                return RPCError(
                    code: .invalidArgument,
                    message: "chunk: past the declared size: size says \(expected) bytes, \(received) arrived")
            }
            return RPCError(
                code: .invalidArgument, message: "size: the declared size is \(expected) bytes, \(received) arrived")
        case .integrityMismatch(let expected, let actual):
            return RPCError(
                code: .invalidArgument,
                message: "sha256: the bytes hash to \(actual), the declared SHA-256 is \(expected)")
        case .budgetExhausted:
            return RPCError(code: .resourceExhausted, message: "size: \(self)")
        case .unknownAsset(let name):
            return RPCError(code: .notFound, message: "name: \(name.app) has no asset \(name.path)")
        case .evicted(let name, _):
            return RPCError(
                code: .notFound,
                message: "name: \(name.path) of \(name.app) was evicted under the byte budget; put it again")
        case .blobCorrupt(let hash):
            return RPCError(
                code: .dataLoss,
                message: "the stored bytes of \(hash) are missing or do not match their hash; put the asset again")
        }
    }
}
