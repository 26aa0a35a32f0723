#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
import GlimpseVocabulary
import AssetEngine
import GlimpseJSON
import GlimpseMessages
import IntentEngine
import ProtoMapping
import RPCCore
import TimelineEngine
import TimelineMapping

/// The app's answers judged one by one. Calls that found nobody listening are gathered
/// per endpoint (one error line each), the rest give their own lines.
struct AnswerJudge {
    let verifier: AppVerifier
    var findings: [VerifyFinding] = []
    /// Endpoints that did not answer at the transport level: the reason and the calls lost.
    var unreachable: [(endpoint: String, detail: String, calls: Int)] = []

    init(verifier: AppVerifier) { self.verifier = verifier }

    var now: Date { verifier.inputs.now }
    var settings: TimelineSettings { verifier.inputs.timelineSettings }

    // MARK: Widgets

    mutating func widget(_ probe: WidgetProbe, _ answers: WidgetAnswers) {
        let family = probe.family.rawValue
        var uses: [(String, GlimpseWidgetV1.View?)] = []
        // Placeholder and Snapshot are optional on the wire, as the device treats them: without
        // Placeholder it draws its own grey placeholder; without Snapshot the gallery shows the
        // provider's error.
        if case .failed(.unimplemented, _, _) = answers.placeholder {
            findings.append(
                VerifyFinding(
                    .warning, "placeholder", subject: probe.kind, family: family,
                    "WidgetProvider.Placeholder is not implemented: the device draws its own grey placeholder until the first timeline"
                ))
        } else if let response = answered("placeholder", probe, answers.placeholder) {
            if let entry = response.entry {
                findings.append(
                    VerifyFinding(
                        .ok, "placeholder", subject: probe.kind, family: family,
                        "answered in \(Self.took(answers.placeholder))"))
                uses.append(("placeholder", entry.view))
            } else {
                findings.append(
                    VerifyFinding(
                        .error, "placeholder", subject: probe.kind, family: family,
                        "answered without an entry: the widget has nothing to show redacted while it loads"))
            }
        }
        if case .failed(.unimplemented, _, _) = answers.snapshot {
            findings.append(
                VerifyFinding(
                    .warning, "snapshot", subject: probe.kind, family: family,
                    "WidgetProvider.Snapshot is not implemented: the widget gallery shows this kind with the provider's error"
                ))
        } else if let response = answered("snapshot", probe, answers.snapshot) {
            if let entry = response.entry {
                findings.append(
                    VerifyFinding(
                        .ok, "snapshot", subject: probe.kind, family: family,
                        "answered in \(Self.took(answers.snapshot)) (gallery preview)"))
                uses.append(("snapshot", entry.view))
            } else {
                findings.append(
                    VerifyFinding(
                        .error, "snapshot", subject: probe.kind, family: family,
                        "answered without an entry: the widget gallery shows nothing"))
            }
        }
        if let response = answered("timeline", probe, answers.timeline) {
            let elapsed = if case .answered(_, let seconds) = answers.timeline { seconds } else { 0.0 }
            // How far past `now` the app's clock may read while it answers: the call's own time,
            // or, on a run at the wall clock, up to the answer's arrival.
            var clockAhead = elapsed
            if verifier.inputs.nowIsWallClock, let arrived = answers.timelineArrived {
                clockAhead = max(elapsed, arrived.timeIntervalSince(now))
            }
            let wire = response.timeline ?? GlimpseWidgetV1.Timeline()
            timeline(probe, wire, elapsed: elapsed, clockAhead: clockAhead)
            for (index, entry) in wire.entries.enumerated() { uses.append(("entry \(index)", entry.view)) }
        }
        views(uses.map { $0.1 }, subject: probe.kind, family: probe.family, presentation: nil)
    }

