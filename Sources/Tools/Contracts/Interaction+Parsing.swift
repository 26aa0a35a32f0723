import GlimpseJSON
import RPCCore

/// Reading a contract file. Every key is known (a misspelt one is an error that names
/// it), so a contract cannot silently promise less than it says.
extension Interaction {
    static let keys: Set<String> = [
        "consumer", "provider", "interaction", "relies", "setup", "call", "metadata", "request", "requests",
        "during", "live", "onlyIf", "expect", "example", "stubbed", "teardown", "notes",
    ]

    /// Parses one file. `file` is its path under the contracts directory
    /// (`gateway-timeline/get-placement.json`), which names it in every error.
    package init(file: String, bytes: [UInt8]) throws(ContractFileError) {
        do {
            let root: JSONValue
            do { root = try JSONParser.parse(bytes) } catch { throw ContractFileError("not JSON: \(error)") }
            let object = try Fields(root, "the file", known: Self.keys)
            self.file = file
            let base = file.split(separator: "/").last.map(String.init) ?? file
            name = base.hasSuffix(".json") ? String(base.dropLast(5)) : base
            consumer = try object.string("consumer")
            provider = try object.string("provider")
            summary = try object.string("interaction")
            relies = try object.optionalString("relies") ?? ""
            notes = try object.optionalString("notes") ?? ""
            setup = try object.array("setup").enumerated().map { index, value throws(ContractFileError) in
                try Step(value, "setup[\(index)]")
            }
            call = try Step(object: object, "the call")
            during = try object.array("during").enumerated().map { index, value throws(ContractFileError) in
                try Step(value, "during[\(index)]")
            }
            live = try object.optionalBool("live") ?? false
            onlyIf = try object.value("onlyIf").map { value throws(ContractFileError) in try Condition(value) }
            guard let expectValue = object.value("expect") else { throw ContractFileError("expect: required") }
            expect = try Expectation(expectValue)
            example = object.value("example")
            stubbed = try object.optionalBool("stubbed") ?? true
            teardown = try object.array("teardown").enumerated().map { index, value throws(ContractFileError) in
                try Step(value, "teardown[\(index)]")
            }
        } catch let error as ContractFileError {
            throw error.within(file)
        } catch {
            throw ContractFileError("\(error)").within(file)
        }
    }
}

extension Step {
    static let keys: Set<String> = ["call", "metadata", "request", "requests", "save"]

    init(_ value: JSONValue, _ what: String) throws(ContractFileError) {
        try self.init(object: try Fields(value, what, known: Self.keys), what)
    }

    /// From the keys of `object` (a step, or the interaction's own call).
    init(object: Fields, _ what: String) throws(ContractFileError) {
        method = try object.string("call", what)
        var metadata: [(key: String, value: String)] = []
        if let value = object.value("metadata") {
            guard case .object(let members) = value else {
                throw ContractFileError("\(what): metadata: an object of strings")
            }
            for member in members {
                guard case .string(let text) = member.value else {
                    throw ContractFileError("\(what): metadata.\(member.key): a string")
                }
                metadata.append((member.key.lowercased(), text))
            }
        }
        self.metadata = metadata
        switch (object.value("request"), object.value("requests")) {
        case (let one?, nil): requests = [one]
        case (nil, .array(let many)?): requests = many
        case (nil, nil): requests = [.object([])]
        default: throw ContractFileError("\(what): either request or requests (a list, for a client stream)")
        }
        var save: [(name: String, path: FieldPath)] = []
        if let value = object.value("save") {
            guard case .object(let members) = value else {
                throw ContractFileError("\(what): save: an object of paths")
            }
            for member in members {
                guard case .string(let path) = member.value else {
                    throw ContractFileError("\(what): save.\(member.key): a path")
                }
                save.append((member.key, try FieldPath(parsing: path)))
            }
        }
        self.save = save
    }
}

extension Condition {
    init(_ value: JSONValue) throws(ContractFileError) {
        let object = try Fields(value, "onlyIf", known: Step.keys.union(["field", "equals"]))
        step = try Step(object: object, "onlyIf")
        path = try FieldPath(parsing: try object.string("field", "onlyIf"))
        guard let equals = object.value("equals") else { throw ContractFileError("onlyIf: equals: required") }
        self.equals = equals
    }
}

