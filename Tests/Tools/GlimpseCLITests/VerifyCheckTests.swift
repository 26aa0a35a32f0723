import Foundation
import GlimpseCLI
import GlimpseJSON
import GlimpseMessages
import GlimpseVocabulary
import RPCCore
import Testing
import TimelineEngine

/// `glimpse verify`'s checks without a network: a manifest, hand-made answers, the report.
@Suite("verify: the checks, fed with hand-made answers")
struct VerifyCheckTests {
    typealias W = GlimpseWidgetV1

    static let now = Date(timeIntervalSince1970: 1_795_510_800)  // 2026-11-24T09:00:00Z

    static let manifest = """
        {
          "bundleId": "com.example.checks",
          "defaultEndpoint": "127.0.0.1:9",
          "widgets": [
            {"kind": "Board", "supportedFamilies": ["WIDGET_FAMILY_SYSTEM_MEDIUM", "WIDGET_FAMILY_ACCESSORY_INLINE"]},
            {"kind": "Other", "supportedFamilies": ["WIDGET_FAMILY_SYSTEM_SMALL"]}
          ],
          "intents": [
            {"type": "RateIntent", "title": "Rate", "widgetKinds": ["Board"], "handlerEndpoint": "default",
             "activityAttributes": ["TripAttributes"],
             "parameters": [{"name": "stars", "type": "VALUE_TYPE_INT"}, {"name": "note", "type": "VALUE_TYPE_STRING", "defaultValue": {"stringValue": ""}}]},
            {"type": "BoardOnlyIntent", "title": "Board only", "widgetKinds": ["Board"], "handlerEndpoint": "default"}
          ],
          "activityAttributes": [{"typeName": "TripAttributes"}],
          "assets": [
            {"name": "poster", "path": "poster.png", "use": "USE_WIDGET"},
            {"name": "face", "path": "face.png", "use": "USE_LIVE_ACTIVITY_LOCK_SCREEN"}
          ]
        }
        """