    /// The response of a call that answered in time; otherwise its finding (or, for a
    /// transport failure, its endpoint's count) and nil.
    mutating func answered<Message>(_ call: String, _ probe: WidgetProbe, _ outcome: CallOutcome<Message>) -> Message? {
        answered(
            call, subject: probe.kind, family: probe.family.rawValue, endpoint: probe.endpoint,
            method: "WidgetProvider.\(call.prefix(1).uppercased() + call.dropFirst())", outcome)
    }

    /// `deadline`: how long Glimpse waits for this call, and what it does then (default:
    /// glimpse-timeline's provider timeout, keeping the last timeline).
    mutating func answered<Message>(
        _ call: String, subject: String, family: String, endpoint: String?, method: String,
        _ outcome: CallOutcome<Message>,
        deadline: (seconds: Double, name: String, then: String)? = nil
    ) -> Message? {
        let deadline = deadline ?? (settings.providerTimeout, "its provider timeout", "keeps the last timeline")
        let timeout = deadline.seconds
        switch outcome {
        case .notCalled:
            return nil  // the missing endpoint is reported once, with the manifest
        case .failed(let code, let message, _):
            if code == .unavailable, let detail = CLIFailure.transportFailure(message), let endpoint {
                if let i = unreachable.firstIndex(where: { $0.endpoint == endpoint }) {
                    unreachable[i].calls += 1
                } else {
                    unreachable.append((endpoint, detail, 1))
                }
                return nil
            }
            if code == .deadlineExceeded {
                let limit = verifier.inputs.timeout
                let why =
                    limit < timeout
                    ? "no answer within \(Self.duration(limit)) (--timeout; Glimpse waits \(Self.duration(timeout)), \(deadline.name))"
                    : "no answer within \(Self.duration(limit)): Glimpse gives up after \(Self.duration(timeout)) (\(deadline.name)) and \(deadline.then)"
                findings.append(VerifyFinding(.error, call, subject: subject, family: family, why))
                return nil
            }
            findings.append(
                VerifyFinding(
                    .error, call, subject: subject, family: family,
                    "\(method) failed: \(code)" + (message.isEmpty ? "" : ": \(message)")))
            return nil
        case .answered(let message, let seconds):
            if seconds > timeout {
                findings.append(
                    VerifyFinding(
                        .error, call, subject: subject, family: family,
                        "answered after \(Self.duration(seconds)): Glimpse gives up after \(Self.duration(timeout)) (\(deadline.name)) and \(deadline.then)"
                    ))
                return nil
            }
            return message
        }
    }

