#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import ActivityEngine
package import GlimpseVocabulary
package import AssetEngine
import AssetMapping
import GlimpseJSON
package import GlimpseMessages
import IntentEngine
import IntentMapping
import ProtoMapping
package import RPCCore
package import TimelineEngine
import TimelineMapping

/// A call to the app and what came of it.
package enum CallOutcome<Message: Sendable>: Sendable {
    case answered(Message, seconds: Double)
    case failed(StatusCode, String, seconds: Double)
    /// Not made: no endpoint to call (the reason).
    case notCalled(String)
}

/// One widget kind in one family: the three calls glimpse-timeline (and the gateway) make.
package struct WidgetProbe: Sendable {
    package var kind: String
    package var family: WidgetFamily
    package var endpoint: String?
    package var placeholder: GlimpseAppV1.PlaceholderRequest
    package var snapshot: GlimpseAppV1.SnapshotRequest
    package var timeline: GlimpseAppV1.TimelineRequest
}

/// The app's answers to a `WidgetProbe`.
package struct WidgetAnswers: Sendable {
    package var placeholder: CallOutcome<GlimpseAppV1.PlaceholderResponse>
    package var snapshot: CallOutcome<GlimpseAppV1.SnapshotResponse>
    package var timeline: CallOutcome<GlimpseAppV1.TimelineResponse>
    /// When the timeline's answer arrived, by the wall clock.
    package var timelineArrived: Date?

    package init(
        placeholder: CallOutcome<GlimpseAppV1.PlaceholderResponse>,
        snapshot: CallOutcome<GlimpseAppV1.SnapshotResponse>,
        timeline: CallOutcome<GlimpseAppV1.TimelineResponse>
    ) {
        self.placeholder = placeholder
        self.snapshot = snapshot
        self.timeline = timeline
    }
}

/// One endpoint the manifest names as an intent handler, and the intents it handles: it
/// is called once with an intent no app has (`probeIntent`), which a handler answers with
/// NOT_FOUND (or a failed outcome) and never performs.
package struct HandlerProbe: Sendable {
    package static let probeIntent = "glimpse-verify.NoSuchIntent"
    package var endpoint: String
    package var intents: [String]
}

/// One sample content state, as the gateway asks the app's ActivityConfiguration for it.
package struct ViewsProbe: Sendable {
    package var sample: ActivitySample
    package var endpoint: String?
    package var request: GlimpseAppV1.ActivityViewsRequest
}

