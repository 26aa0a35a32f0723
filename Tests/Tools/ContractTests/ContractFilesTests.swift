import Contracts
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import Testing

/// The contract files themselves: they load (every example decodes, keeps its own rules
/// and holds nothing the rules do not cover), the binary's copy is them, and every
/// consumer → provider pair the services have is there.
@Suite("Contract files")
struct ContractFilesTests {
    @Test("every contract file loads and checks")
    func load() throws {
        let contracts = try Repository.contracts()
        let pairs = contracts.pairs.map { "\($0.consumer) → \($0.provider)" }
        #expect(
            pairs == [
                "glimpse-activity → glimpse-timeline", "glimpse-gateway → glimpse-activity",
                "glimpse-gateway → glimpse-asset",
                "glimpse-gateway → glimpse-intent", "glimpse-gateway → glimpse-timeline",
                "glimpse-intent → glimpse-timeline",
                "glimpse-timeline → glimpse-asset",
            ])
    }

    @Test("the copy built into the binary is the files (else: python3 scripts/embed-contracts.py)")
    func builtIn() throws {
        let onDisk = try ContractFiles.read(directory: Repository.contractsDirectory)
        let builtIn = try ContractSet.builtIn()
        #expect(builtIn.interactions.map(\.file) == onDisk.map(\.path))
        let disk = try Repository.contracts()
        for (embedded, file) in zip(builtIn.interactions, disk.interactions) {
            #expect(embedded.summary == file.summary, "\(file.file) changed: run python3 scripts/embed-contracts.py")
        }
    }

    @Test("the method table holds every method of the four services and the clock")
    func methods() {
        let served =
            GlimpseTimelineV1.TimelineService.Method.all + GlimpseIntentV1.IntentService.Method.all
            + GlimpseActivityV1.ActivityService.Method.all + GlimpseAssetV1.AssetService.Method.all
            + GlimpseClockV1.Clock.Method.all
        #expect(Set(ContractMethods.all.map(\.descriptor)) == Set(served))
    }

    @Test("a file that promises a field its example lacks, or shows one it does not promise, is refused by name")
    func refusals() throws {
        func problems(_ text: String) -> String {
            do {
                _ = try ContractSet.load(files: [("gateway-timeline/bad.json", Array(text.utf8))], source: "test")
                return ""
            } catch {
                return error.description
            }
        }
        let base =
            #"{"consumer": "glimpse-gateway", "provider": "glimpse-timeline", "interaction": "x", "call": "glimpse.clock.v1.Clock/Now", "#
        #expect(
            problems(
                base
                    + #""expect": {"fields": {"now": "timestamp"}}, "example": {"now": "2026-01-01T00:00:00Z", "manual": true}}"#
            )
            .contains("gateway-timeline/bad.json: example: manual is not among the fields relied on"))
        #expect(
            problems(base + #""expect": {"fields": {"now": "timestamp"}}, "example": {"manual": true}}"#)
                .contains("example breaks its own rule: now: expected a timestamp, got absent"))
        #expect(
            problems(
                base + #""expect": {"fields": {"then": "timestamp"}}, "example": {"then": "2026-01-01T00:00:00Z"}}"#
            )
            .contains("example is no glimpse.clock.v1.NowResponse"))
        #expect(
            problems(base + #""expect": {"fields": {"now": "timestamp"}}, "exampel": {}}"#)
                .contains("unknown key \"exampel\""))
    }
}

/// The matcher on answers as proto3 JSON writes them.
@Suite("Field rules")
struct FieldRuleTests {
    static func rule(_ path: String, _ json: String) throws -> FieldRule {
        let file =
            #"{"consumer": "glimpse-gateway", "provider": "glimpse-timeline", "interaction": "x", "call": "glimpse.clock.v1.Clock/Now", "expect": {"fields": {""#
            + path + #"": "# + json + "}}}"
        return try Interaction(file: "gateway-timeline/x.json", bytes: Array(file.utf8)).expect.fields[0]
    }

    static func answer(_ json: String) throws -> JSONValue { try JSONParser.parse(Array(json.utf8)) }

    @Test("an absent scalar is its default; an absent message is not set")
    func defaults() throws {
        let empty = try Self.answer("{}")
        #expect(try Self.rule("budget.used", #""number""#).check(empty, variables: Variables(run: "t")).isEmpty)
        #expect(try Self.rule("replayed", #"{"equals": false}"#).check(empty, variables: Variables(run: "t")).isEmpty)
        #expect(
            try Self.rule("budget.limit", #"{"type": "number", "min": 1}"#).check(empty, variables: Variables(run: "t"))
                .map(\.description) == ["budget.limit: expected a number ≥ 1, got absent (the default, 0)"])
        #expect(
            try Self.rule("budget", #""object""#).check(empty, variables: Variables(run: "t"))
                .map(\.description) == ["budget: expected a message (set), got absent"])
        #expect(
            try Self.rule("lastError", #"{"type": "object", "optional": true}"#).check(
                empty, variables: Variables(run: "t")
            ).isEmpty)
    }

    @Test("64-bit numbers arrive as strings and equal saved values; [*] and [?field] reach into lists")
    func paths() throws {
        var variables = Variables(run: "t")
        variables["placement"] = .string("7")
        let answer = try Self.answer(
            #"{"placements": [{"placementId": "7", "used": 2}, {"placementId": "8"}], "messages": [{"a": 1}, {"reload": {"reason": "X"}}]}"#
        )
        #expect(
            try Self.rule("placements[0].placementId", #"{"equals": "${placement}"}"#).check(
                answer, variables: variables
            ).isEmpty)
        #expect(
            try Self.rule("placements[*].used", #"{"type": "number", "min": 1}"#).check(answer, variables: variables)
                .map(\.description) == ["placements[1].used: expected a number ≥ 1, got absent (the default, 0)"])
        #expect(
            try Self.rule("messages[?reload].reload.reason", #"{"equals": "X"}"#).check(answer, variables: variables)
                .isEmpty)
        #expect(
            try Self.rule("messages[?error].error", #""object""#).check(answer, variables: variables)
                .map(\.description) == ["messages[?error].error: expected a message (set), got absent"])
    }
}