    static func png(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0, 0, 0, 0, 0]
    }

    static func inputs(
        _ text: String = manifest, assets: [AppVerifier.AssetFile]? = nil, samples: [(String, String)] = []
    ) throws -> AppVerifier.Inputs {
        let manifest = try ManifestLoader.parse(Array(text.utf8), format: .json, file: "app.json")
        return AppVerifier.Inputs(
            manifestPath: "app.json", manifest: manifest,
            assetFiles: assets ?? [.bytes(png(300, 450)), .bytes(png(300, 300))],
            sampleFiles: samples.map { ($0.0, Array($0.1.utf8)) }, now: now)
    }

    static func at(_ offset: Double) -> GoogleProtobuf.Timestamp {
        GoogleProtobuf.Timestamp(seconds: Int64(now.timeIntervalSince1970 + offset), nanos: 0)
    }

    static func text(_ s: String) -> W.View { W.View(kind: .text(W.Text(content: s))) }

    static func entry(_ offset: Double, _ view: W.View = text("hello")) -> W.TimelineEntry {
        W.TimelineEntry(date: at(offset), view: view)
    }

    static func stack(_ children: [W.View]) -> W.View {
        var stack = W.Stack()
        stack.children = children
        return W.View(kind: .stack(stack))
    }

    static func button(_ intent: String, _ parameters: [String: W.ParameterValue] = [:], id: String = "") -> W.View {
        var button = W.Button()
        var invocation = W.IntentInvocation()
        invocation.intentType = intent
        invocation.parameters = parameters
        button.intent = invocation
        button.label = text("Go")
        var view = W.View(kind: .button(button))
        view.id = id
        return view
    }

    static func image(_ name: String) -> W.View {
        var image = W.Image()
        image.assetName = name
        return W.View(kind: .image(image))
    }

    static func int(_ n: Int64) -> W.ParameterValue { var v = W.ParameterValue(); v.kind = .intValue(n); return v }
    static func string(_ s: String) -> W.ParameterValue {
        var v = W.ParameterValue(); v.kind = .stringValue(s); return v
    }

    /// Answers every probe alike: a placeholder and a snapshot of `view`, and `timeline`.
    static func answers(
        _ verifier: AppVerifier, timeline: (WidgetProbe) -> W.Timeline, view: W.View = text("hi"),
        seconds: Double = 0.002
    ) -> [WidgetAnswers] {
        verifier.widgetProbes.map { probe in
            WidgetAnswers(
                placeholder: .answered(GlimpseAppV1.PlaceholderResponse(entry: entry(0, view)), seconds: seconds),
                snapshot: .answered(GlimpseAppV1.SnapshotResponse(entry: entry(0, view)), seconds: seconds),
                timeline: .answered(GlimpseAppV1.TimelineResponse(timeline: timeline(probe)), seconds: seconds))
        }
    }

    static func good(_ probe: WidgetProbe) -> W.Timeline {
        W.Timeline(entries: [entry(0), entry(1800), entry(3600)], reloadPolicy: .atEnd)
    }

    static func lines(_ report: VerifyReport, _ status: VerifyFinding.Status) -> [String] {
        report.findings.filter { $0.status == status }.map { "\($0.subject) \($0.family) \($0.check): \($0.message)" }
    }

    static func views(_ lockScreen: W.View?, minimal: W.View? = text("m")) -> GlimpseAppV1.ActivityViewsResponse {
        var island = W.DynamicIslandViews()
        island.compactLeading = text("l")
        island.compactTrailing = text("t")
        island.minimal = minimal
        var center = W.ExpandedRegion()
        center.view = text("c")
        island.expandedCenter = center
        var views = W.ActivityViews()
        views.lockScreen = lockScreen
        views.dynamicIsland = island
        return GlimpseAppV1.ActivityViewsResponse(views: views)
    }

    // MARK: What to call

    @Test("one probe per declared family the device has, each with the context glimpse-timeline sends")
    func probes() throws {
        let verifier = AppVerifier(try Self.inputs())
        #expect(
            verifier.widgetProbes.map { "\($0.kind) \($0.family.rawValue)" } == [
                "Board systemMedium", "Board accessoryInline", "Other systemSmall",
            ])
        let board = verifier.widgetProbes[0]
        #expect(board.endpoint == "127.0.0.1:9")
        #expect(board.timeline.now == Self.at(0))
        #expect(board.timeline.context?.displaySize == W.DisplaySize(width: 338, height: 158))
        #expect(board.timeline.context?.renderingMode == .fullColor)
        #expect(board.snapshot.context?.isPreview == true)
        #expect(verifier.widgetProbes[1].timeline.context?.renderingMode == .vibrant)
        #expect(verifier.viewsProbes.isEmpty)
    }

    @Test("a good app: every check ok, exit status 0, text and JSON")
    func allGood() throws {
        let verifier = AppVerifier(try Self.inputs())
        let report = verifier.report(widgets: Self.answers(verifier, timeline: Self.good), views: [])
        #expect(Self.lines(report, .error).isEmpty, "\(Self.lines(report, .error))")
        // No sample content state for TripAttributes: a warning, not an error.
        #expect(
            Self.lines(report, .warning) == [
                "TripAttributes  sample: no sample content state, so its size, its dates and the views were not checked: pass --activity <file> "
                    + "(a RequestActivityRequest JSON, as `glimpse app request-activity` takes, or an APNs start body)"
            ])
        #expect(report.exitStatus == 0)
        #expect(report.text.contains("ok      Board systemMedium"))
        #expect(report.text.contains("timeline: 3 entries from now to now+1h, reload .atEnd; answered in 2 ms"))
        #expect(report.text.hasSuffix("com.example.checks passes: \(report.count(.ok)) ok, 1 warning, 0 errors"))
        let json = try JSONParser.parse(Array(String(decoding: report.json.serialized(), as: UTF8.self).utf8))
        #expect(json["passed"] == .bool(true))
        #expect(json["summary"]?["warnings"]?.doubleValue == 1)
        #expect(json["now"]?.stringValue == "2026-11-24T09:00:00Z")
    }

    // MARK: Timelines

    @Test("an unsorted timeline is a warning naming the entries: the device takes it and sorts it")
    func unsorted() throws {
        let verifier = AppVerifier(try Self.inputs())
        let report = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(entries: [Self.entry(0), Self.entry(3600), Self.entry(1800)], reloadPolicy: .never)
            }, views: [])
        #expect(
            Self.lines(report, .warning).contains(
                "Other systemSmall order: entries are not sorted by date: entry 2 (now+30m) comes after entry 1 (now+1h); the device sorts them, but the contract (provider.proto) asks for entries sorted by date"
            ))
        #expect(Self.lines(report, .error).isEmpty)
        #expect(report.exitStatus == 0)
    }

    @Test("the entry cap and the byte cap are glimpse-timeline's settings")
    func caps() throws {
        let verifier = AppVerifier(try Self.inputs())
        let many = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(entries: (0..<401).map { Self.entry(Double($0) * 600) }, reloadPolicy: .never)
            }, views: [])
        #expect(
            Self.lines(many, .error).contains(
                "Other systemSmall timeline: 401 entries: glimpse-timeline refuses a timeline of more than 400 (spec §1: \">400 entries stalls\") and keeps the last one"
            ))

        var inputs = try Self.inputs()
        inputs.timelineSettings.maxTimelineBytes = 64
        let small = AppVerifier(inputs)
        let big = small.report(
            widgets: Self.answers(small) { _ in
                W.Timeline(
                    entries: [Self.entry(0, Self.text(String(repeating: "x", count: 100)))], reloadPolicy: .never)
            }, views: [])
        #expect(
            Self.lines(big, .error).contains {
                $0.hasPrefix("Other systemSmall timeline: ")
                    && $0.hasSuffix(
                        " bytes of views and URLs: glimpse-timeline refuses more than 64 (spec §1: \"10 MB/timeline\") and keeps the last one"
                    )
            }, "\(Self.lines(big, .error))")
    }

    @Test("a first entry in the future is an error; one a second or so late is not")
    func future() throws {
        let verifier = AppVerifier(try Self.inputs())
        let late = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(entries: [Self.entry(900), Self.entry(1800)], reloadPolicy: .never)
            }, views: [])
        #expect(
            Self.lines(late, .error).contains(
                "Other systemSmall timeline: the first entry is in the future (now+15m, 2026-11-24T09:15:00Z): until then the widget shows its placeholder; start with an entry dated the request's now"
            ))
        let slightly = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(entries: [Self.entry(1), Self.entry(1800)], reloadPolicy: .never)
            }, views: [])
        #expect(Self.lines(slightly, .error).isEmpty)
    }

    @Test("on a run at the wall clock, an entry dated by the app's clock when it answered is not in the future")
    func wallClock() throws {
        // The app answered 3.4 s into the run (a busy machine) and dated its entry by its clock.
        func answers(_ verifier: AppVerifier) -> [WidgetAnswers] {
            Self.answers(verifier) { _ in W.Timeline(entries: [Self.entry(3)], reloadPolicy: .never) }.map {
                var answers = $0
                answers.timelineArrived = Self.now.addingTimeInterval(3.4)
                return answers
            }
        }
        var inputs = try Self.inputs()
        inputs.nowIsWallClock = true
        let live = AppVerifier(inputs)
        #expect(Self.lines(live.report(widgets: answers(live), views: []), .error).isEmpty)
        // With --now the request's now is all the app may know: the same answer is in the future.
        let fixed = AppVerifier(try Self.inputs())
        #expect(
            Self.lines(fixed.report(widgets: answers(fixed), views: []), .error).contains {
                $0.contains("the first entry is in the future (now+3s")
            })
    }

    @Test("no entries, an entry without a date: errors as glimpse-timeline sees them")
    func malformed() throws {
        let verifier = AppVerifier(try Self.inputs())
        let empty = verifier.report(
            widgets: Self.answers(verifier) { _ in W.Timeline(entries: [], reloadPolicy: .never) }, views: [])
        #expect(
            Self.lines(empty, .error).contains(
                "Other systemSmall timeline: no entries: the widget shows only its placeholder"))
        let undated = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(entries: [W.TimelineEntry(view: Self.text("x"))], reloadPolicy: .never)
            }, views: [])
        #expect(
            Self.lines(undated, .error).contains(
                "Other systemSmall timeline: glimpse-timeline refuses it (INVALID_TIMELINE): timeline.entries[0].date: an entry needs a date"
            ))
    }

    @Test("warnings: entries under five minutes apart; a policy that spends the daily budget")
    func spacingAndBudget() throws {
        let verifier = AppVerifier(try Self.inputs())
        let report = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(
                    entries: [Self.entry(0), Self.entry(60), Self.entry(120)], reloadPolicy: .after(Self.at(60)))
            }, views: [])
        let warnings = Self.lines(report, .warning)
        #expect(
            warnings.contains(
                "Other systemSmall spacing: entries 0 and 1 are 1m apart (and 1 more pair); WidgetKit asks for entries at least 5m apart (spec §1)"
            ))
        #expect(
            warnings.contains(
                "Other systemSmall reload policy: .after(now+1m) asks for the next timeline 1m from now; at that pace (Glimpse spaces reloads at least 5m apart) "
                    + "the 70 reloads of the 24h budget are spent in 5h50m, then the widget waits for the budget; one reload every 20m35s or less often lasts the day"
            ))
        #expect(report.exitStatus == 0)

        // .atEnd on a timeline that ends within minutes does the same.
        let atEnd = verifier.report(
            widgets: Self.answers(verifier) { _ in
                W.Timeline(entries: [Self.entry(0), Self.entry(600)], reloadPolicy: .atEnd)
            }, views: [])
        #expect(
            Self.lines(atEnd, .warning).contains {
                $0.hasPrefix("Other systemSmall reload policy: .atEnd asks for the next timeline 10m from now;")
                    && $0.contains("spent in 11h40m")
            })
        // Every half hour lasts: no warning.
        let fine = verifier.report(widgets: Self.answers(verifier, timeline: Self.good), views: [])
        #expect(!Self.lines(fine, .warning).contains { $0.contains("reload policy") || $0.contains("spacing") })
    }

    // MARK: Calls

    @Test("failures, deadlines, slow answers and an endpoint nobody answers at")
    func calls() throws {
        var inputs = try Self.inputs()
        inputs.timeout = 5
        let verifier = AppVerifier(inputs)
        let refused = CallOutcome<GlimpseAppV1.PlaceholderResponse>.failed(
            .unavailable, "Cannot connect to 127.0.0.1:9: connection refused (errno 111)", seconds: 0)
        var widgets = Self.answers(verifier, timeline: Self.good)
        widgets[0].placeholder = refused
        widgets[0].snapshot = .failed(.unavailable, "Cannot connect to 127.0.0.1:9: connection refused", seconds: 0)
        widgets[1].timeline = .failed(.deadlineExceeded, "Deadline exceeded", seconds: 5)
        widgets[2].timeline = .failed(.notFound, "no widget kind \"Other\"", seconds: 0.01)
        widgets[2].placeholder = .answered(GlimpseAppV1.PlaceholderResponse(), seconds: 0.01)
        widgets[2].snapshot = .answered(GlimpseAppV1.SnapshotResponse(entry: Self.entry(0)), seconds: 31)
        let report = verifier.report(widgets: widgets, views: [])
        let errors = Self.lines(report, .error)
        #expect(
            errors.contains(
                "127.0.0.1:9  endpoint: cannot reach it (connection refused): 2 calls not answered; start the app there or pass --endpoint host:port"
            ))
        #expect(
            errors.contains(
                "Board accessoryInline timeline: no answer within 5s (--timeout; Glimpse waits 30s, its provider timeout)"
            ))
        #expect(
            errors.contains(
                "Other systemSmall timeline: WidgetProvider.Timeline failed: NOT_FOUND: no widget kind \"Other\""))
        #expect(
            errors.contains(
                "Other systemSmall placeholder: answered without an entry: the widget has nothing to show redacted while it loads"
            ))
        #expect(
            errors.contains(
                "Other systemSmall snapshot: answered after 31s: Glimpse gives up after 30s (its provider timeout) and keeps the last timeline"
            ))
        #expect(report.exitStatus == 1)
    }

    // MARK: Views: images and intents

    @Test(
        "intents: undeclared, not offered by the kind, parameters missing, unknown or of the wrong type; inline buttons"
    )
    func intents() throws {
        let verifier = AppVerifier(try Self.inputs())
        let view = Self.stack([
            Self.button("RateIntent", ["stars": Self.int(5)], id: "rate"),
            Self.button("NoSuchIntent"),
            Self.button("RateIntent"),
            Self.button("RateIntent", ["stars": Self.string("five")]),
            Self.button("RateIntent", ["stars": Self.int(1), "mood": Self.string("x")]),
        ])
        let report = verifier.report(
            widgets: Self.answers(
                verifier,
                timeline: { _ in
                    W.Timeline(entries: [Self.entry(0, view), Self.entry(1800, view)], reloadPolicy: .never)
                }, view: view), views: [])
        let errors = Self.lines(report, .error)
        #expect(
            errors.contains(
                "Board systemMedium intent: Button \"Go\" invokes NoSuchIntent, which the manifest does not declare (declared: RateIntent, BoardOnlyIntent): glimpse-intent refuses the tap (UNKNOWN_INTENT)"
            ))
        #expect(
            errors.contains(
                "Board systemMedium intent: Button \"Go\" → RateIntent does not set parameter stars (int), which has no default: widgets do not prompt (spec §3), so glimpse-intent refuses the tap (MISSING_PARAMETER)"
            ))
        #expect(
            errors.contains(
                "Board systemMedium intent: Button \"Go\" → RateIntent sets parameter stars to a string; RateIntent declares it int: glimpse-intent refuses the tap (PARAMETER_TYPE_MISMATCH)"
            ))
        #expect(
            errors.contains(
                "Board systemMedium intent: Button \"Go\" → RateIntent sets parameter mood, which RateIntent does not declare: glimpse-intent refuses the tap (UNKNOWN_PARAMETER)"
            ))
        #expect(
            errors.contains(
                "Other systemSmall intent: Button \"rate\" invokes RateIntent, whose widgetKinds do not list Other: glimpse-intent refuses the tap (NOT_OFFERED_BY_KIND)"
            ))
        #expect(
            Self.lines(report, .ok).contains(
                "Board systemMedium intent: Button \"rate\" → RateIntent(note, stars): declared, parameters set"))
        #expect(
            Self.lines(report, .warning).contains(
                "Board accessoryInline intent: Button \"rate\" on accessoryInline: Buttons and Toggles do nothing there (spec §3: one tap target, the app); glimpse-intent refuses the tap (NOT_INTERACTIVE)"
            ))
    }

    @Test("images: a name the manifest does not declare is an error")
    func images() throws {
        let verifier = AppVerifier(try Self.inputs())
        let view = Self.stack([Self.image("poster"), Self.image("missing"), Self.image("face")])
        let report = verifier.report(
            widgets: Self.answers(
                verifier,
                timeline: { _ in
                    W.Timeline(entries: [Self.entry(0, view)], reloadPolicy: .never)
                }, view: view), views: [])
        #expect(
            Self.lines(report, .error).contains(
                "Other systemSmall image: Image(\"missing\"): the manifest declares no asset \"missing\" (declared: poster, face), so glimpse-asset has no image by that name"
            ))
        #expect(Self.lines(report, .ok).contains("Other systemSmall image: shows poster, face: declared assets"))
    }

    // MARK: Assets

    @Test("assets: over glimpse-asset's limits, not an image, unreadable, no use")
    func assets() throws {
        let text = Self.manifest.replacingOccurrences(
            of: "\"use\": \"USE_WIDGET\"", with: "\"use\": \"USE_UNSPECIFIED\"")
        let verifier = AppVerifier(
            try Self.inputs(
                text,
                assets: [
                    .bytes(Self.png(300, 450)), .unreadable(file: "/x/face.png", reason: "No such file or directory"),
                ]))
        let report = verifier.report(widgets: Self.answers(verifier, timeline: Self.good), views: [])
        #expect(
            Self.lines(report, .error).contains(
                "poster  asset: glimpse-asset refuses it: use: say what the image is for: USE_WIDGET or a Live Activity presentation"
            ))
        #expect(
            Self.lines(report, .error).contains(
                "face  asset: cannot read /x/face.png (No such file or directory); asset paths are relative to the manifest's directory"
            ))

        let big = AppVerifier(
            try Self.inputs(assets: [.bytes(Self.png(1024, 1024)), .bytes(Array("GIF89a....".utf8))]))
        let bigReport = big.report(widgets: Self.answers(big, timeline: Self.good), views: [])
        #expect(
            Self.lines(bigReport, .error).contains(
                "poster  asset: glimpse-asset refuses it: a 1024×1024 widget image is 1048576 pixels; the limit is 718080"
            ))
        #expect(
            Self.lines(bigReport, .error).contains(
                "face  asset: glimpse-asset refuses it: GIF images are not accepted; only PNG and JPEG"))

        let tall = AppVerifier(try Self.inputs(assets: [.bytes(Self.png(300, 450)), .bytes(Self.png(1200, 600))]))
        #expect(
            Self.lines(tall.report(widgets: Self.answers(tall, timeline: Self.good), views: []), .error).contains(
                "face  asset: glimpse-asset refuses it: a 1200×600 image is larger than the lockScreen presentation (1113×480 px)"
            ))
        #expect(
            Self.lines(AppVerifier(try Self.inputs()).report(widgets: [], views: []), .ok).contains(
                "poster  asset: PNG 300×450 px, 33 bytes: fits widget images (up to 718080 px)"))
    }

    @Test("manifest errors: the services' own install checks")
    func manifestErrors() throws {
        let text = Self.manifest
            .replacingOccurrences(of: "{\"kind\": \"Other\"", with: "{\"kind\": \"Board\"")
            .replacingOccurrences(
                of: "\"title\": \"Rate\",", with: "\"title\": \"Rate\", \"store\": {\"appGroup\": \"\"},"
            )
            .replacingOccurrences(of: ", \"handlerEndpoint\": \"default\"", with: "")
        let report = AppVerifier(try Self.inputs(text)).report(widgets: [], views: [])
        let errors = Self.lines(report, .error)
        #expect(
            errors.contains(
                "app.json  manifest: glimpse-timeline refuses the install: manifest.widgets[1].kind: kind \"Board\" is declared twice"
            ))
        #expect(
            errors.contains(
                "app.json  manifest: glimpse-intent refuses the install: manifest.intents[0].store.app_group: an App Group is required"
            ))
    }

    // MARK: Live Activities

    static let trip =
        "{\"attributesType\": \"TripAttributes\", \"attributesJson\": \"{\\\"name\\\":\\\"Lisbon\\\"}\", \"content\": {\"stateJson\": \"%@\"}}"

    static func sample(_ state: String) -> String {
        trip.replacingOccurrences(of: "%@", with: state.replacingOccurrences(of: "\"", with: "\\\""))
    }

    @Test("content states: 4 KB, ISO 8601 dates, $now templates, undeclared types, the views' answers")
    func activities() throws {
        let big = "{\"note\":\"" + String(repeating: "x", count: 4090) + "\"}"  // 4101 bytes
        let inputs = try Self.inputs(samples: [
            ("fine.json", Self.sample("{\"eta\":\"$now+20m\",\"stop\":1}")),
            ("big.json", Self.sample(big)),
            ("iso.json", Self.sample("{\"eta\":\"2026-11-24T15:00:00Z\",\"legs\":[{\"at\":\"2026-11-24\"}]}")),
            ("other.json", "{\"attributesType\": \"CarAttributes\", \"content\": {\"stateJson\": \"{}\"}}"),
            ("broken.json", "[1, 2"),
        ])
        let verifier = AppVerifier(inputs)
        #expect(verifier.viewsProbes.map(\.sample.source) == ["fine.json", "big.json", "iso.json"])
        // "$now+20m" became that instant in seconds since 2001.
        #expect(
            verifier.viewsProbes[0].request.stateJson
                == "{\"eta\":\(Int(Self.now.timeIntervalSinceReferenceDate) + 1200),\"stop\":1}")
        #expect(verifier.viewsProbes[0].endpoint == "127.0.0.1:9")
        let report = verifier.report(
            widgets: Self.answers(verifier, timeline: Self.good),
            views: [
                .answered(
                    Self.views(
                        Self.stack([
                            Self.image("face"), Self.button("RateIntent", ["stars": Self.int(2)]),
                            Self.button("BoardOnlyIntent"),
                        ]), minimal: Self.image("poster")), seconds: 0.004),
                // Answered, but after the gateway's 2 s: the device draws the activity without it.
                .answered(Self.views(nil, minimal: nil), seconds: 3.2),
                .failed(.invalidArgument, "TripAttributes.ContentState: typeMismatch(Double)", seconds: 0.003),
            ])
        let errors = Self.lines(report, .error)
        #expect(
            errors.contains(
                "TripAttributes big.json content state: 4101 bytes: ActivityKit refuses a content state over 4096 bytes (attributesTooLarge; spec §4: 4096 accepted, 4097 rejected)"
            ))
        let decoder =
            "ActivityKit decodes it with the default JSONDecoder (custom strategies fail; Date = seconds since 2001, spec §5)"
        #expect(
            errors.contains(
                "TripAttributes iso.json content state: \"eta\" is the ISO 8601 string \"2026-11-24T15:00:00Z\": \(decoder); write the number 817225200"
            ))
        #expect(
            errors.contains(
                "TripAttributes iso.json content state: \"legs[0].at\" is the ISO 8601 string \"2026-11-24\": \(decoder); write the number 817171200"
            ))
        #expect(
            errors.contains(
                "TripAttributes iso.json views: ActivityConfiguration.Views failed: INVALID_ARGUMENT: TripAttributes.ContentState: typeMismatch(Double)"
            ))
        #expect(
            errors.contains(
                "TripAttributes big.json views: answered after 3s: Glimpse gives up after 2s (the device's deadline for an activity's views) and draws the activity without them"
            ))
        // A Live Activity's button whose intent does not list the activity's attributes type.
        #expect(
            errors.contains(
                "TripAttributes lockScreen intent: Button \"Go\" invokes BoardOnlyIntent, whose activityAttributes do not list TripAttributes: glimpse-intent refuses the tap (NOT_OFFERED_BY_ACTIVITY)"
            ))
        #expect(
            errors.contains {
                $0.hasPrefix(
                    "other.json  sample: attributes type \"CarAttributes\" is not in the manifest's activityAttributes (declared: TripAttributes)"
                )
            })
        #expect(errors.contains { $0.hasPrefix("broken.json  sample: not JSON: ") })
        // A widget image shown where it does not fit: the limits of the place it is shown in.
        #expect(
            Self.lines(report, .warning).contains(
                "TripAttributes minimal image: Image(\"poster\") is declared for widget images but shown in the Live Activity minimal presentation: a 300×450 image is larger than the minimal presentation (135×110 px)"
            ))
        let ok = Self.lines(report, .ok)
        #expect(
            ok.contains {
                $0.hasPrefix("TripAttributes fine.json content state: ")
                    && $0.hasSuffix(" bytes (limit 4096), JSON with no ISO 8601 date strings")
            })
        #expect(
            ok.contains(
                "TripAttributes fine.json views: answered in 4 ms: Lock Screen, expanded (1 region), compact, minimal"))
        #expect(ok.contains("TripAttributes lockScreen image: shows face: declared assets"))
        // Live Activity buttons have no widget kind to be offered by: their intent lists the attributes type.
        #expect(
            ok.contains(
                "TripAttributes lockScreen intent: Button \"Go\" → RateIntent(note, stars): declared, parameters set"))
    }

    @Test("an APNs start body is a sample too, through glimpse-activity's parser")
    func pushBody() throws {
        let start =
            "{\"aps\":{\"timestamp\":1795510800,\"event\":\"start\",\"attributes-type\":\"TripAttributes\",\"attributes\":{\"name\":\"Porto\"},"
            + "\"content-state\":{\"eta\":817225200},\"alert\":{\"title\":\"Trip\",\"body\":\"Started\"}}}"
        let update = "{\"aps\":{\"timestamp\":1795510800,\"event\":\"update\"}}"
        let verifier = AppVerifier(try Self.inputs(samples: [("start.json", start), ("update.json", update)]))
        #expect(verifier.viewsProbes.map(\.request.stateJson) == ["{\"eta\":817225200}"])
        #expect(verifier.viewsProbes.map(\.request.attributesJson) == ["{\"name\":\"Porto\"}"])
        let report = verifier.report(widgets: [], views: [.answered(Self.views(Self.text("trip")), seconds: 0.001)])
        #expect(
            Self.lines(report, .error) == [
                "update.json  sample: glimpse-activity's APNs endpoint refuses this body (400 MissingField): \"aps.content-state\" is required"
            ])
    }
}
