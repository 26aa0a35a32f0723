import GlimpseMessages
import Testing

@Suite("Descriptors embedded at generation time")
struct DescriptorTests {
    @Test("every generated file carries its descriptor, imports and symbols")
    func widgetFiles() throws {
        let files = GlimpseMessagesDescriptors.files
        let view = try #require(files.first { $0.name == "glimpse/widget/v1/view.proto" })
        #expect(view.dependencies.contains("glimpse/widget/v1/style.proto"))
        #expect(view.symbols.contains("glimpse.widget.v1.View"))
        #expect(view.symbols.contains("glimpse.widget.v1.ProgressView.Fraction"))
        #expect(!view.serialized.isEmpty)
        let health = try #require(files.first { $0.name == "grpc/health/v1/health.proto" })
        #expect(health.symbols.contains("grpc.health.v1.Health.Watch"))
        #expect(health.symbols.contains("grpc.health.v1.HealthCheckResponse.ServingStatus"))
        // Every import resolves inside the set (reflection serves whole closures).
        let names = Set(files.map(\.name))
        for file in files {
            for dep in file.dependencies { #expect(names.contains(dep), "\(file.name) imports \(dep)") }
        }
    }
}
