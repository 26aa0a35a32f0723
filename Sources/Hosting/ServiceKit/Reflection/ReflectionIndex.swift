package import GlimpseMessages

/// What server reflection knows: every .proto file a server links (their descriptors were
/// embedded at generation time) and the services it serves. Answers
/// `grpc.reflection.v1` requests as a pure function; v1alpha is wire-identical and uses
/// the same answers.
///
/// Files are answered with their transitive imports, so a client that asks for one symbol
/// can resolve every type it mentions without a second round trip.
package struct ReflectionIndex: Sendable {
    package typealias Request = GrpcReflectionV1.ServerReflectionRequest
    package typealias Response = GrpcReflectionV1.ServerReflectionResponse

    private let files: [String: ProtoFileDescriptor]
    private let fileOfSymbol: [String: String]
    private let services: [String]

    /// - Parameters:
    ///   - files: descriptors of every file (e.g. `GlimpseMessagesDescriptors.files`).
    ///   - services: fully-qualified names of the services the server serves.
    package init(files: [ProtoFileDescriptor], services: [String]) {
        var byName: [String: ProtoFileDescriptor] = [:]
        var symbols: [String: String] = [:]
        for file in files {
            byName[file.name] = file
            for symbol in file.symbols { symbols[symbol] = file.name }
        }
        self.files = byName
        self.fileOfSymbol = symbols
        self.services = services.sorted()
    }

    package func respond(to request: Request) -> Response {
        var response = Response(originalRequest: request)
        switch request.messageRequest {
        case .listServices?:
            response.messageResponse = .listServicesResponse(
                .init(
                    service: services.map { GrpcReflectionV1.ServiceResponse(name: $0) }))
        case .fileByFilename(let name)?:
            response.messageResponse =
                files[name] == nil
                ? notFound("file \(name) is not known to this server")
                : fileResponse(name)
        case .fileContainingSymbol(let symbol)?:
            if let name = fileOfSymbol[symbol] ?? fileOfSymbol[Self.parent(of: symbol)] {
                response.messageResponse = fileResponse(name)
            } else {
                response.messageResponse = notFound("symbol \(symbol) is not known to this server")
            }
        case .fileContainingExtension(let request)?:
            response.messageResponse = notFound(
                "no extension \(request.extensionNumber) of \(request.containingType): Glimpse's schemas are proto3 and define none"
            )
        case .allExtensionNumbersOfType(let type)?:
            response.messageResponse =
                fileOfSymbol[type] == nil
                ? notFound("type \(type) is not known to this server")
                : .allExtensionNumbersResponse(.init(baseTypeName: type, extensionNumber: []))
        case nil:
            response.messageResponse = .errorResponse(
                .init(
                    errorCode: 3, errorMessage: "the request names no question (message_request is empty)"))
        }
        return response
    }

    /// A file and everything it imports, each once, the asked-for file first.
    private func fileResponse(_ name: String) -> Response.MessageResponse {
        var seen: Set<String> = []
        var order: [[UInt8]] = []
        var pending = [name]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted, let file = files[next] else { continue }
            order.append(file.serialized)
            pending.append(contentsOf: file.dependencies.reversed())
        }
        return .fileDescriptorResponse(.init(fileDescriptorProto: order))
    }

    private func notFound(_ message: String) -> Response.MessageResponse {
        .errorResponse(.init(errorCode: 5, errorMessage: message))
    }

    /// `pkg.Message.field` → `pkg.Message`: clients sometimes ask for members.
    private static func parent(of symbol: String) -> String {
        guard let dot = symbol.lastIndex(of: ".") else { return symbol }
        return String(symbol[..<dot])
    }
}