    /// The timeline rules: glimpse-timeline's field checks and caps, the contract's order
    /// and first entry, then the spacing and the reload budget (warnings).
    mutating func timeline(
        _ probe: WidgetProbe, _ wire: GlimpseWidgetV1.Timeline, elapsed: Double, clockAhead: Double
    ) {
        let family = probe.family.rawValue
        func add(_ status: VerifyFinding.Status, _ message: String, check: String = "timeline") {
            findings.append(VerifyFinding(status, check, subject: probe.kind, family: family, message))
        }
        let timeline: TimelineEngine.Timeline
        do { timeline = try TimelineEngine.Timeline(wire) } catch {
            add(.error, "glimpse-timeline refuses it (INVALID_TIMELINE): \(error)")
            return
        }
        var errors = 0
        if let violation = timeline.capViolation(settings) {
            errors += 1
            switch violation {
            case .tooManyEntries(let count, let limit):
                add(
                    .error,
                    "\(count) entries: glimpse-timeline refuses a timeline of more than \(limit) (spec §1: \">400 entries stalls\") and keeps the last one"
                )
            case .tooManyBytes(let count, let limit):
                add(
                    .error,
                    "\(count) bytes of views and URLs: glimpse-timeline refuses more than \(limit) (spec §1: \"10 MB/timeline\") and keeps the last one"
                )
            }
        }
        let dates = timeline.entries.map(\.date)
        guard !dates.isEmpty else {
            add(.error, "no entries: the widget shows only its placeholder")
            return
        }
        if let i = dates.indices.dropFirst().first(where: { dates[$0] < dates[$0 - 1] }) {
            // The device takes them and sorts them (stable: of entries with one date, the
            // later one shows), as WidgetKit shows entries by their dates.
            add(
                .warning,
                "entries are not sorted by date: entry \(i) (\(relative(dates[i]))) comes after entry \(i - 1) (\(relative(dates[i - 1]))); the device sorts them, but the contract (provider.proto) asks for entries sorted by date",
                check: "order")
        }
        let first = dates.min()!
        // An answer can only know the clock up to when it was sent.
        if first.timeIntervalSince(now) > max(1, clockAhead.rounded(.up)) {
            errors += 1
            add(
                .error,
                "the first entry is in the future (\(relative(first)), \(ISO8601Text.format(GoogleProtobuf.Timestamp(first)))): until then the widget shows its placeholder; start with an entry dated the request's now"
            )
        }
        if errors == 0 {
            add(
                .ok,
                "\(dates.count) entr\(dates.count == 1 ? "y" : "ies") from \(relative(first)) to \(relative(dates.max()!)), reload \(policyText(timeline.policy)); answered in \(Self.duration(elapsed))"
            )
        }
        // Spacing (spec §1: "Entries ≥ 5 min apart").
        let spacing = settings.minimumReloadSpacing
        let sorted = dates.sorted()
        let close = sorted.indices.dropFirst().filter { sorted[$0].timeIntervalSince(sorted[$0 - 1]) < spacing }
        if let firstClose = close.first {
            let gap = sorted[firstClose].timeIntervalSince(sorted[firstClose - 1])
            let more = close.count > 1 ? " (and \(close.count - 1) more pair\(close.count == 2 ? "" : "s"))" : ""
            add(
                .warning,
                "entries \(firstClose - 1) and \(firstClose) are \(Self.duration(gap)) apart\(more); WidgetKit asks for entries at least \(Self.duration(spacing)) apart (spec §1)",
                check: "spacing")
        }
        if let warning = budget(timeline, dates: sorted) { add(.warning, warning, check: "reload policy") }
    }

    /// A warning when the policy asks for timelines faster than the daily budget lasts.
    func budget(_ timeline: TimelineEngine.Timeline, dates: [Date]) -> String? {
        let interval: Double
        switch timeline.policy {
        case .never: return nil
        case .atEnd: interval = (dates.last ?? now).timeIntervalSince(now)
        case .after(let date): interval = date.timeIntervalSince(now)
        }
        let limit = settings.dailyReloadBudget, window = settings.budgetWindow
        let lasting = window / Double(limit)
        guard interval < lasting else { return nil }
        // Charged reloads are at least minimumReloadSpacing apart however soon the policy asks.
        let effective = max(interval, settings.minimumReloadSpacing)
        let spent = effective * Double(limit)
        let windowText =
            window.truncatingRemainder(dividingBy: 3600) == 0 ? "\(Int(window / 3600))h" : Self.duration(window)
        let asks =
            interval <= 0
            ? "asks for the next timeline at once" : "asks for the next timeline \(Self.duration(interval)) from now"
        return
            ("\(policyText(timeline.policy)) \(asks); at that pace (Glimpse spaces reloads at least \(Self.duration(settings.minimumReloadSpacing)) apart) "
            + "the \(limit) reloads of the \(windowText) budget are spent in \(Self.duration(spent)), then the widget waits for the budget; "
            + "one reload every \(Self.duration(lasting.rounded(.up))) or less often lasts the day")
    }

    func policyText(_ policy: ReloadPolicy) -> String {
        switch policy {
        case .atEnd: ".atEnd"
        case .never: ".never"
        case .after(let date): ".after(\(relative(date)))"
        }
    }

    func relative(_ date: Date) -> String {
        let offset = date.timeIntervalSince(now)
        if abs(offset) < 0.5 { return "now" }
        return (offset < 0 ? "now-" : "now+") + Self.duration(abs(offset))
    }

