import GlimpseInterop
import GlimpseMessages
import ServiceKit
import Testing

@Suite("Server reflection answers")
struct ReflectionIndexTests {
    typealias R = GrpcReflectionV1
    let index = ReflectionIndex(
        files: GlimpseMessagesDescriptors.files + GlimpseInteropDescriptors.files,
        services: ["grpc.testing.TestService", "grpc.health.v1.Health"])

    func ask(_ question: R.ServerReflectionRequest.MessageRequest) -> R.ServerReflectionResponse.MessageResponse? {
        index.respond(to: R.ServerReflectionRequest(host: "", messageRequest: question)).messageResponse
    }

    @Test("list services names every service served")
    func listServices() {
        #expect(
            ask(.listServices("*"))
                == .listServicesResponse(
                    .init(service: [
                        .init(name: "grpc.health.v1.Health"), .init(name: "grpc.testing.TestService"),
                    ])))
    }

    @Test("file containing a symbol comes with its imports, the file itself first")
    func fileContainingSymbol() throws {
        guard case .fileDescriptorResponse(let files)? = ask(.fileContainingSymbol("grpc.testing.TestService")) else {
            Issue.record("no file descriptor response")
            return
        }
        let test = try #require(GlimpseInteropDescriptors.files.first { $0.name == "grpc/testing/test.proto" })
        #expect(files.fileDescriptorProto.first == test.serialized)
        #expect(files.fileDescriptorProto.count == 3)  // test.proto, empty.proto, messages.proto
        let method = ask(.fileContainingSymbol("grpc.testing.TestService.UnaryCall"))
        #expect(method == .fileDescriptorResponse(files))
    }

    @Test("file by name and nested symbols resolve; unknown ones are NOT_FOUND")
    func fileByName() {
        guard case .fileDescriptorResponse(let files)? = ask(.fileByFilename("glimpse/widget/v1/timeline.proto")) else {
            Issue.record("no file descriptor response")
            return
        }
        // timeline.proto imports duration, timestamp and view; view imports intent and style.
        #expect(files.fileDescriptorProto.count == 6)
        guard case .fileDescriptorResponse? = ask(.fileContainingSymbol("glimpse.widget.v1.Timeline.AtEnd")) else {
            Issue.record("nested message not found")
            return
        }
        guard case .errorResponse(let error)? = ask(.fileByFilename("nope.proto")) else {
            Issue.record("unknown file answered")
            return
        }
        #expect(error.errorCode == 5)
        guard case .errorResponse(let missing)? = ask(.fileContainingSymbol("glimpse.Nope")) else {
            Issue.record("unknown symbol answered")
            return
        }
        #expect(missing.errorCode == 5)
    }
}
