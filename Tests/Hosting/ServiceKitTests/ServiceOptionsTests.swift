import ArgumentParser
import Foundation
import Logging
import ServiceKit
import Testing

@Suite("Service options: flags, then GLIMPSE_* variables, then defaults")
struct ServiceOptionsTests {
    func resolve(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServiceConfig {
        try ServiceOptions.parse(arguments).resolve(service: "timeline", environment: environment)
    }

    func error(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try resolve(arguments, environment)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("nothing given: the defaults")
    func defaults() throws {
        let config = try resolve([])
        #expect(config == ServiceConfig.defaults(service: "timeline"))
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 0)
        #expect(config.dataDirectory == "./.glimpse/timeline")
        #expect(config.clock == .system)
        #expect(config.logFormat == .text)
        #expect(config.logLevel == .info)
        #expect(config.metricsPort == nil)
    }

    @Test("every flag from the environment when not on the command line")
    func environment() throws {
        let config = try resolve(
            [],
            [
                "GLIMPSE_HOST": "0.0.0.0", "GLIMPSE_PORT": "7001", "GLIMPSE_DATA_DIR": "/data/t",
                "GLIMPSE_CLOCK": "manual", "GLIMPSE_START_TIME": "2026-03-01T08:30:00Z", "GLIMPSE_LOG_FORMAT": "json",
                "GLIMPSE_LOG_LEVEL": "debug", "GLIMPSE_METRICS_PORT": "9100",
            ])
        #expect(config.host == "0.0.0.0")
        #expect(config.port == 7001)
        #expect(config.dataDirectory == "/data/t")
        #expect(config.clock == .manual(start: Date(timeIntervalSince1970: 1_772_353_800)))
        #expect(config.logFormat == .json)
        #expect(config.logLevel == .debug)
        #expect(config.metricsPort == 9100)
    }

    @Test("flags win over the environment")
    func flagsWin() throws {
        let config = try resolve(
            ["--port", "7002", "--data-dir", "/flag", "--log-format", "text", "--metrics-port", "0"],
            [
                "GLIMPSE_PORT": "7001", "GLIMPSE_DATA_DIR": "/env", "GLIMPSE_LOG_FORMAT": "json",
                "GLIMPSE_METRICS_PORT": "9100", "GLIMPSE_HOST": "10.0.0.1",
            ])
        #expect(config.port == 7002)
        #expect(config.dataDirectory == "/flag")
        #expect(config.logFormat == .text)
        #expect(config.metricsPort == 0)
        #expect(config.host == "10.0.0.1")  // not on the command line: the variable
    }

    @Test("a bad flag value is caught even when the variable is good")
    func badFlagBeatsGoodVariable() {
        #expect(
            error(["--port", "x"], ["GLIMPSE_PORT": "7001"])
                == #"--port: expected a port number 0...65535, got "x" (from --port)"#)
    }

    @Test("an empty variable counts as unset")
    func emptyVariable() throws {
        #expect(try resolve([], ["GLIMPSE_PORT": ""]).port == 0)
    }

    @Test(
        "invalid values fail with the flag and the variable named",
        arguments: [
            (["GLIMPSE_CLOCK": "maual"], #"--clock: expected system or manual, got "maual" (from GLIMPSE_CLOCK)"#),
            (["GLIMPSE_PORT": "70000"], #"--port: expected a port number 0...65535, got "70000" (from GLIMPSE_PORT)"#),
            (
                ["GLIMPSE_LOG_FORMAT": "yaml"],
                #"--log-format: expected text or json, got "yaml" (from GLIMPSE_LOG_FORMAT)"#
            ),
            (
                ["GLIMPSE_LOG_LEVEL": "loud"],
                #"--log-level: expected trace, debug, info, notice, warning, error or critical, got "loud" (from GLIMPSE_LOG_LEVEL)"#
            ),
            (
                ["GLIMPSE_METRICS_PORT": "-1"],
                #"--metrics-port: expected a port number 0...65535, got "-1" (from GLIMPSE_METRICS_PORT)"#
            ),
            (
                ["GLIMPSE_CLOCK": "manual", "GLIMPSE_START_TIME": "yesterday"],
                #"--start-time: expected an ISO 8601 instant such as 2026-01-01T09:00:00Z, got "yesterday" (from GLIMPSE_START_TIME)"#
            ),
            (
                ["GLIMPSE_START_TIME": "2026-03-01T08:30:00Z"],
                "--start-time: only with --clock manual (from GLIMPSE_START_TIME)"
            ),
        ])
    func invalidFromEnvironment(environment: [String: String], message: String) {
        #expect(error([], environment) == message)
    }

    @Test("an invalid flag names the flag")
    func invalidFlag() {
        #expect(error(["--clock", "maual"]) == #"--clock: expected system or manual, got "maual" (from --clock)"#)
    }

    @Test("manual clock: --start-time, or the fixed default start")
    func manualClock() throws {
        let start = try resolve(["--clock", "manual", "--start-time", "2026-03-01T09:30:00.250+01:00"]).clock
        #expect(start == .manual(start: Date(timeIntervalSince1970: 1_772_353_800.25)))
        let fallback = try resolve(["--clock", "manual"]).clock
        #expect(fallback == .manual(start: ServiceConfig.defaults(service: "timeline").manualStart))
    }

    @Test("service addresses: flag, then variable; required ones say how to give them")
    func addresses() throws {
        let options = try ServiceOptions.parse([])
        let source = options.source(environment: ["GLIMPSE_TIMELINE_ADDRESS": "timeline.local:7001"])
        #expect(try source.address("timeline-address", nil) == ServiceAddress(host: "timeline.local", port: 7001))
        #expect(try source.address("timeline-address", "[::1]:7002") == ServiceAddress(host: "::1", port: 7002))
        #expect(try source.optionalAddress("intent-address", nil) == nil)
        #expect(throws: ConfigError("--intent-address is required: pass it or set GLIMPSE_INTENT_ADDRESS")) {
            try source.address("intent-address", nil)
        }
        #expect(
            throws: ConfigError(#"--intent-address: expected host:port, got "intent" (from GLIMPSE_INTENT_ADDRESS)"#)
        ) {
            try options.source(environment: ["GLIMPSE_INTENT_ADDRESS": "intent"]).address("intent-address", nil)
        }
    }

    @Test(
        "host:port parsing",
        arguments: [
            ("localhost:1", ServiceAddress(host: "localhost", port: 1)),
            ("127.0.0.1:65535", ServiceAddress(host: "127.0.0.1", port: 65535)),
            ("[::1]:80", ServiceAddress(host: "::1", port: 80)),
            ("localhost", nil), (":80", nil), ("host:0", nil), ("host:65536", nil), ("::1:80", nil), ("host:x", nil),
        ] as [(String, ServiceAddress?)])
    func parseAddress(text: String, address: ServiceAddress?) {
        #expect(ServiceAddress(parsing: text) == address)
    }

    @Test("variable names follow the flag: --data-dir → GLIMPSE_DATA_DIR")
    func variableNames() {
        #expect(ConfigSource.environmentName(of: "data-dir") == "GLIMPSE_DATA_DIR")
        #expect(ConfigSource.environmentName(of: "timeline-address") == "GLIMPSE_TIMELINE_ADDRESS")
    }
}
