import GlimpseCLI
import GlimpseMessages
import Testing
import GlimpseVocabulary

@Suite("Durations, dates, names and --config values")
struct ParsingTests {
    @Test(
        "durations as people type them",
        arguments: [
            ("6h", 21_600.0), ("90m", 5_400), ("1d2h", 93_600), ("30s", 30), ("1h30m", 5_400), ("1.5h", 5_400),
            ("250ms", 0.25), ("2d", 172_800), (" 45s ", 45), ("1D", 86_400),
        ])
    func durations(text: String, seconds: Double) throws {
        #expect(try DurationText.parse(text) == seconds)
    }

    @Test("bad durations say what was expected", arguments: ["", "6", "6x", "h", "1h1h", "1.2.3h", "six hours"])
    func badDurations(text: String) {
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse(text) }
    }

    @Test("a negative duration only where one makes sense (clock follow --offset)")
    func negativeDurations() throws {
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("-1h") }
        #expect(try DurationText.parse("-1h30m", allowNegative: true) == -5_400)
        let error = try #require(throws: DurationText.Invalid.self) { try DurationText.parse("6x") }
        #expect(
            error.description
                == "invalid duration \"6x\": unknown unit \"x\"; expected a number and a unit (d, h, m, s), e.g. 6h, 90m, 1d2h, 30s"
        )
    }

    @Test("durations format back in the same units")
    func formatting() {
        #expect(DurationText.format(seconds: 93_784) == "1d2h3m4s")
        #expect(DurationText.format(seconds: 5_400) == "1h30m")
        #expect(DurationText.format(seconds: 0) == "0s")
        #expect(DurationText.format(seconds: 0.25) == "0.25s")
        #expect(DurationText.format(seconds: 86_400) == "1d")
        #expect(DurationText.format(seconds: -3_600) == "-1h")
    }

    @Test("clock advance goes in 1-day steps past a day")
    func clockSteps() {
        #expect(ClockSteps.split(6 * 3_600) == [21_600])
        #expect(ClockSteps.split(86_400) == [86_400])
        #expect(ClockSteps.split(7 * 86_400) == Array(repeating: 86_400, count: 7))
        #expect(ClockSteps.split(36 * 3_600) == [86_400, 43_200])
        #expect(ClockSteps.progress(done: 3, of: 7) == "advanced 3/7 days")
    }

    @Test("every widget family by WidgetKit's name, and back")
    func families() throws {
        #expect(FamilyName.all.count == 7)
        for (name, family) in FamilyName.all {
            #expect(try FamilyName.parse(name) == family)
            #expect(FamilyName.name(family) == name)
        }
        #expect(try FamilyName.parse("SYSTEMSMALL") == .systemSmall)
        #expect(try FamilyName.parse(".accessoryInline") == .accessoryInline)
        #expect(try FamilyName.parse("WIDGET_FAMILY_ACCESSORY_RECTANGULAR") == .accessoryRectangular)
        let error = try #require(throws: FamilyName.Unknown.self) { try FamilyName.parse("systemHuge") }
        #expect(
            error.description.contains(
                "systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline"
            ))
        #expect(FamilyName.name(.unspecified) == "unspecified")
        #expect(FamilyName.name(.unrecognized(42)) == "family(42)")
    }

    @Test("screens")
    func screens() throws {
        #expect(try ScreenName.parse("home") == .home)
        #expect(try ScreenName.parse("Lock") == .lock)
        #expect(throws: ScreenName.Unknown.self) { try ScreenName.parse("watch") }
    }

    @Test("ISO 8601 in UTC, both ways")
    func dates() throws {
        #expect(ISO8601Text.format(seconds: 0, nanos: 0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Text.format(seconds: 1_767_258_000, nanos: 0) == "2026-01-01T09:00:00Z")
        #expect(ISO8601Text.format(seconds: 1_767_258_000, nanos: 500_000_000) == "2026-01-01T09:00:00.500Z")
        #expect(ISO8601Text.format(seconds: 1_767_258_000, nanos: 1_000) == "2026-01-01T09:00:00.000001Z")
        #expect(ISO8601Text.format(seconds: -1, nanos: 0) == "1969-12-31T23:59:59Z")
        #expect(ISO8601Text.format(seconds: 951_782_400, nanos: 0) == "2000-02-29T00:00:00Z")
        #expect(try ISO8601Text.parse("2026-01-01T09:00:00Z").seconds == 1_767_258_000)
        #expect(try ISO8601Text.parse("2026-01-01T10:00:00+01:00").seconds == 1_767_258_000)
        #expect(try ISO8601Text.parse("2026-01-01T04:30:00-0430").seconds == 1_767_258_000)
        #expect(try ISO8601Text.parse("2026-01-01 09:00Z").seconds == 1_767_258_000)
        #expect(try ISO8601Text.parse("2026-01-01T09:00:00").seconds == 1_767_258_000)
        #expect(try ISO8601Text.parse("2026-01-01").seconds == 1_767_225_600)
        let fraction = try ISO8601Text.parse("2026-01-01T09:00:00.25Z")
        #expect(fraction.nanos == 250_000_000)
        #expect(try ISO8601Text.parse("2024-02-29T00:00:00Z").seconds == 1_709_164_800)
        for bad in [
            "2026-02-29", "2026-13-01", "2026-01-01T25:00:00Z", "tomorrow", "2026-01-01T09:00:00Q", "1767258000",
        ] {
            #expect(throws: ISO8601Text.Invalid.self, "\(bad)") { try ISO8601Text.parse(bad) }
        }
        for seconds: Int64 in [-86_401, 0, 1_767_258_000, 4_102_444_799] {
            #expect(try ISO8601Text.parse(ISO8601Text.format(seconds: seconds, nanos: 0)).seconds == seconds)
        }
    }

    @Test("--config values: typed by their text, or by key:type")
    func configValues() throws {
        func kind(_ text: String) throws -> GlimpseWidgetV1.ParameterValue.Kind? {
            try ConfigValue.parse(text).value.kind
        }
        #expect(try ConfigValue.parse("city=Paris").key == "city")
        #expect(try kind("city=Paris") == .stringValue("Paris"))
        #expect(try kind("count=42") == .intValue(42))
        #expect(try kind("ratio=2.5") == .doubleValue(2.5))
        #expect(try kind("on=true") == .boolValue(true))
        #expect(try kind("at=2026-01-01T09:00:00Z") == .dateValue(try ISO8601Text.parse("2026-01-01T09:00:00Z")))
        #expect(try kind("zip:string=75001") == .stringValue("75001"))
        #expect(try kind("n:int=7") == .intValue(7))
        #expect(try kind("x:double=3") == .doubleValue(3))
        #expect(try kind("flag:bool=off") == .boolValue(false))
        #expect(try kind("blob:bytes=AAEC") == .bytesValue([0, 1, 2]))
        #expect(try kind("empty=") == .stringValue(""))
        #expect(try kind("url=a=b") == .stringValue("a=b"))
        for bad in ["novalue", "=x", "n:int=seven", "x:color=red", "b:bool=maybe"] {
            #expect(throws: ConfigValue.Invalid.self, "\(bad)") { try ConfigValue.parse(bad) }
        }
        #expect(
            ConfigValue.format(["b": .init(kind: .intValue(2)), "a": .init(kind: .stringValue("x"))]) == "a=x, b=2")
    }

    @Test("host:port")
    func addresses() throws {
        #expect(try HostPort(parsing: "127.0.0.1:7700", what: "--gateway") == HostPort(host: "127.0.0.1", port: 7700))
        #expect(try HostPort(parsing: "[::1]:7700", what: "--gateway").host == "::1")
        #expect(try HostPort(parsing: "[::1]:7700", what: "--gateway").description == "[::1]:7700")
        for bad in ["localhost", ":7700", "host:0", "host:99999", "host:http"] {
            #expect(throws: CLIFailure.self, "\(bad)") { try HostPort(parsing: bad, what: "--gateway") }
        }
    }
}
