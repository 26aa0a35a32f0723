import Foundation
import GlimpseMessages
import Testing

@testable import GlimpseCLI

/// `glimpse fleet`'s pieces that need no stack: the template's taps, the quantiles it
/// reports, `glimpse up --max-devices`.
@Suite("glimpse fleet")
struct FleetTests {
    func template(_ json: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("device.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a widget's \"tap\" is the element the fleet taps; the rest of it is the PlaceRequest")
    func taps() throws {
        let path = try template(
            """
            {"apps": [{"name": "films", "port": 7710, "manifest": "app.json", "widgets": [
              {"kind": "Film", "family": "WIDGET_FAMILY_SYSTEM_MEDIUM", "tap": "MarkWatched"},
              {"kind": "Film", "family": "WIDGET_FAMILY_SYSTEM_SMALL"}]}]}
            """)
        let device = try DemoDevice.load(path)
        let app = try #require(device.apps.first)
        #expect(app.taps == ["MarkWatched", nil])
        #expect(app.widgets.map(\.kind) == ["Film", "Film"])
        #expect(app.widgets.map(\.family) == [.systemMedium, .systemSmall])
    }

    @Test("--app names an app of the template, at host:port")
    func endpoints() throws {
        let device = try DemoDevice.load(
            try template(#"{"apps": [{"name": "films", "port": 7710, "manifest": "app.json"}]}"#))
        #expect(try device.endpoints(["films=10.0.0.5:9000"]) == ["films": "10.0.0.5:9000"])
        #expect(throws: CLIFailure.self) { try device.endpoints(["pizza=10.0.0.5:9000"]) }
        #expect(throws: CLIFailure.self) { try device.endpoints(["films"]) }
    }

    @Test("quantiles: the nearest rank, in milliseconds; none is 0")
    func quantiles() {
        let durations = (1...100).map { Duration.milliseconds($0) }.shuffled()
        #expect(FleetReport.quantile(durations, 0.5) == 50)
        #expect(FleetReport.quantile(durations, 0.99) == 99)
        #expect(FleetReport.quantile([.milliseconds(7)], 0.99) == 7)
        #expect(FleetReport.quantile([], 0.5) == 0)
    }

    @Test("glimpse up --max-devices reaches every process")
    func maxDevices() {
        var options = StackPlan.Options()
        options.maxDevices = 2000
        for member in StackPlan(options).members where member.isService {
            let flag = member.arguments.firstIndex(of: "--max-devices")
            #expect(flag.map { member.arguments[$0 + 1] } == "2000", "\(member.name)")
        }
        #expect(StackPlan(StackPlan.Options()).members.allSatisfy { !$0.arguments.contains("--max-devices") })
    }
}
