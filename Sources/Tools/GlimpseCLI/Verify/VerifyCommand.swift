import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import ProtoMapping
import ActivityEngine
import RPCCore
import RPCNIO
import TimelineEngine
import GlimpseVocabulary

/// `glimpse verify app.json`: checks a team's app against what Glimpse relies on, by
/// calling the app's own endpoints (no Glimpse stack needed).
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract:
            "Check an app (its manifest, assets, provider and Live Activity views) against what Glimpse relies on.",
        discussion: """
            Calls the app's own endpoints, as glimpse-timeline and the gateway would: Placeholder, \
            Snapshot and Timeline for every family of every widget kind, and the Live Activity \
            views for each sample content state (--activity). Checks the timelines (sorted, the \
            caps, the first entry not in the future, spacing, the reload budget), the assets \
            against glimpse-asset's limits, the images and intents the views name, and the \
            content states (4 KB, dates as numbers for the default JSONDecoder).

            Prints one line per check (ok, warning, error) and a summary; --json prints the \
            report as one JSON object. Exit status: 0 no errors (warnings allowed), 1 errors \
            (an endpoint nobody answers at is one), 2 a usage error (an unreadable manifest, \
            a bad flag).
            """)

    @Argument(
        help: ArgumentHelp(
            "The app's manifest (app.json or app.yaml); assets are read next to it.", valueName: "app.json"))
    var manifest: String

    @Option(help: ArgumentHelp("Call the app here instead of the manifest's endpoints.", valueName: "host:port"))
    var endpoint: String?

    @Option(
        name: .customLong("activity"),
        help: ArgumentHelp(
            "A sample Live Activity: a RequestActivityRequest JSON (as `glimpse app request-activity` takes; \"$now+30m\" "
                + "becomes seconds since 2001), an array of them, or an APNs start body. Repeatable.",
            valueName: "file"))
    var activities: [String] = []

    @Option(
        help: ArgumentHelp(
            "The deadline of each call (default: glimpse-timeline's provider timeout, \(Int(TimelineSettings.defaults.providerTimeout))s).",
            valueName: "duration"))
    var timeout: String?

    @Option(
        name: .customLong("views-deadline"),
        help: ArgumentHelp(
            "How long a Live Activity's views may take (default: the device's deadline, \(Int(ActivityViewsDeadline.seconds))s). "
                + "A longer one judges the views' content on a machine too busy to answer in time.",
            valueName: "duration"))
    var viewsDeadline: String?

    @Option(
        help: ArgumentHelp(
            "The instant the calls carry as now (ISO 8601; default: the wall clock).", valueName: "instant"))
    var now: String?

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    /// The flags, checked (in `run`, so that a bad one is a usage error, exit 2): the
    /// endpoint, the deadline in seconds and the clock.
    func inputsFromFlags() throws(CLIFailure) -> (endpoint: String?, timeout: Double, now: Date, viewsDeadline: Double)
    {
        let address = try endpoint.map { text throws(CLIFailure) in
            try HostPort(parsing: text, what: "--endpoint").description
        }
        var seconds = TimelineSettings.defaults.providerTimeout
        if let timeout {
            do { seconds = try DurationText.parse(timeout) } catch { throw .usage("--timeout: \(error.description)") }
            guard seconds > 0 else { throw .usage("--timeout: must be more than 0, got \"\(timeout)\"") }
        }
        // Whole seconds: a provider that keeps only a Timestamp's seconds dates its entries alike.
        var instant = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        if let now {
            let stamp: GoogleProtobuf.Timestamp
            do { stamp = try ISO8601Text.parse(now) } catch { throw .usage("--now: \(error.description)") }
            instant = Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanos) / 1e9)
        }
        var views = ActivityViewsDeadline.seconds
        if let viewsDeadline {
            do { views = try DurationText.parse(viewsDeadline) } catch {
                throw .usage("--views-deadline: \(error.description)")
            }
            guard views > 0 else { throw .usage("--views-deadline: must be more than 0, got \"\(viewsDeadline)\"") }
        }
        return (address, seconds, instant, views)
    }

    func run() async throws {
        let flags = try inputsFromFlags()
        var inputs = try Self.inputs(
            manifest: manifest, samples: activities, now: flags.now, endpoint: flags.endpoint, timeout: flags.timeout)
        inputs.viewsDeadline = flags.viewsDeadline
        inputs.nowIsWallClock = now == nil
        let report = await VerifyRun.run(inputs)
        let context = Current.context
        if json {
            context.say(String(decoding: report.json.serialized(), as: UTF8.self))
        } else {
            context.say(report.text)
        }
        if report.exitStatus != 0 {
            throw CLIFailure.local(
                "\(report.bundleID.isEmpty ? manifest : report.bundleID) does not pass: \(report.count(.error)) error\(report.count(.error) == 1 ? "" : "s")"
            )
        }
    }

    /// Reads the manifest (a usage error when it cannot be read or parsed), its assets
    /// (an unreadable one is the report's error) and the sample files.
    static func inputs(
        manifest path: String, samples: [String], now: Date, endpoint: String?, timeout: Double
    ) throws(CLIFailure) -> AppVerifier.Inputs {
        let bytes: [UInt8]
        do { bytes = try Files.read(path) } catch { throw .usage("\(path): cannot read the manifest: \(error.reason)") }
        let manifest: GlimpseAppV1.AppManifest
        do {
            manifest = try ManifestLoader.parse(
                bytes, format: ManifestLoader.format(of: path, bytes: bytes), file: path)
        } catch {
            throw .usage(error.description)
        }
        let directory = Files.directory(of: path)
        let assets: [AppVerifier.AssetFile] = manifest.assets.map { asset in
            guard !asset.path.isEmpty else { return .unreadable(file: "", reason: "no path") }
            let file = Files.resolve(asset.path, against: directory)
            do { return .bytes(try Files.read(file)) } catch {
                return .unreadable(file: file, reason: (error as? Files.Failure)?.reason ?? "\(error)")
            }
        }
        var files: [(source: String, bytes: [UInt8])] = []
        for sample in samples {
            do { files.append((sample, try Files.read(sample))) } catch {
                throw .usage("--activity \(sample): \(error.reason)")
            }
        }
        return AppVerifier.Inputs(
            manifestPath: path, manifest: manifest, assetFiles: assets, sampleFiles: files, now: now,
            endpoint: endpoint,
            timeout: timeout)
    }
}

