import Foundation
import Logging
import ServiceKit
import Synchronization
import Testing

@Suite("Log handlers")
struct LogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var output: LogOutput { LogOutput { line in self.lines.withLock { $0.append(line) } } }
        var all: [String] { lines.withLock { $0 } }
    }

    static let instant = Date(timeIntervalSince1970: 1_767_258_000.5)  // 2026-01-01T09:00:00.500Z

    @Test("json: one object per line with timestamp, level, label, message and flattened metadata")
    func jsonLine() throws {
        let lines = Lines()
        var logger = Logger(label: "timeline") { label in
            JSONLogHandler(label: label, level: .debug, output: lines.output, now: { Self.instant })
        }
        logger[metadataKey: "store"] = "/data"
        logger.debug(
            "opened \"store\"\nnext",
            metadata: [
                "entries": "3", "message": "clash",
                "nested": ["a": ["1", "2"]],
            ])
        logger.trace("below the level: not written")
        #expect(lines.all.count == 1)
        let line = try #require(lines.all.first)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["timestamp"] as? String == "2026-01-01T09:00:00.500Z")
        #expect(object["level"] as? String == "debug")
        #expect(object["label"] as? String == "timeline")
        #expect(object["message"] as? String == "opened \"store\"\nnext")
        #expect(object["store"] as? String == "/data")
        #expect(object["entries"] as? String == "3")
        #expect(object["metadata.message"] as? String == "clash")
        #expect((object["nested"] as? [String: Any])?["a"] as? [String] == ["1", "2"])
        #expect(
            Set(object.keys) == [
                "timestamp", "level", "label", "message", "store", "entries", "metadata.message", "nested",
            ])
    }

    @Test("json: errors say where they came from")
    func jsonErrorSource() throws {
        let lines = Lines()
        let logger = Logger(label: "timeline") { label in
            JSONLogHandler(label: label, output: lines.output, now: { Self.instant })
        }
        logger.error("failed")
        let line = try #require(lines.all.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "error")
        #expect(object["source"] as? String == "ServiceKitTests")
    }

    @Test("text: time, level, label, message, then key=value")
    func textLine() {
        let lines = Lines()
        let logger = Logger(label: "intent") { label in
            TextLogHandler(label: label, output: lines.output, now: { Self.instant })
        }
        logger.info("ready", metadata: ["port": "7001", "b": "2"])
        #expect(lines.all == ["2026-01-01T09:00:00.500Z info intent: ready b=2 port=7001"])
    }

    @Test("--log-format picks the handler")
    func formatPicksHandler() {
        let lines = Lines()
        let json = ServiceLogging.makeHandler(format: .json, level: .info, output: lines.output)("x")
        let text = ServiceLogging.makeHandler(format: .text, level: .warning, output: lines.output)("x")
        #expect(json is JSONLogHandler)
        #expect(text is TextLogHandler)
        #expect(text.logLevel == .warning)
    }
}