extension Expectation {
    init(_ value: JSONValue) throws(ContractFileError) {
        let object = try Fields(value, "expect", known: ["status", "messageContains", "reason", "domain", "fields"])
        let statusName = try object.optionalString("status") ?? "OK"
        guard let code = StatusCode.allCases.first(where: { $0.description == statusName }) else {
            throw ContractFileError(
                "expect.status: \(statusName) is no gRPC status (OK, NOT_FOUND, INVALID_ARGUMENT, …)")
        }
        status = code
        messageContains = try object.optionalString("messageContains")
        reason = try object.optionalString("reason")
        domain = try object.optionalString("domain")
        if code == .ok, reason != nil || domain != nil {
            throw ContractFileError("expect.reason/domain: only a status other than OK has a reason")
        }
        var fields: [FieldRule] = []
        if let value = object.value("fields") {
            guard case .object(let members) = value else {
                throw ContractFileError("expect.fields: an object of path → constraints")
            }
            for member in members {
                do {
                    fields.append(try FieldRule(path: try FieldPath(parsing: member.key), member.value))
                } catch {
                    throw ContractFileError("expect.fields[\"\(member.key)\"]: \(error.message)")
                }
            }
        }
        self.fields = fields
    }
}

extension FieldRule {
    /// `"number"` (a type alone) or `{"type": "number", "min": 1, "optional": true, …}`.
    init(path: FieldPath, _ value: JSONValue) throws(ContractFileError) {
        self.path = path
        if case .string(let name) = value {
            guard let type = FieldType(rawValue: name) else { throw Self.unknownType(name) }
            constraints = [.type(type)]
            optional = false
            return
        }
        let object = try Fields(
            value, "the rule",
            known: ["equals", "type", "min", "nonEmpty", "oneOf", "contains", "matches", "absent", "optional"])
        var constraints: [Constraint] = []
        if let name = try object.optionalString("type") {
            guard let type = FieldType(rawValue: name) else { throw Self.unknownType(name) }
            constraints.append(.type(type))
        }
        if let equals = object.value("equals") { constraints.append(.equals(equals)) }
        if let min = object.value("min") {
            guard let bound = min.doubleValue else { throw ContractFileError("min: a number") }
            constraints.append(.min(bound))
        }
        if try object.optionalBool("nonEmpty") == true { constraints.append(.nonEmpty) }
        if let oneOf = object.value("oneOf") {
            guard case .array(let values) = oneOf, !values.isEmpty else {
                throw ContractFileError("oneOf: a list of values")
            }
            constraints.append(.oneOf(values))
        }
        if let element = object.value("contains") { constraints.append(.contains(element)) }
        if let pattern = try object.optionalString("matches") {
            guard (try? Regex(pattern)) != nil else {
                throw ContractFileError("matches: /\(pattern)/ is no regular expression")
            }
            constraints.append(.matches(pattern))
        }
        if try object.optionalBool("absent") == true { constraints.append(.absent) }
        guard !constraints.isEmpty else {
            throw ContractFileError("no constraint (type, equals, min, nonEmpty, oneOf, contains, matches, absent)")
        }
        self.constraints = constraints
        optional = try object.optionalBool("optional") ?? false
    }

    private static func unknownType(_ name: String) -> ContractFileError {
        ContractFileError("type \(name) is not one of \(FieldType.allCases.map(\.rawValue).joined(separator: ", "))")
    }
}

/// A JSON object read key by key, refusing keys it does not know.
struct Fields {
    let value: JSONValue
    let what: String

    init(_ value: JSONValue, _ what: String, known: Set<String>) throws(ContractFileError) {
        guard case .object(let members) = value else { throw ContractFileError("\(what): an object") }
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw ContractFileError(
                "\(what): unknown key \"\(unknown.key)\" (known: \(known.sorted().joined(separator: ", ")))")
        }
        self.value = value
        self.what = what
    }

    func value(_ key: String) -> JSONValue? { value[key] }

    func string(_ key: String, _ context: String? = nil) throws(ContractFileError) -> String {
        guard let text = try optionalString(key, context), !text.isEmpty else {
            throw ContractFileError("\(context.map { "\($0): " } ?? "")\(key): required")
        }
        return text
    }

    func optionalString(_ key: String, _ context: String? = nil) throws(ContractFileError) -> String? {
        guard let value = value[key] else { return nil }
        guard case .string(let text) = value else {
            throw ContractFileError("\(context.map { "\($0): " } ?? "")\(key): a string")
        }
        return text
    }

    func optionalBool(_ key: String) throws(ContractFileError) -> Bool? {
        guard let value = value[key] else { return nil }
        guard case .bool(let flag) = value else { throw ContractFileError("\(key): true or false") }
        return flag
    }

    func array(_ key: String) throws(ContractFileError) -> [JSONValue] {
        guard let value = value[key] else { return [] }
        guard case .array(let items) = value else { throw ContractFileError("\(key): a list") }
        return items
    }
}