/// `glimpse verify`'s checks, without I/O: given a manifest, its asset files and sample
/// content states, it says which calls to make (`widgetProbes`, `viewsProbes`); given the
/// app's answers, it judges them by the rules and numbers the services enforce — the
/// engines' own settings and validators, not copies of their numbers.
package struct AppVerifier: Sendable {
    package enum AssetFile: Sendable, Hashable {
        case bytes([UInt8])
        /// The file could not be read: where, and why.
        case unreadable(file: String, reason: String)
    }

    package struct Inputs: Sendable {
        package var manifestPath: String
        package var manifest: GlimpseAppV1.AppManifest
        /// Each declared asset's file, by its index in `manifest.assets`.
        package var assetFiles: [AssetFile]
        /// Sample files (`--activity`): their names and bytes.
        package var sampleFiles: [(source: String, bytes: [UInt8])]
        /// The verify run's clock: every call carries it as Glimpse carries the device clock.
        package var now: Date
        /// `now` is the wall clock at the start of the run (no `--now`): an app that dates its
        /// entries by its own clock may read it up to when its answer arrives.
        package var nowIsWallClock = false
        /// `--endpoint`: every call goes there instead of the manifest's endpoints.
        package var endpoint: String?
        /// The deadline of each call, in seconds (`--timeout`).
        package var timeout: Double
        /// How long an activity's views may take, in seconds (`--views-deadline`; default the
        /// device's, `ActivityViewsDeadline`).
        package var viewsDeadline: Double = ActivityViewsDeadline.seconds
        package var timelineSettings: TimelineSettings = .defaults
        package var activitySettings: ActivitySettings = .defaults
        package var assetLimits: AssetLimits = .defaults

        package init(
            manifestPath: String, manifest: GlimpseAppV1.AppManifest, assetFiles: [AssetFile],
            sampleFiles: [(source: String, bytes: [UInt8])] = [], now: Date, endpoint: String? = nil,
            timeout: Double? = nil
        ) {
            self.manifestPath = manifestPath
            self.manifest = manifest
            self.assetFiles = assetFiles
            self.sampleFiles = sampleFiles
            self.now = now
            self.endpoint = endpoint
            self.timeout = timeout ?? TimelineSettings.defaults.providerTimeout
        }
    }

    /// What a checked asset is: its declared use and its image header, when both are good.
    struct CheckedAsset: Sendable {
        var use: AssetUse?
        var image: ImageInfo?
    }

    package let inputs: Inputs
    package private(set) var widgetProbes: [WidgetProbe] = []
    package private(set) var viewsProbes: [ViewsProbe] = []
    package private(set) var handlerProbes: [HandlerProbe] = []
    /// What needs no answers: the manifest, the assets, the sample files.
    private(set) var manifestFindings: [VerifyFinding] = []
    private(set) var assetFindings: [VerifyFinding] = []
    private(set) var sampleFindings: [VerifyFinding] = []
    private var assets: [String: CheckedAsset] = [:]
    private var intents: [String: IntentDefinition]?
    private var kindsByName: [String: WidgetKind] = [:]

    var manifest: GlimpseAppV1.AppManifest { inputs.manifest }
    var device: DeviceScreen { inputs.timelineSettings.deviceScreen }
    /// The manifest's file name, as the manifest's lines name it.
    var subject: String { inputs.manifestPath.split(separator: "/").last.map(String.init) ?? inputs.manifestPath }

    package init(_ inputs: Inputs) {
        self.inputs = inputs
        checkManifest()
        checkAssets()
        planWidgets()
        planActivities()
        planHandlers()
    }

    // MARK: The manifest, as the services take it at install

    private mutating func checkManifest() {
        var findings: [VerifyFinding] = []
        func refuse(_ message: String) { findings.append(VerifyFinding(.error, "manifest", subject: subject, message)) }
        if manifest.bundleId.isEmpty {
            refuse("bundleId is empty: the gateway refuses the install (manifest.bundle_id: required)")
        }
        do {
            for kind in try manifest.widgetKinds() { kindsByName[kind.kind] = kind }
        } catch {
            refuse("glimpse-timeline refuses the install: \(error)")
        }
        do {
            intents = Dictionary(
                try manifest.intentDefinitions().map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            refuse("glimpse-intent refuses the install: \(error)")
        }
        var types = Set<String>()
        for (index, declaration) in manifest.activityAttributes.enumerated() {
            if declaration.typeName.isEmpty {
                refuse(
                    "glimpse-activity refuses the install: manifest.activity_attributes[\(index)].type_name: a type name is required"
                )
            } else if !types.insert(declaration.typeName).inserted {
                refuse("activityAttributes[\(index)]: \(declaration.typeName) is declared twice")
            }
        }
        if findings.isEmpty {
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            findings.append(
                VerifyFinding(
                    .ok, "manifest", subject: subject,
                    "\(manifest.bundleId): \(count(manifest.widgets.count, "widget kind")), \(count(manifest.intents.count, "intent")), "
                        + "\(count(manifest.activityAttributes.count, "Live Activity type")), \(count(manifest.assets.count, "asset"))"
                ))
        }
        manifestFindings = findings
    }

    // MARK: Assets, as `glimpse install` reads them and glimpse-asset takes them

    private mutating func checkAssets() {
        var seen = Set<String>()
        let limits = inputs.assetLimits
        let catalog = AssetCatalog(clock: VirtualClock(start: inputs.now), limits: limits)
        let app = AppID(manifest.bundleId.isEmpty ? "app" : manifest.bundleId)
        for (index, declaration) in manifest.assets.enumerated() {
            let name = declaration.name.isEmpty ? "assets[\(index)]" : declaration.name
            func refuse(_ message: String) {
                assetFindings.append(VerifyFinding(.error, "asset", subject: name, message))
            }
            guard !declaration.name.isEmpty else { refuse("the asset has no name"); continue }
            guard !declaration.path.isEmpty else { refuse("the asset has no path"); continue }
            guard seen.insert(declaration.name).inserted else { refuse("the name is declared twice"); continue }
            var checked = CheckedAsset()
            let use: AssetUse
            do { use = try AssetWire.use(declaration.use, field: "use") } catch {
                refuse("glimpse-asset refuses it: \(error)")
                assets[declaration.name] = checked
                continue
            }
            checked.use = use
            assets[declaration.name] = checked
            let file =
                index < inputs.assetFiles.count
                ? inputs.assetFiles[index] : .unreadable(file: declaration.path, reason: "not read")
            guard case .bytes(let bytes) = file else {
                if case .unreadable(let path, let reason) = file {
                    refuse("cannot read \(path) (\(reason)); asset paths are relative to the manifest's directory")
                }
                continue
            }
            let full: AssetName
            do { full = try AssetWire.name(declaration.name, of: app, limits: limits) } catch {
                refuse("glimpse-asset refuses the name: \(error)")
                continue
            }
            // The upload glimpse-asset runs for a Put: size, format, header, pixel limits.
            var session: UploadSession
            switch catalog.beginUpload(full.description, use: use, totalSize: bytes.count) {
            case .success(let opened): session = opened
            case .failure(let refusal): refuse("glimpse-asset refuses it: \(refusal)"); continue
            }
            let image: ImageInfo
            do {
                try session.append(bytes)
                image = try session.verify().image
            } catch {
                refuse("glimpse-asset refuses it: \(error)")
                continue
            }
            checked.image = image
            assets[declaration.name] = checked
            assetFindings.append(
                VerifyFinding(
                    .ok, "asset", subject: name,
                    "\(image.format.rawValue.uppercased()) \(image.width)×\(image.height) px, \(bytes.count) bytes: fits \(Self.limitText(use, limits))"
                ))
        }
    }

    static func useText(_ use: AssetUse) -> String {
        switch use {
        case .widget: "widget images"
        case .liveActivity(let presentation): "the Live Activity \(presentation.rawValue) presentation"
        }
    }

    static func limitText(_ use: AssetUse, _ limits: AssetLimits) -> String {
        switch use {
        case .widget:
            return "widget images (up to \(limits.widgetMaximumArea) px)"
        case .liveActivity(let presentation):
            guard let max = limits.maximumPixels(for: presentation) else { return useText(use) }
            return "\(useText(use)) (up to \(max.width)×\(max.height) px)"
        }
    }

    // MARK: What to call

    private mutating func planWidgets() {
        for (index, widget) in manifest.widgets.enumerated() where !widget.kind.isEmpty {
            let declared: [WidgetFamily]
            let parameters: [ConfigurationParameter]
            if let kind = kindsByName[widget.kind] {
                declared = WidgetFamily.allCases.filter {
                    kind.supportedFamilies.isEmpty || kind.supportedFamilies.contains($0)
                }
                parameters = kind.parameters
            } else {
                let families = widget.supportedFamilies.compactMap { try? WidgetFamily($0, field: "") }
                declared = WidgetFamily.allCases.filter { families.isEmpty || families.contains($0) }
                parameters = []
            }
            let listed = !widget.supportedFamilies.isEmpty
            let families = declared.filter { device.displaySize(of: $0) != nil }
            for family in declared where device.displaySize(of: family) == nil && listed {
                manifestFindings.append(
                    VerifyFinding(
                        .warning, "families", subject: widget.kind, family: family.rawValue,
                        "not on the \(device.rawValue) screen Glimpse models (spec §2: systemExtraLarge is iPad only); not checked"
                    ))
            }
            let endpoint = inputs.endpoint ?? manifest.providerEndpoint(of: widget.kind)
            if endpoint == nil {
                manifestFindings.append(
                    VerifyFinding(
                        .error, "endpoint", subject: widget.kind,
                        "widgets[\(index)] names no providerEndpoint and the manifest has no defaultEndpoint: glimpse-timeline has no provider to call"
                    ))
            }
            var configuration: [String: ConfigurationValue] = [:]
            for parameter in parameters {
                if let value = parameter.defaultValue { configuration[parameter.name] = value }
            }
            for family in families {
                guard let size = device.displaySize(of: family) else { continue }
                func context(preview: Bool) -> GlimpseAppV1.TimelineProviderContext {
                    TimelineContext(family: family, displaySize: size, isPreview: preview, configuration: configuration)
                        .providerContext(of: AppID(manifest.bundleId), scale: device.scale)
                }
                let ref = GlimpseAppV1.WidgetRef(kind: widget.kind, placementId: 0)
                var placeholder = GlimpseAppV1.PlaceholderRequest()
                placeholder.widget = ref
                placeholder.context = context(preview: false)
                var snapshot = GlimpseAppV1.SnapshotRequest()
                snapshot.widget = ref
                snapshot.context = context(preview: true)
                var timeline = GlimpseAppV1.TimelineRequest()
                timeline.widget = GlimpseAppV1.WidgetRef(kind: widget.kind, placementId: 1)
                timeline.context = context(preview: false)
                timeline.now = GoogleProtobuf.Timestamp(inputs.now)
                widgetProbes.append(
                    WidgetProbe(
                        kind: widget.kind, family: family, endpoint: endpoint, placeholder: placeholder,
                        snapshot: snapshot,
                        timeline: timeline))
            }
        }
    }

    private mutating func planActivities() {
        let declared = manifest.activityAttributes.map(\.typeName).filter { !$0.isEmpty }
        var samples: [ActivitySample] = []
        for file in inputs.sampleFiles {
            switch ActivitySamples.parse(
                file.bytes, source: file.source, now: inputs.now, declaredTypes: declared,
                pushPayloadLimit: inputs.activitySettings.pushPayloadLimit)
            {
            case .success(let parsed): samples += parsed
            case .failure(let why):
                sampleFindings.append(VerifyFinding(.error, "sample", subject: file.source, why.message))
            }
        }
        for type in declared where !samples.contains(where: { $0.attributesType == type }) {
            sampleFindings.append(
                VerifyFinding(
                    .warning, "sample", subject: type,
                    "no sample content state, so its size, its dates and the views were not checked: pass --activity <file> "
                        + "(a RequestActivityRequest JSON, as `glimpse app request-activity` takes, or an APNs start body)"
                ))
        }
        for sample in samples {
            guard let declaration = manifest.activityAttributes.first(where: { $0.typeName == sample.attributesType })
            else {
                sampleFindings.append(
                    VerifyFinding(
                        .error, "sample", subject: sample.source,
                        "attributes type \"\(sample.attributesType)\" is not in the manifest's activityAttributes"
                            + " (declared: \(declared.isEmpty ? "none" : declared.joined(separator: ", "))): ActivityKit refuses the request (unsupportedTarget)"
                    ))
                continue
            }
            let own = declaration.viewsEndpoint.isEmpty ? manifest.defaultEndpoint : declaration.viewsEndpoint
            var request = GlimpseAppV1.ActivityViewsRequest()
            request.activityId = "verify-\(viewsProbes.count + 1)"
            request.attributesType = sample.attributesType
            request.attributesJson = sample.attributesJSON
            request.stateJson = sample.stateJSON
            request.isStale = false
            request.now = GoogleProtobuf.Timestamp(inputs.now)
            request.colorScheme = .light
            viewsProbes.append(
                ViewsProbe(sample: sample, endpoint: inputs.endpoint ?? (own.isEmpty ? nil : own), request: request))
        }
    }

    /// Each declared handler endpoint once, with the intents that name it.
    private mutating func planHandlers() {
        var byEndpoint: [(endpoint: String, intents: [String])] = []
        for intent in manifest.intents {
            guard case .handlerEndpoint(let named)? = intent.action else { continue }
            let own = named == "default" ? manifest.defaultEndpoint : named
            guard let endpoint = inputs.endpoint ?? (own.isEmpty ? nil : own) else { continue }
            if let i = byEndpoint.firstIndex(where: { $0.endpoint == endpoint }) {
                byEndpoint[i].intents.append(intent.type)
            } else {
                byEndpoint.append((endpoint, [intent.type]))
            }
        }
        handlerProbes = byEndpoint.map { HandlerProbe(endpoint: $0.endpoint, intents: $0.intents) }
    }

    // MARK: The report

    /// Judges the answers (`widgets[i]` answers `widgetProbes[i]`, `views[i]` answers `viewsProbes[i]`,
    /// `handlers[i]` answers `handlerProbes[i]`).
    package func report(
        widgets: [WidgetAnswers], views: [CallOutcome<GlimpseAppV1.ActivityViewsResponse>],
        handlers: [CallOutcome<GlimpseAppV1.PerformResponse>] = []
    ) -> VerifyReport {
        var findings = manifestFindings + assetFindings
        var judge = AnswerJudge(verifier: self)
        for (probe, answers) in zip(widgetProbes, widgets) {
            judge.widget(probe, answers)
        }
        var activityFindings = sampleFindings
        for (probe, outcome) in zip(viewsProbes, views) {
            activityFindings += judge.activity(probe, outcome)
        }
        for (probe, outcome) in zip(handlerProbes, handlers) {
            judge.handler(probe, outcome)
        }
        findings += judge.unreachableFindings() + judge.findings + activityFindings
        return VerifyReport(
            manifest: inputs.manifestPath, bundleID: manifest.bundleId,
            now: ISO8601Text.format(GoogleProtobuf.Timestamp(inputs.now)), findings: findings)
    }

    // MARK: Shared with the judge

    func asset(_ name: String) -> CheckedAsset? { assets[name] }
    func intent(_ type: String) -> IntentDefinition? { intents?[type] }
    var intentsKnown: Bool { intents != nil }
    var intentTypes: [String] { manifest.intents.map(\.type) }
    var assetNames: [String] { manifest.assets.map(\.name) }
}
