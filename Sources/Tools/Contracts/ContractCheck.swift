import GlimpseJSON
import RPCCore

/// What a contract file must be besides well-formed (see `Interaction`'s invariants).
enum ContractCheck {
    /// Throws the first thing wrong, said of the interaction's file.
    static func validate(_ interaction: Interaction) throws(ContractFileError) {
        do { try check(interaction) } catch { throw error.within(interaction.file) }
    }

    private static func check(_ interaction: Interaction) throws(ContractFileError) {
        let pair = "\(short(interaction.consumer))-\(short(interaction.provider))"
        guard interaction.file.hasPrefix(pair + "/") else {
            throw ContractFileError(
                "consumer \(interaction.consumer) and provider \(interaction.provider) belong under \(pair)/")
        }
        guard let services = ContractMethods.services[interaction.provider] else {
            throw ContractFileError(
                "provider: \(interaction.provider) is not one of \(ContractMethods.services.keys.sorted().joined(separator: ", "))"
            )
        }
        var steps: [(String, Step)] = interaction.setup.enumerated().map { ("setup[\($0)]", $1) }
        steps.append(("call", interaction.call))
        steps += interaction.during.enumerated().map { ("during[\($0)]", $1) }
        steps += interaction.teardown.enumerated().map { ("teardown[\($0)]", $1) }
        if let condition = interaction.onlyIf { steps.append(("onlyIf", condition.step)) }
        for (what, step) in steps {
            guard let method = ContractMethods.byName[step.method] else {
                throw ContractFileError(
                    "\(what): \(step.method) is no method of the services (Service/Method, e.g. glimpse.timeline.v1.TimelineService/Place)"
                )
            }
            guard services.contains(method.descriptor.service) else {
                throw ContractFileError("\(what): \(interaction.provider) does not serve \(method.descriptor.service)")
            }
            guard method.kind == .clientStreaming || step.requests.count == 1 else {
                throw ContractFileError("\(what): \(step.method) takes one request")
            }
        }
        let method = ContractMethods.byName[interaction.call.method]!
        if method.kind != .serverStreaming, interaction.live || !interaction.during.isEmpty {
            throw ContractFileError("live and during are for server streams; \(method.name) is not one")
        }
        try checkExample(interaction, method)
    }

    private static func checkExample(_ interaction: Interaction, _ method: ContractMethod) throws(ContractFileError) {
        guard interaction.expect.status == .ok else {
            if interaction.example != nil {
                throw ContractFileError(
                    "example: only for an OK answer (expect.status is \(interaction.expect.status))")
            }
            if !interaction.expect.fields.isEmpty { throw ContractFileError("expect.fields: only for an OK answer") }
            return
        }
        guard let example = interaction.example else {
            throw ContractFileError("example: required (the answer the consumer's stub gives)")
        }
        let messages: [JSONValue]
        if method.kind == .serverStreaming {
            guard case .object(let members) = example, members.count == 1, case .array(let items)? = example["messages"]
            else {
                throw ContractFileError("example: {\"messages\": [...]} for a server stream")
            }
            messages = items
        } else {
            messages = [example]
        }
        for (index, message) in messages.enumerated() {
            do { _ = try method.response.bytes(message) } catch {
                let at = method.kind == .serverStreaming ? "example.messages[\(index)]" : "example"
                throw ContractFileError("\(at) is no \(method.response.name): \(error)")
            }
        }
        // The example keeps the promises the rules state (those that need no saved value).
        for rule in interaction.expect.fields {
            let fixed = rule.constraints.filter { !$0.hasVariables }
            guard !fixed.isEmpty || rule.constraints.isEmpty else { continue }
            let checked = FieldRule(path: rule.path, constraints: fixed, optional: rule.optional)
            if let mismatch = checked.check(example, variables: Variables(run: "example")).first {
                throw ContractFileError("example breaks its own rule: \(mismatch)")
            }
        }
        // And holds nothing else: a stub made from it gives no more than the contract promises.
        let shapes = interaction.expect.fields.map(\.path.shape)
        for leaf in leaves(of: example, at: []) where !shapes.contains(where: { leaf.starts(with: $0) }) {
            throw ContractFileError(
                "example: \(text(leaf)) is not among the fields relied on (expect.fields): drop it or add a rule")
        }
    }

    /// The paths of the example's leaves (values that are not objects or arrays, and empty ones).
    static func leaves(of value: JSONValue, at path: [String]) -> [[String]] {
        switch value {
        case .object(let members) where !members.isEmpty:
            return members.flatMap { leaves(of: $0.value, at: path + [$0.key]) }
        case .array(let items) where !items.isEmpty:
            return items.flatMap { leaves(of: $0, at: path + ["[]"]) }
        default:
            return path.isEmpty ? [] : [path]
        }
    }

    /// `["placements", "[]", "used"]` → `placements[].used`.
    static func text(_ shape: [String]) -> String {
        shape.enumerated().map { index, part in index == 0 || part == "[]" ? part : "." + part }.joined()
    }

    /// `glimpse-gateway` → `gateway`.
    static func short(_ service: String) -> String {
        service.hasPrefix("glimpse-") ? String(service.dropFirst("glimpse-".count)) : service
    }
}

extension Constraint {
    var hasVariables: Bool {
        switch self {
        case .equals(let value), .contains(let value): Template.hasVariables(value)
        case .oneOf(let values): values.contains(where: Template.hasVariables)
        default: false
        }
    }
}