    static func duration(_ seconds: Double) -> String {
        if seconds > 0, seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return DurationText.format(seconds: seconds.rounded())
    }

    static func took<Message>(_ outcome: CallOutcome<Message>) -> String {
        if case .answered(_, let seconds) = outcome { return duration(seconds) }
        return "-"
    }

    // MARK: Images and intents in view trees

    /// The images and controls of `views` (one subject and family, or one Live Activity
    /// presentation), each distinct one judged once.
    mutating func views(_ views: [GlimpseWidgetV1.View?], subject: String, family: WidgetFamily?, presentation: String?)
    {
        var uses = ViewUses()
        for view in views {
            let more = ViewUses.of(view)
            for image in more.images where !uses.images.contains(image) { uses.images.append(image) }
            for control in more.controls where !uses.controls.contains(control) { uses.controls.append(control) }
        }
        let place = family?.rawValue ?? presentation ?? ""
        images(uses.images, subject: subject, place: place, presentation: presentation)
        for control in uses.controls {
            self.control(control, subject: subject, family: family, presentation: presentation)
        }
    }

    mutating func images(_ names: [String], subject: String, place: String, presentation: String?) {
        guard !names.isEmpty else { return }
        let limits = verifier.inputs.assetLimits
        var fine: [String] = []
        for name in names {
            func add(_ status: VerifyFinding.Status, _ message: String) {
                findings.append(VerifyFinding(status, "image", subject: subject, family: place, message))
            }
            guard !name.isEmpty else { add(.error, "an Image names no asset"); continue }
            guard let asset = verifier.asset(name) else {
                let declared = verifier.assetNames
                add(
                    .error,
                    "Image(\"\(name)\"): the manifest declares no asset \"\(name)\" (declared: \(declared.isEmpty ? "none" : declared.joined(separator: ", "))), so glimpse-asset has no image by that name"
                )
                continue
            }
            // Where it is shown, against the limits of that place (the declared use was checked with the asset).
            let shownAs: AssetUse
            if let presentation, let p = LiveActivityPresentation(rawValue: presentation) {
                shownAs = .liveActivity(p)
            } else {
                shownAs = .widget
            }
            if let image = asset.image, let use = asset.use, use != shownAs,
                let violation = limits.violation(of: image, for: shownAs)
            {
                add(
                    .warning,
                    "Image(\"\(name)\") is declared for \(AppVerifier.useText(use)) but shown in \(AppVerifier.useText(shownAs)): \(violation)"
                )
                continue
            }
            fine.append(name)
        }
        if !fine.isEmpty {
            findings.append(
                VerifyFinding(
                    .ok, "image", subject: subject, family: place,
                    "shows \(fine.joined(separator: ", ")): declared assets"))
        }
    }

