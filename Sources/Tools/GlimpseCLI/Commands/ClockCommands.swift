import ArgumentParser
import GlimpseMessages
import ProtoMapping
import GlimpseRPC
import RPCCore
import GlimpseVocabulary

struct ClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "The device's clock: now, advance, set, freeze, follow.",
        subcommands: [Now.self, Advance.self, SetTime.self, Freeze.self, Follow.self],
        defaultSubcommand: Now.self)

    struct Now: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The clock's instant and mode.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let state = try await global.withGateway { gateway in
                try await gateway.clock.now(.init(message: GlimpseGatewayV1.NowRequest())).message
            }
            global.emit(state) { ClockText.state($0) }
        }
    }

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move every service's clock forward, firing everything due on the way (manual clock only).",
            discussion: """
                More than a day goes in 1-day steps, each returning once the screen shows its \
                result, with `advanced 3/7 days` on standard error (on a terminal, or always \
                with --progress).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var progress: ProgressOptions

        @Argument(help: ArgumentHelp("How far: 6h, 90m, 1d2h, 30s.", valueName: "duration"))
        var duration: String

        func validate() throws {
            let seconds: Double
            do { seconds = try DurationText.parse(duration) } catch { throw ValidationError(error.description) }
            guard seconds > 0 else { throw ValidationError("the duration must be more than 0s") }
        }

        func run() async throws {
            let total = try DurationText.parse(duration)
            let steps = ClockSteps.split(total)
            let line = ProgressLine(context: global.context, forced: progress.progress)
            let final = try await global.withGateway { gateway in
                var last = GlimpseGatewayV1.ClockState()
                var steppedThrough: UInt32 = 0
                var events: UInt64 = 0
                for (index, step) in steps.enumerated() {
                    let request = GlimpseGatewayV1.AdvanceRequest(by: GoogleProtobuf.Duration(seconds: step))
                    last = try await gateway.clock.advance(.init(message: request)).message
                    steppedThrough &+= last.steps
                    events &+= last.events
                    if steps.count > 1 { line.update(ClockSteps.progress(done: index + 1, of: steps.count)) }
                }
                if steps.count > 1 { line.finish() }
                last.steps = steppedThrough
                last.events = events
                return last
            }
            global.emit(final) { ClockText.state($0) }
        }
    }

    struct SetTime: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Move the clock forward to an instant (forward only).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The instant, ISO 8601 (no zone: UTC).", valueName: "date"))
        var date: String

        func validate() throws {
            do { _ = try ISO8601Text.parse(date) } catch { throw ValidationError(error.description) }
        }

        func run() async throws {
            let to = try ISO8601Text.parse(date)
            let state = try await global.withGateway { gateway in
                try await gateway.clock.set(.init(message: GlimpseGatewayV1.SetRequest(to: to))).message
            }
            global.emit(state) { ClockText.state($0) }
        }
    }

    struct Freeze: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop following real time: the clock moves only when advanced.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let state = try await global.withGateway { gateway in
                try await gateway.clock.freeze(.init(message: GlimpseGatewayV1.FreezeRequest())).message
            }
            global.emit(state) { ClockText.state($0) }
        }
    }

    struct Follow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow real time again, keeping the clock's current offset from it (or --offset).")

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Ahead of real time by this (e.g. 2h, -30m).", valueName: "duration"))
        var offset: String?

        func validate() throws {
            if let offset {
                do { _ = try DurationText.parse(offset, allowNegative: true) } catch {
                    throw ValidationError(error.description)
                }
            }
        }

        func run() async throws {
            var request = GlimpseGatewayV1.FollowRequest()
            if let offset {
                request.offset = GoogleProtobuf.Duration(seconds: try DurationText.parse(offset, allowNegative: true))
            }
            let state = try await global.withGateway { gateway in
                try await gateway.clock.follow(.init(message: request)).message
            }
            global.emit(state) { ClockText.state($0) }
        }
    }
}

/// How `clock advance` splits a long advance into 1-day steps.
package enum ClockSteps {
    package static let day: Double = 86_400

    /// `7d` → seven 1-day steps; `36h` → 1 day then 12 h; up to a day: one step.
    package static func split(_ seconds: Double) -> [Double] {
        guard seconds > day else { return [seconds] }
        var steps: [Double] = []
        var remaining = seconds
        while remaining > 0 {
            let step = min(day, remaining)
            steps.append(step)
            remaining -= step
            if remaining < 1e-9 { break }
        }
        return steps
    }

    package static func progress(done: Int, of total: Int) -> String {
        "advanced \(done)/\(total) days"
    }
}
