import ArgumentParser
import GlimpseCLI
import RPCCore
import Testing

@Suite("Exit codes: 0 ok, 1 the gateway's error, 2 usage, 3 unreachable")
struct ExitCodeTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, String, String) {
        let out = CapturedOutput(), err = CapturedOutput()
        let status = await GlimpseTool.run(
            arguments: arguments, output: out, errorOutput: err, environment: environment)
        return (status, out.text, err.text)
    }

    @Test("the gateway's errors: exit 1 and `error: <CODE>: <message>`")
    func gatewayErrors() {
        let notFound = CLIFailure(RPCError(code: .notFound, message: "no placement 9"), gateway: "127.0.0.1:7700")
        #expect(notFound.exitCode == 1)
        #expect(notFound.description == "error: NOT_FOUND: no placement 9")
        // The gateway's own UNAVAILABLE (a service behind it is down) is an answer, not unreachability.
        let behind = CLIFailure(
            RPCError(code: .unavailable, message: "glimpse-timeline is unreachable"), gateway: "127.0.0.1:7700")
        #expect(behind == .gateway(code: .unavailable, message: "glimpse-timeline is unreachable"))
        #expect(behind.exitCode == 1)
        #expect(CLIFailure.gateway(code: .permissionDenied, message: "").description == "error: PERMISSION_DENIED")
        #expect(GlimpseTool.outcome(of: RPCError(code: .invalidArgument, message: "family: required")).status == 1)
    }

    @Test("no connection: exit 3 naming the address")
    func unreachable() {
        let refused = CLIFailure(
            RPCError(code: .unavailable, message: "Cannot connect to 127.0.0.1:7700: connection refused"),
            gateway: "127.0.0.1:7700")
        #expect(refused == .unreachable(what: "the gateway", address: "127.0.0.1:7700", detail: "connection refused"))
        #expect(refused.exitCode == 3)
        #expect(refused.description == "error: cannot reach the gateway at 127.0.0.1:7700 (connection refused)")
        let lost = CLIFailure(RPCError(code: .unavailable, message: "The connection closed"), gateway: "h:1")
        #expect(lost.exitCode == 3)
    }

    @Test(
        "usage errors: exit 2",
        arguments: [
            ["frobnicate"], ["tap"], ["place", "com.x", "Kind"], ["place", "com.x", "Kind", "--family", "systemHuge"],
            ["reload"], ["reload", "7", "--bundle", "com.x"], ["clock", "advance", "6x"], ["clock", "advance", "0s"],
            ["clock", "set", "tomorrow"], ["settings", "--live-activities", "on"],
            ["place", "b", "k", "--family", "systemSmall", "--config", "novalue"],
            ["widgets", "--gateway", "nowhere"], ["push", "com.x", "p.json", "--broadcast"],
            ["push", "abcd", "p.json", "--priority", "7"],
            ["events", "--follow", "--limit", "3"], ["app", "state", "foreground", "--gateway", "127.0.0.1:1"],
        ])
    func usage(arguments: [String]) async {
        let (status, out, err) = await run(arguments)
        #expect(status == 2, "\(arguments): \(err)")
        #expect(out.isEmpty)
        #expect(!err.isEmpty)
    }

    @Test("usage messages say what was wrong")
    func usageMessages() async {
        let (_, _, duration) = await run(["clock", "advance", "6x"])
        #expect(duration.contains("invalid duration \"6x\""))
        let (_, _, family) = await run(["place", "com.x", "Kind", "--family", "systemHuge"])
        #expect(family.contains("systemHuge"))
        #expect(family.contains("systemSmall"))
        let (_, _, token) = await run(["app", "state", "foreground", "--gateway", "127.0.0.1:1"])
        #expect(token == "error: this call is the app's: give --app-token (or set GLIMPSE_APP_TOKEN)\n")
    }

    @Test("help: exit 0 on standard output")
    func help() async {
        let (status, out, err) = await run(["--help"])
        #expect(status == 0)
        #expect(out.contains("USAGE: glimpse <subcommand>"))
        for command in ["install", "place", "show", "tap", "budget", "clock", "push", "events", "export", "import"] {
            #expect(out.contains("  \(command)"), "\(command) missing from --help")
        }
        #expect(err.isEmpty)
        let (placeStatus, placeHelp, _) = await run(["place", "--help"])
        #expect(placeStatus == 0)
        #expect(placeHelp.contains("--stack-with"))
        let (_, exportHelp, _) = await run(["export", "--help"])
        #expect(exportHelp.contains("Not covered"))
    }

    @Test("a gateway nobody listens on: exit 3 and the address, from --gateway or GLIMPSE_GATEWAY")
    func closedPort() async {
        let (status, out, err) = await run(["widgets", "--gateway", "127.0.0.1:1"])
        #expect(status == 3)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("error: cannot reach the gateway at 127.0.0.1:1"))
        let (envStatus, _, envErr) = await run(["apps"], environment: ["GLIMPSE_GATEWAY": "127.0.0.1:2"])
        #expect(envStatus == 3)
        #expect(envErr.hasPrefix("error: cannot reach the gateway at 127.0.0.1:2"))
        let (flagStatus, _, flagErr) = await run(
            ["apps", "--gateway", "127.0.0.1:3"], environment: ["GLIMPSE_GATEWAY": "127.0.0.1:2"])
        #expect(flagStatus == 3)
        #expect(flagErr.hasPrefix("error: cannot reach the gateway at 127.0.0.1:3"))
    }
}