    mutating func control(_ control: ViewUses.Control, subject: String, family: WidgetFamily?, presentation: String?) {
        let place = family?.rawValue ?? presentation ?? ""
        let label = control.control + (control.name.isEmpty ? "" : " \(control.name)")
        func add(_ status: VerifyFinding.Status, _ message: String) {
            findings.append(VerifyFinding(status, "intent", subject: subject, family: place, message))
        }
        guard let invocation = control.intent, !invocation.intentType.isEmpty else {
            add(.error, "\(label) invokes no intent: a tap does nothing")
            return
        }
        let type = invocation.intentType
        guard verifier.intentsKnown else { return }  // the manifest's intents are broken: reported above
        guard let definition = verifier.intent(type) else {
            let declared = verifier.intentTypes
            add(
                .error,
                "\(label) invokes \(type), which the manifest does not declare (declared: \(declared.isEmpty ? "none" : declared.joined(separator: ", "))): glimpse-intent refuses the tap (UNKNOWN_INTENT)"
            )
            return
        }
        var status = VerifyFinding.Status.ok
        if family != nil, !definition.widgetKinds.contains(subject) {
            add(
                .error,
                "\(label) invokes \(type), whose widgetKinds do not list \(subject): glimpse-intent refuses the tap (NOT_OFFERED_BY_KIND)"
            )
            status = .error
        }
        if let family, !family.isInteractive {
            add(
                .warning,
                "\(label) on \(family.rawValue): Buttons and Toggles do nothing there (spec §3: one tap target, the app); glimpse-intent refuses the tap (NOT_INTERACTIVE)"
            )
            status = .warning
        }
        if presentation != nil, !definition.activityAttributes.contains(subject) {
            add(
                .error,
                "\(label) invokes \(type), whose activityAttributes do not list \(subject): glimpse-intent refuses the tap (NOT_OFFERED_BY_ACTIVITY)"
            )
            status = .error
        }
        if let presentation, presentation == "compact" || presentation == "minimal" {
            add(
                .warning,
                "\(label) in the \(presentation) presentation: Live Activity buttons work in the expanded and Lock Screen presentations only (spec §3)"
            )
            status = .warning
        }
        var preset: [String: TypedValue] = [:]
        for name in invocation.parameters.keys.sorted() {
            do { preset[name] = try TypedValue(invocation.parameters[name]!, field: "parameters[\"\(name)\"]") } catch {
                add(.error, "\(label) invokes \(type) with a bad value: \(error)")
                return
            }
        }
        switch definition.resolve(preset) {
        case .failure(let refusal):
            let why: String
            switch refusal {
            case .missingParameter(let name):
                let declared = definition.parameters.first { $0.name == name }?.type.rawValue ?? "?"
                why =
                    "does not set parameter \(name) (\(declared)), which has no default: widgets do not prompt (spec §3), so glimpse-intent refuses the tap (MISSING_PARAMETER)"
            case .unknownParameter(let name):
                why =
                    "sets parameter \(name), which \(type) does not declare: glimpse-intent refuses the tap (UNKNOWN_PARAMETER)"
            case .parameterTypeMismatch(let name, let expected, let got):
                why =
                    "sets parameter \(name) to a \(got.rawValue); \(type) declares it \(expected.rawValue): glimpse-intent refuses the tap (PARAMETER_TYPE_MISMATCH)"
            default:
                why = "is refused: \(refusal)"
            }
            add(.error, "\(label) → \(type) \(why)")
        case .success(let values):
            if status == .ok {
                let names = values.keys.sorted()
                add(
                    .ok,
                    "\(label) → \(type)" + (names.isEmpty ? "" : "(\(names.joined(separator: ", ")))")
                        + ": declared, parameters set")
            }
        }
    }

    // MARK: Live Activities

