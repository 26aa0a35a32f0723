import GlimpseJSON
package import RPCCore
import RPCNIO
import GlimpseMessages
import GlimpseRPC
import Synchronization

/// Replays interactions against a running provider over the project's gRPC client and
/// checks every expectation: the provider side of a contract test.
///
/// Each interaction gets its own `${run}` (a fresh name), runs its setup (each call must
/// be OK), makes its call, compares the answer with what the consumer relies on, then runs
/// its teardown whatever happened. Messages cross as bytes; `ContractMethods` converts
/// them from and to the contract's proto3 JSON.
package struct ContractReplayer: Sendable {
    package let client: GRPCClient
    /// The longest any one call may take (a live stream whose messages do not give what
    /// the consumer relies on fails at this point).
    package var timeout: Duration

    package init(client: GRPCClient, timeout: Duration = .seconds(10)) {
        self.client = client
        self.timeout = timeout
    }

    /// Replays `interactions` against `host:port`, one after another; `each` sees every
    /// verdict as it is made. `metadata` goes with every call that lacks its keys (a stack's
    /// device key: `authorization: Device <key>`, where a step brings no app token).
    package static func verify(
        _ interactions: [Interaction], host: String, port: Int, timeout: Duration = .seconds(10),
        metadata: Metadata = Metadata(), each: (Verdict) -> Void = { _ in }
    ) async -> [Verdict] {
        var config = NIOClientConfig.defaults
        config.connectTimeout = .seconds(5)
        config.userAgent = "glimpse-contracts/0.1"
        let client = GRPCClient(transport: NIOClientTransport(host: host, port: port, config: config))
        let running = Task { try? await client.run() }
        let replayer = ContractReplayer(client: client.adding(metadata), timeout: timeout)
        var verdicts: [Verdict] = []
        for interaction in interactions {
            let verdict = await replayer.verify(interaction)
            each(verdict)
            verdicts.append(verdict)
        }
        client.beginGracefulShutdown()
        await running.value
        return verdicts
    }

    package func verify(_ interaction: Interaction) async -> Verdict {
        let (run, runId) = RunNames.next()
        var variables = Variables(run: run, runId: runId)
        var verdict = Verdict(interaction: interaction, outcome: .ok)
        do {
            if let condition = interaction.onlyIf {
                let answer = try await call(condition.step, "onlyIf", &variables)
                // Absent is the proto3 default (a clock on the system time answers no `manual`).
                let rule = FieldRule(path: condition.path, constraints: [.equals(condition.equals)], optional: false)
                let got = condition.path.value(in: answer, variables: variables) ?? rule.defaultValue(variables)
                if got.map({ !JSONText.equal(condition.equals, $0) }) ?? true {
                    verdict.outcome = .skipped(
                        "only when \(condition.step.method) answers \(condition.path) = \(JSONText.describe(condition.equals)); got \(got.map(JSONText.describe) ?? "absent")"
                    )
                    return verdict
                }
            }
            for (index, step) in interaction.setup.enumerated() {
                _ = try await call(step, "setup[\(index)]", &variables)
            }
            let mismatches = try await expectation(interaction, variables)
            if !mismatches.isEmpty { verdict.outcome = .failed(mismatches) }
        } catch {
            verdict.outcome = .failed([error.mismatch])
            verdict.unreachable = error.unreachable
        }
        for (index, step) in interaction.teardown.enumerated() {
            _ = try? await call(step, "teardown[\(index)]", &variables)
        }
        return verdict
    }

    /// The consumer's call, and what its answer breaks of what the consumer relies on.
    private func expectation(_ interaction: Interaction, _ variables: Variables) async throws(ReplayError) -> [Mismatch]
    {
        let expect = interaction.expect
        let answer: JSONValue
        var mismatches: [Mismatch] = []
        do {
            let enough: @Sendable (JSONValue) -> Bool = { partial in
                expect.fields.allSatisfy { $0.check(partial, variables: variables).isEmpty }
            }
            let until = interaction.live ? enough : nil
            answer = try await perform(interaction.call, variables, until: until, during: interaction.during)
        } catch {
            switch error {
            case .status(let error):
                guard error.code == expect.status else {
                    throw ReplayError(
                        mismatch: Mismatch(
                            field: "status", expected: Self.describe(expect), got: "\(error.code): \(error.message)"),
                        unreachable: Self.isTransportFailure(error))
                }
                var mismatches: [Mismatch] = []
                if let text = expect.messageContains, !error.message.contains(text) {
                    mismatches.append(
                        Mismatch(
                            field: "status message", expected: "to contain \"\(text)\"", got: "\"\(error.message)\""))
                }
                let info = error.errorInfo
                if let reason = expect.reason, info?.reason != reason {
                    mismatches.append(
                        Mismatch(
                            field: "status reason", expected: "\"\(reason)\" (ErrorInfo in grpc-status-details-bin)",
                            got: info.map { "\"\($0.reason)\"" } ?? "no ErrorInfo"))
                }
                if let domain = expect.domain, info?.domain != domain {
                    mismatches.append(
                        Mismatch(
                            field: "status domain", expected: "\"\(domain)\"",
                            got: info.map { "\"\($0.domain)\"" } ?? "no ErrorInfo"))
                }
                return mismatches
            case .stream(let partial, let failures, let end):
                mismatches += failures
                let count = partial["messages"]?.items.count ?? 0
                if failures.isEmpty, expect.fields.contains(where: { !$0.check(partial, variables: variables).isEmpty })
                {
                    mismatches.append(
                        Mismatch(
                            field: "messages", expected: "what the fields below ask, within \(timeout)",
                            got: "\(count) messages, then \(end)"))
                }
                answer = partial
            case .malformed(let what):
                let name = ContractMethods.byName[interaction.call.method]?.response.name ?? "message"
                throw ReplayError(mismatch: Mismatch(field: "the answer", expected: "a \(name)", got: what))
            case .contract(let problem):
                throw ReplayError(
                    mismatch: Mismatch(field: "the request", expected: "one the contract can make", got: problem))
            }
        }
        guard expect.status == .ok else {
            return mismatches + [Mismatch(field: "status", expected: Self.describe(expect), got: "OK")]
        }
        for rule in expect.fields { mismatches += rule.check(answer, variables: variables) }
        return mismatches
    }

    private static func describe(_ expect: Expectation) -> String {
        "\(expect.status)" + (expect.reason.map { " \($0)" } ?? "")
            + (expect.messageContains.map { " with a message containing \"\($0)\"" } ?? "")
    }

    /// One step that must be OK; what it saves goes into `variables`.
    private func call(_ step: Step, _ what: String, _ variables: inout Variables) async throws(ReplayError) -> JSONValue
    {
        let answer: JSONValue
        let field = "\(what) \(step.method)"
        do {
            answer = try await perform(step, variables, until: nil, during: [])
        } catch {
            switch error {
            case .status(let error):
                throw ReplayError(
                    mismatch: Mismatch(field: field, expected: "OK", got: "\(error.code): \(error.message)"),
                    unreachable: Self.isTransportFailure(error))
            case .stream(_, let failures, let end):
                throw ReplayError(mismatch: failures.first ?? Mismatch(field: field, expected: "OK", got: end))
            case .malformed(let problem):
                throw ReplayError(mismatch: Mismatch(field: field, expected: "a well-formed answer", got: problem))
            case .contract(let problem):
                throw ReplayError(
                    mismatch: Mismatch(field: field, expected: "a request the contract can make", got: problem))
            }
        }
        for (name, path) in step.save {
            guard let value = path.value(in: answer, variables: variables) else {
                throw ReplayError(
                    mismatch: Mismatch(
                        field: "\(field): \(path)", expected: "a value to save as ${\(name)}", got: "absent"))
            }
            variables[name] = value
        }
        return answer
    }

    /// Makes one call: the request(s) from the step's templates, the answer as proto3 JSON
    /// (`{"messages": [...]}` for a server stream).
    private func perform(
        _ step: Step, _ variables: Variables, until: (@Sendable (JSONValue) -> Bool)?, during: [Step]
    ) async throws(StepFailure) -> JSONValue {
        guard let method = ContractMethods.byName[step.method] else {
            throw .contract("\(step.method) is no known method")
        }
        var metadata = Metadata()
        var requests: [[UInt8]] = []
        do {
            for (key, value) in step.metadata {
                metadata.addString(try Template.substitute(text: value, variables), forKey: key)
            }
            for request in step.requests {
                let json = try Template.substitute(request, variables)
                do { requests.append(try method.request.bytes(json)) } catch {
                    throw ContractFileError("the request is no \(method.request.name): \(error)")
                }
            }
        } catch let error as ContractFileError {
            throw .contract(error.message)
        } catch {
            throw .contract("\(error)")
        }
        let options = CallOptions(timeout: timeout)
        do {
            switch method.kind {
            case .unary:
                let response = try await client.unary(
                    request: ClientRequest(message: requests[0], metadata: metadata), method: method.descriptor,
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder(), options: options)
                return try Self.decode(response.message, method)
            case .clientStreaming:
                let response = try await client.clientStreaming(
                    metadata: metadata, method: method.descriptor,
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder(), options: options
                ) { writer in
                    for request in requests { try await writer.write(request) }
                }
                return try Self.decode(response.message, method)
            case .serverStreaming:
                return try await stream(
                    method, ClientRequest(message: requests[0], metadata: metadata), options, variables, until: until,
                    during: during)
            }
        } catch let failure as StepFailure {
            throw failure
        } catch let error as RPCError {
            throw .status(error)
        } catch {
            throw .status(RPCError(code: .unknown, message: "\(error)"))
        }
    }

    /// A server stream, read to its end, or while `until` says the messages so far are not
    /// yet enough (a live stream, hung up then); `during` is made once the first message
    /// arrived (so the stream is known to be open at the provider).
    private func stream(
        _ method: ContractMethod, _ request: ClientRequest<[UInt8]>, _ options: CallOptions, _ variables: Variables,
        until: (@Sendable (JSONValue) -> Bool)?, during: [Step]
    ) async throws(StepFailure) -> JSONValue {
        var messages: [JSONValue] = []
        var failures: [Mismatch] = []
        var end = "the stream ended"
        var enough = until == nil
        do {
            try await client.serverStreaming(
                request: request, method: method.descriptor, serializer: RawBytesCoder(), deserializer: RawBytesCoder(),
                options: options
            ) { responses in
                while let bytes = try await responses.nextMessage() {
                    messages.append(try Self.decode(bytes, method))
                    if messages.count == 1 { failures = await self.during(during, variables) }
                    if let until, until(Self.answer(messages)) {
                        enough = true
                        break
                    }
                }
            }
        } catch let failure as StepFailure {
            throw failure
        } catch {
            let status = (error as? RPCError) ?? RPCError(code: .unknown, message: "\(error)")
            if messages.isEmpty { throw .status(status) }
            end = "\(status.code): \(status.message)"
        }
        if !failures.isEmpty || !enough {
            throw .stream(partial: Self.answer(messages), failures: failures, end: end)
        }
        return Self.answer(messages)
    }

    static func answer(_ messages: [JSONValue]) -> JSONValue {
        .object([JSONMember("messages", .array(messages))])
    }

    private func during(_ steps: [Step], _ variables: Variables) async -> [Mismatch] {
        var failures: [Mismatch] = []
        for (index, step) in steps.enumerated() {
            do {
                _ = try await perform(step, variables, until: nil, during: [])
            } catch {
                let got: String =
                    switch error {
                    case .status(let status): "\(status.code): \(status.message)"
                    case .stream(_, _, let end): end
                    case .malformed(let problem), .contract(let problem): problem
                    }
                failures.append(Mismatch(field: "during[\(index)] \(step.method)", expected: "OK", got: got))
            }
        }
        return failures
    }

    private static func decode(_ bytes: [UInt8], _ method: ContractMethod) throws(StepFailure) -> JSONValue {
        do { return try method.response.json(bytes) } catch {
            throw .malformed("not a \(method.response.name): \(error)")
        }
    }

    static func isTransportFailure(_ error: RPCError) -> Bool {
        error.code == .unavailable
            && (error.message.hasPrefix("Cannot connect to") || error.message == "The connection was not set up")
    }
}

/// Why a call did not give an answer.
enum StepFailure: Error {
    /// The provider answered with a status other than OK.
    case status(RPCError)
    /// A server stream: the messages read until it ended or failed, the `during` steps
    /// that failed, and how it ended.
    case stream(partial: JSONValue, failures: [Mismatch], end: String)
    /// The answer's bytes are not the method's response message.
    case malformed(String)
    /// The contract's request could not be made (a variable not set, a field the message lacks).
    case contract(String)
}

/// What makes an interaction fail before its fields can be checked.
struct ReplayError: Error {
    var mismatch: Mismatch
    var unreachable = false
}

/// Names and numbers unique to one replay (`${run}`, `${runId}`): a random start per
/// process and a counter. The numbers sit far above the ids services hand out (counted
/// from 1), so they cannot meet a real placement of a long-running service.
enum RunNames {
    private static let counter = Atomic<UInt32>(0)
    private static let prefix = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 36)
    private static let base = UInt64.random(in: (1 << 40)...(1 << 41))

    static func next() -> (run: String, runId: UInt64) {
        let n = counter.add(1, ordering: .relaxed).newValue
        return ("r\(prefix)\(n)", base + UInt64(n))
    }
}
