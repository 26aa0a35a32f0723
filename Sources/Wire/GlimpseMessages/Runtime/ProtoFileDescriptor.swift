#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One .proto file as protoc described it at generation time: what server reflection
/// hands to clients such as grpcurl. The generator embeds one per file of each module
/// (`GlimpseMessagesDescriptors.files`, …).
public struct ProtoFileDescriptor: Sendable, Hashable {
    /// The file's path as imported, e.g. `glimpse/widget/v1/view.proto`.
    public let name: String
    /// Paths of the files it imports.
    public let dependencies: [String]
    /// Fully-qualified messages, enums, services and methods it defines.
    public let symbols: [String]
    /// The serialized `google.protobuf.FileDescriptorProto` (without source info).
    public let serialized: [UInt8]

    public init(name: String, dependencies: [String], symbols: [String], base64: String) {
        self.name = name
        self.dependencies = dependencies
        self.symbols = symbols
        guard let data = Data(base64Encoded: base64) else {
            preconditionFailure("generated descriptor of \(name) is not base64")
        }
        self.serialized = [UInt8](data)
    }
}