    mutating func activity(
        _ probe: ViewsProbe, _ outcome: CallOutcome<GlimpseAppV1.ActivityViewsResponse>
    ) -> [VerifyFinding] {
        let saved = findings
        findings = []
        let sample = probe.sample
        let subject = sample.attributesType
        func add(_ status: VerifyFinding.Status, _ check: String, _ message: String) {
            findings.append(VerifyFinding(status, check, subject: subject, family: sample.source, message))
        }
        let limits = verifier.inputs.activitySettings
        let decoder =
            "ActivityKit decodes it with the default JSONDecoder (custom strategies fail; Date = seconds since 2001, spec §5)"
        var attributes = JSONObjectBytes.empty
        do { attributes = try JSONObjectBytes(validating: Array(sample.attributesJSON.utf8)) } catch {
            add(.error, "attributes", "the attributes are not a JSON object (\(error)): \(decoder)")
        }
        for date in ActivitySamples.isoDates(in: attributes.value) {
            add(
                .error, "attributes",
                "\"\(date.path)\" is the ISO 8601 string \"\(date.text)\": \(decoder); write the number \(Self.number(date.secondsSince2001))"
            )
        }
        do {
            let state = try JSONObjectBytes(validating: Array(sample.stateJSON.utf8))
            var problems = 0
            if let violation = limits.contentStateViolation(state: state, attributes: attributes) {
                problems += 1
                add(
                    .error, "content state",
                    "\(violation.size) bytes: ActivityKit refuses a content state over \(violation.limit) bytes (attributesTooLarge; spec §4: 4096 accepted, 4097 rejected)"
                )
            }
            for date in ActivitySamples.isoDates(in: state.value) {
                problems += 1
                add(
                    .error, "content state",
                    "\"\(date.path)\" is the ISO 8601 string \"\(date.text)\": \(decoder); write the number \(Self.number(date.secondsSince2001))"
                )
            }
            if problems == 0 {
                add(
                    .ok, "content state",
                    "\(state.count) bytes (limit \(limits.contentStateLimit)), JSON with no ISO 8601 date strings")
            }
        } catch {
            add(.error, "content state", "not a JSON object (\(error)): \(decoder)")
        }
        let method = "ActivityConfiguration.Views"
        let deadline = (
            verifier.inputs.viewsDeadline, "the device's deadline for an activity's views",
            "draws the activity without them"
        )
        if let response = answered(
            "views", subject: subject, family: sample.source, endpoint: probe.endpoint, method: method, outcome,
            deadline: deadline)
        {
            let elapsed = if case .answered(_, let seconds) = outcome { seconds } else { 0.0 }
            guard let views = response.views else {
                add(.error, "views", "answered without views: the gateway has nothing to draw")
                return finish(saved)
            }
            if let violation = ContentLimits.violation(of: views) {
                add(.error, "views", "\(violation): the gateway refuses them and draws the activity without them")
            }
            let island = views.dynamicIsland
            var missing: [String] = []
            if views.lockScreen == nil {
                add(
                    .error, "views",
                    "no Lock Screen view: ActivityConfiguration's content closure is the Lock Screen presentation (and the banner without a Dynamic Island)"
                )
            }
            for (name, view) in [
                ("compact leading", island?.compactLeading), ("compact trailing", island?.compactTrailing),
                ("minimal", island?.minimal),
            ]
            where view == nil {
                missing.append(name)
            }
            let expanded = [
                island?.expandedLeading, island?.expandedTrailing, island?.expandedCenter, island?.expandedBottom,
            ].compactMap { $0?.view }
            if expanded.isEmpty { missing.append("expanded") }
            if !missing.isEmpty {
                add(
                    .warning, "views",
                    "no \(missing.joined(separator: ", ")) view: the Dynamic Island shows that presentation empty")
            }
            if views.lockScreen != nil {
                var shown = ["Lock Screen"]
                if !expanded.isEmpty {
                    shown.append("expanded (\(expanded.count) region\(expanded.count == 1 ? "" : "s"))")
                }
                if island?.compactLeading != nil || island?.compactTrailing != nil { shown.append("compact") }
                if island?.minimal != nil { shown.append("minimal") }
                add(.ok, "views", "answered in \(Self.duration(elapsed)): \(shown.joined(separator: ", "))")
            }
            var byPresentation: [(String, [GlimpseWidgetV1.View?])] = []
            for (presentation, view) in views.presentations {
                if let i = byPresentation.firstIndex(where: { $0.0 == presentation }) {
                    byPresentation[i].1.append(view)
                } else {
                    byPresentation.append((presentation, [view]))
                }
            }
            for (presentation, views) in byPresentation {
                self.views(views, subject: subject, family: nil, presentation: presentation)
            }
        }
        return finish(saved)
    }

    private mutating func finish(_ saved: [VerifyFinding]) -> [VerifyFinding] {
        let mine = findings
        findings = saved
        return mine
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// One error line per endpoint nobody answered at.
    func unreachableFindings() -> [VerifyFinding] {
        unreachable.map { endpoint in
            VerifyFinding(
                .error, "endpoint", subject: endpoint.endpoint,
                "cannot reach it (\(endpoint.detail)): \(endpoint.calls) call\(endpoint.calls == 1 ? "" : "s") not answered; start the app there or pass --endpoint host:port"
            )
        }
    }
}
