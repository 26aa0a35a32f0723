package import GlimpseJSON

/// A field an answer gets wrong: where, what the consumer relies on, what came.
package struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// The concrete path (`placements[0].used`), or `status`.
    package var field: String
    package var expected: String
    package var got: String

    package init(field: String, expected: String, got: String) {
        self.field = field
        self.expected = expected
        self.got = got
    }

    package var description: String { "\(field): expected \(expected), got \(got)" }
}

extension FieldRule {
    /// Checks the rule against a proto3 JSON answer. Proto3 JSON leaves a field at its
    /// default out, so an absent number, string, boolean, enum, bytes or array is its
    /// default (0, "", false, the zero enum value, none); an absent message or timestamp
    /// is not set, which only an `optional` rule or `absent` accepts.
    package func check(_ answer: JSONValue, variables: Variables) -> [Mismatch] {
        var mismatches: [Mismatch] = []
        for place in path.resolve(in: answer, variables: variables) {
            if place.noElements {
                if !optional {
                    mismatches.append(Mismatch(field: place.path, expected: "at least one element", got: "none"))
                }
                continue
            }
            if let mismatch = check(place.value, at: place.path, variables: variables) { mismatches.append(mismatch) }
        }
        return mismatches
    }

    private func check(_ value: JSONValue?, at field: String, variables: Variables) -> Mismatch? {
        let wantsAbsent = constraints.contains { if case .absent = $0 { true } else { false } }
        guard let value else {
            if optional || wantsAbsent { return nil }
            guard let fallback = defaultValue(variables) else {
                return Mismatch(field: field, expected: expectedText(variables), got: "absent")
            }
            if let problem = firstFailure(fallback, variables) {
                return Mismatch(
                    field: field, expected: problem, got: "absent (the default, \(JSONText.describe(fallback)))")
            }
            return nil
        }
        if wantsAbsent { return Mismatch(field: field, expected: "absent", got: JSONText.describe(value)) }
        if let problem = firstFailure(value, variables) {
            return Mismatch(field: field, expected: problem, got: JSONText.describe(value))
        }
        return nil
    }

    /// What an absent field stands for, when its type has a default.
    func defaultValue(_ variables: Variables) -> JSONValue? {
        for constraint in constraints {
            let sample: JSONValue
            switch constraint {
            case .type(.number), .type(.enum), .min: return .number("0")
            case .type(.string), .type(.bytes), .matches: return .string("")
            case .type(.boolean): return .bool(false)
            case .type(.array): return .array([])
            case .type(.object), .type(.timestamp), .type(.duration), .nonEmpty, .contains: return nil
            case .equals(let value): sample = (try? Template.substitute(value, variables)) ?? value
            case .oneOf(let values):
                guard let first = values.first else { continue }
                sample = (try? Template.substitute(first, variables)) ?? first
            case .absent: continue
            }
            switch sample {
            case .bool: return .bool(false)
            case .number: return .number("0")
            // A 64-bit integer is a string in proto3 JSON: its default is 0 all the same.
            case .string(let s): return s.hasSuffix("_UNSPECIFIED") || Double(s) != nil ? .number("0") : .string("")
            case .array: return .array([])
            default: return nil
            }
        }
        return nil
    }

    private func expectedText(_ variables: Variables) -> String {
        constraints.map { describe($0, variables) }.joined(separator: ", ")
    }

    /// The first constraint `value` breaks, described as what was expected.
    private func firstFailure(_ value: JSONValue, _ variables: Variables) -> String? {
        for constraint in constraints where !holds(constraint, value, variables) {
            return describe(constraint, variables)
        }
        return nil
    }

    private func holds(_ constraint: Constraint, _ value: JSONValue, _ variables: Variables) -> Bool {
        switch constraint {
        case .equals(let template):
            guard let expected = try? Template.substitute(template, variables) else { return false }
            return JSONText.equal(expected, value)
        case .type(let type):
            return Self.isOf(type, value)
        case .min(let bound):
            return JSONText.number(value).map { $0 >= bound } ?? false
        case .nonEmpty:
            switch value {
            case .string(let s): return !s.isEmpty
            case .array(let items): return !items.isEmpty
            case .object(let members): return !members.isEmpty
            default: return false
            }
        case .oneOf(let templates):
            return templates.contains {
                (try? Template.substitute($0, variables)).map { JSONText.equal($0, value) } ?? false
            }
        case .contains(let template):
            guard let element = try? Template.substitute(template, variables) else { return false }
            switch value {
            case .array(let items): return items.contains { JSONText.equal(element, $0) }
            case .string(let s): return element.stringValue.map { s.contains($0) } ?? false
            default: return false
            }
        case .matches(let pattern):
            guard case .string(let s) = value, let regex = try? Regex(pattern) else { return false }
            return s.wholeMatch(of: regex) != nil
        case .absent:
            return false
        }
    }

    static func isOf(_ type: FieldType, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case (.number, .number): return true
        case (.number, .string(let s)): return Double(s) != nil || ["NaN", "Infinity", "-Infinity"].contains(s)
        case (.string, .string), (.boolean, .bool), (.object, .object), (.array, .array), (.enum, .number): return true
        case (.enum, .string(let s)): return !s.isEmpty && s.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
        case (.timestamp, .string(let s)):
            // RFC 3339 in UTC, as proto3 JSON writes a Timestamp.
            return s.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z/#) != nil
        case (.duration, .string(let s)): return s.hasSuffix("s") && Double(s.dropLast()) != nil
        case (.bytes, .string(let s)):
            return s.allSatisfy { $0.isLetter || $0.isNumber || "+/=-_".contains($0) }
        default: return false
        }
    }

    private func describe(_ constraint: Constraint, _ variables: Variables) -> String {
        switch constraint {
        case .equals(let template):
            return (try? Template.substitute(template, variables)).map(JSONText.describe) ?? JSONText.describe(template)
        case .type(let type):
            switch type {
            case .number: return "a number"
            case .string: return "a string"
            case .boolean: return "a boolean"
            case .object: return "a message (set)"
            case .array: return "a list"
            case .timestamp: return "a timestamp"
            case .duration: return "a duration"
            case .enum: return "an enum value"
            case .bytes: return "bytes (base64)"
            }
        case .min(let bound):
            return "a number ≥ \(bound == bound.rounded() ? String(Int64(bound)) : String(bound))"
        case .nonEmpty: return "not empty"
        case .oneOf(let values): return "one of " + values.map(JSONText.describe).joined(separator: ", ")
        case .contains(let element):
            return "to contain " + JSONText.describe((try? Template.substitute(element, variables)) ?? element)
        case .matches(let pattern): return "matching /\(pattern)/"
        case .absent: return "absent"
        }
    }
}