/// The part of `glimpse verify` that calls the app: one client per endpoint, every widget
/// kind and family at once (each one's three calls in order), then the Live Activity views.
package enum VerifyRun {
    package static func run(_ inputs: AppVerifier.Inputs) async -> VerifyReport {
        let verifier = AppVerifier(inputs)
        let deadline = Duration.milliseconds(Int64((inputs.timeout * 1000).rounded(.up)))
        var endpoints = Set(verifier.widgetProbes.compactMap(\.endpoint))
        endpoints.formUnion(verifier.viewsProbes.compactMap(\.endpoint))
        endpoints.formUnion(verifier.handlerProbes.map(\.endpoint))
        var clients: [String: GRPCClient] = [:]
        var running: [Task<Void, Never>] = []
        for endpoint in endpoints {
            guard let address = try? HostPort(parsing: endpoint, what: "endpoint") else { continue }
            var config = NIOClientConfig.defaults
            config.connectTimeout = deadline
            config.userAgent = "glimpse-verify/0.1"
            // Timelines of up to 10 MiB, as glimpse-timeline takes.
            config.maxReceiveMessageSize = ContentLimits.timelineMessageBytes
            let client = GRPCClient(
                transport: NIOClientTransport(host: address.host, port: address.port, config: config))
            running.append(Task { try? await client.run() })
            clients[endpoint] = client
        }
        let options = CallOptions(timeout: deadline)
        let pool = clients

        let widgets = await withTaskGroup(of: (Int, WidgetAnswers).self) { group in
            for (index, probe) in verifier.widgetProbes.enumerated() {
                group.addTask {
                    guard let endpoint = probe.endpoint else {
                        let none = "no endpoint"
                        return (
                            index,
                            WidgetAnswers(
                                placeholder: .notCalled(none), snapshot: .notCalled(none), timeline: .notCalled(none))
                        )
                    }
                    guard let client = pool[endpoint] else {
                        let bad = "Cannot connect to \(endpoint): not host:port"
                        return (
                            index,
                            WidgetAnswers(
                                placeholder: .failed(.unavailable, bad, seconds: 0),
                                snapshot: .failed(.unavailable, bad, seconds: 0),
                                timeline: .failed(.unavailable, bad, seconds: 0))
                        )
                    }
                    let provider = GlimpseAppV1.WidgetProvider.Client(wrapping: client)
                    let placeholder = await call {
                        try await provider.placeholder(ClientRequest(message: probe.placeholder), options: options)
                            .message
                    }
                    let snapshot = await call {
                        try await provider.snapshot(ClientRequest(message: probe.snapshot), options: options).message
                    }
                    let timeline = await call {
                        try await provider.timeline(ClientRequest(message: probe.timeline), options: options).message
                    }
                    var answers = WidgetAnswers(placeholder: placeholder, snapshot: snapshot, timeline: timeline)
                    answers.timelineArrived = Date()
                    return (index, answers)
                }
            }
            var answers: [(Int, WidgetAnswers)] = []
            for await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }

        var views: [CallOutcome<GlimpseAppV1.ActivityViewsResponse>] = []
        for probe in verifier.viewsProbes {
            guard let endpoint = probe.endpoint else {
                views.append(.notCalled("no endpoint"))
                continue
            }
            guard let client = pool[endpoint] else {
                views.append(.failed(.unavailable, "Cannot connect to \(endpoint): not host:port", seconds: 0))
                continue
            }
            let configuration = GlimpseAppV1.ActivityConfiguration.Client(wrapping: client)
            views.append(
                await call {
                    try await configuration.views(ClientRequest(message: probe.request), options: options).message
                })
        }

        var handlers: [CallOutcome<GlimpseAppV1.PerformResponse>] = []
        for probe in verifier.handlerProbes {
            guard let client = pool[probe.endpoint] else {
                handlers.append(.failed(.unavailable, "Cannot connect to \(probe.endpoint): not host:port", seconds: 0))
                continue
            }
            let handler = GlimpseAppV1.IntentHandler.Client(wrapping: client)
            var request = GlimpseAppV1.PerformRequest()
            request.intentType = HandlerProbe.probeIntent
            request.idempotencyKey = HandlerProbe.probeIntent
            handlers.append(
                await call { try await handler.perform(ClientRequest(message: request), options: options).message })
        }

        for client in clients.values { client.beginGracefulShutdown() }
        for task in running { await task.value }
        return verifier.report(widgets: widgets, views: views, handlers: handlers)
    }

    /// One call, timed.
    static func call<Message: Sendable>(_ body: () async throws -> Message) async -> CallOutcome<Message> {
        let start = ContinuousClock.now
        func seconds() -> Double { (ContinuousClock.now - start).seconds }
        do {
            let message = try await body()
            return .answered(message, seconds: seconds())
        } catch let error as RPCError {
            return .failed(error.code, error.message, seconds: seconds())
        } catch {
            return .failed(.unknown, "\(error)", seconds: seconds())
        }
    }
}
