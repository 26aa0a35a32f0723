package import GlimpseJSON

/// The values an interaction's steps share: `run` (a name unique to one replay, so that
/// verifying twice against one long-running service makes new apps each time), `runId`
/// (a number unique to it, for ids the consumer chooses, such as a placement glimpse-intent
/// is told of) and what earlier steps saved (`"save": {"placement": "placement.placementId"}`).
package struct Variables: Sendable {
    package var values: [String: JSONValue]

    package init(run: String, runId: UInt64 = 0) {
        values = ["run": .string(run), "runId": .string(String(runId))]
    }

    package subscript(name: String) -> JSONValue? {
        get { values[name] }
        set { values[name] = newValue }
    }
}

/// `${name}` in a contract's JSON. A string that is exactly `"${name}"` becomes the saved
/// value itself (a number stays a number); inside a longer string it is the value's text.
enum Template {
    /// The parts of a string: literal text and variable names, in order.
    enum Part: Equatable {
        case text(String)
        case variable(String)
    }

    static func parts(_ string: String) -> [Part] {
        var parts: [Part] = []
        var text = ""
        var rest = string[...]
        while let start = rest.firstRange(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[start.upperBound..<end])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                text += rest[..<start.upperBound]
                rest = rest[start.upperBound...]
                continue
            }
            text += rest[..<start.lowerBound]
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
            parts.append(.variable(name))
            rest = rest[rest.index(after: end)...]
        }
        text += rest
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
    }

    static func hasVariables(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): parts(s).contains { if case .variable = $0 { true } else { false } }
        case .array(let items): items.contains(where: hasVariables)
        case .object(let members): members.contains { hasVariables($0.value) }
        default: false
        }
    }

    static func substitute(_ value: JSONValue, _ variables: Variables) throws(ContractFileError) -> JSONValue {
        switch value {
        case .string(let s):
            let parts = parts(s)
            if parts.count == 1, case .variable(let name) = parts[0] { return try lookup(name, variables) }
            return .string(try substitute(text: s, variables))
        case .array(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try substitute(item, variables)) }
            return .array(out)
        case .object(let members):
            var out: [JSONMember] = []
            for member in members { out.append(JSONMember(member.key, try substitute(member.value, variables))) }
            return .object(out)
        default:
            return value
        }
    }

    static func substitute(text: String, _ variables: Variables) throws(ContractFileError) -> String {
        var out = ""
        for part in parts(text) {
            switch part {
            case .text(let t): out += t
            case .variable(let name):
                switch try lookup(name, variables) {
                case .string(let s): out += s
                case .number(let n): out += n
                case let other: out += String(decoding: other.serialized(), as: UTF8.self)
                }
            }
        }
        return out
    }

    private static func lookup(_ name: String, _ variables: Variables) throws(ContractFileError) -> JSONValue {
        guard let value = variables[name] else {
            throw ContractFileError("${\(name)} is not set (no earlier step saves it)")
        }
        return value
    }

    /// Whether `actual` (a consumer's request) is what `template` describes: the same
    /// fields, equal values, and any value where the template has a variable. Nil when it
    /// is; else the first difference.
    static func match(_ template: JSONValue, _ actual: JSONValue?, at path: String = "") -> Mismatch? {
        let here = path.isEmpty ? "(the message)" : path
        guard let actual else {
            return Mismatch(field: here, expected: JSONText.describe(template), got: "absent")
        }
        switch template {
        case .string(let s):
            let parts = parts(s)
            if parts.count == 1, case .variable = parts[0] { return nil }
            if parts.contains(where: { if case .variable = $0 { true } else { false } }) {
                guard case .string(let text) = actual, matches(parts, text) else {
                    return Mismatch(field: here, expected: "\"\(s)\"", got: JSONText.describe(actual))
                }
                return nil
            }
            return JSONText.equal(template, actual)
                ? nil : Mismatch(field: here, expected: JSONText.describe(template), got: JSONText.describe(actual))
        case .object(let members):
            guard case .object(let actualMembers) = actual else {
                return Mismatch(field: here, expected: "an object", got: JSONText.describe(actual))
            }
            for member in members {
                // Proto3 JSON leaves a field at its default out: `"locked": false` is `{}`.
                if actual[member.key] == nil, isDefault(member.value) { continue }
                if let mismatch = match(member.value, actual[member.key], at: join(path, member.key)) {
                    return mismatch
                }
            }
            for member in actualMembers where template[member.key] == nil {
                return Mismatch(
                    field: join(path, member.key), expected: "absent (not in the contract)",
                    got: JSONText.describe(member.value))
            }
            return nil
        case .array(let items):
            let actualItems = actual.items
            guard case .array = actual, actualItems.count == items.count else {
                return Mismatch(field: here, expected: "\(items.count) elements", got: JSONText.describe(actual))
            }
            for (index, item) in items.enumerated() {
                if let mismatch = match(item, actualItems[index], at: "\(path)[\(index)]") { return mismatch }
            }
            return nil
        default:
            return JSONText.equal(template, actual)
                ? nil : Mismatch(field: here, expected: JSONText.describe(template), got: JSONText.describe(actual))
        }
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A proto3 default: what JSON leaves out.
    static func isDefault(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .bool(let flag): !flag
        case .number(let literal): Double(literal) == 0
        case .string(let s): s.isEmpty || s == "0" || s.hasSuffix("_UNSPECIFIED")
        case .array(let items): items.isEmpty
        case .object: false
        }
    }

    /// Literal parts in order, anything (at least one character) for each variable.
    private static func matches(_ parts: [Part], _ text: String) -> Bool {
        var rest = text[...]
        var anchored = true
        for (index, part) in parts.enumerated() {
            switch part {
            case .variable:
                anchored = false
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            case .text(let literal):
                if anchored {
                    guard rest.hasPrefix(literal) else { return false }
                    rest = rest.dropFirst(literal.count)
                } else if index == parts.count - 1 {
                    return rest.hasSuffix(literal)
                } else {
                    guard let found = rest.firstRange(of: literal) else { return false }
                    rest = rest[found.upperBound...]
                }
                anchored = true
            }
        }
        return anchored ? rest.isEmpty : true
    }
}

extension Step {
    /// The step's request(s) with `variables` filled in: what a consumer test sends to make
    /// this call.
    package func requests(_ variables: Variables) throws(ContractFileError) -> [JSONValue] {
        var out: [JSONValue] = []
        for request in requests { out.append(try Template.substitute(request, variables)) }
        return out
    }
}
