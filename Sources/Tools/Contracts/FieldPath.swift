package import GlimpseJSON

/// A path into a proto3 JSON answer, in the words a consumer reads it:
///
///     budget.limit                                   a field of a field
///     placements[0].placementId                      an element
///     pushes[*].sequence                             every element (there must be one)
///     messages[?reload].reload.reason                the first element with `reload` set
///     messages[?placementId=${placement}&reload]     the first with both (values may be templates)
///     configuration["city"]                          a map entry
///
/// Field names are proto3 JSON's (lowerCamelCase).
package struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    package enum Segment: Sendable, Hashable {
        case field(String)
        case index(Int)
        case every
        case firstWhere([Filter])
    }

    /// One condition of `[?…]`: a dotted field path that is set, or equal to a value.
    package struct Filter: Sendable, Hashable {
        package var path: [String]
        package var value: JSONValue?
    }

    package let segments: [Segment]
    package let description: String

    package init(parsing text: String) throws(ContractFileError) {
        var segments: [Segment] = []
        var chars = Array(text)[...]
        func fail(_ why: String) -> ContractFileError { ContractFileError("path \"\(text)\": \(why)") }
        while let c = chars.first {
            if c == "." {
                guard !segments.isEmpty else { throw fail("starts with a dot") }
                chars = chars.dropFirst()
            }
            if chars.first == "[" {
                guard let close = chars.firstIndex(of: "]") else { throw fail("an unclosed [") }
                let inside = String(chars[chars.index(after: chars.startIndex)..<close])
                chars = chars[chars.index(after: close)...]
                if inside == "*" {
                    segments.append(.every)
                } else if inside.hasPrefix("?"), inside.count > 1 {
                    segments.append(
                        .firstWhere(
                            try inside.dropFirst().split(separator: "&").map { condition throws(ContractFileError) in
                                let parts = condition.split(separator: "=", maxSplits: 1)
                                let path = parts[0].split(separator: ".").map(String.init)
                                guard !path.isEmpty else { throw fail("[?\(inside.dropFirst())]: an empty condition") }
                                guard parts.count == 2 else { return Filter(path: path, value: nil) }
                                let literal = String(parts[1])
                                let value = (try? JSONParser.parse(Array(literal.utf8))) ?? .string(literal)
                                return Filter(path: path, value: value)
                            }))
                } else if inside.hasPrefix("\""), inside.hasSuffix("\""), inside.count >= 2 {
                    segments.append(.field(String(inside.dropFirst().dropLast())))
                } else if let index = Int(inside), index >= 0 {
                    segments.append(.index(index))
                } else {
                    throw fail("[\(inside)] is not [n], [*], [?field], [?field=value] or [\"key\"]")
                }
                continue
            }
            let name = chars.prefix { $0 != "." && $0 != "[" }
            guard !name.isEmpty else { throw fail("an empty field name") }
            segments.append(.field(String(name)))
            chars = chars.dropFirst(name.count)
        }
        guard !segments.isEmpty else { throw fail("empty") }
        self.segments = segments
        self.description = text
    }

    /// Where the path leads in `value`: one place, or one per element under `[*]`. A value
    /// of nil is absent (proto3 JSON leaves fields at their default out). Filter values
    /// that name a variable `variables` lacks match any value (an example is checked so,
    /// before any call saved one).
    package func resolve(in value: JSONValue, variables: Variables) -> [Place] {
        var places = [Place(path: "", value: value)]
        for segment in segments {
            var next: [Place] = []
            for place in places {
                guard let current = place.value else {
                    next.append(Place(path: place.path + segment.text, value: nil, noElements: segment == .every))
                    continue
                }
                switch segment {
                case .field(let name):
                    next.append(Place(path: place.path + segment.text, value: current[name]))
                case .index(let index):
                    let items = current.items
                    next.append(Place(path: place.path + segment.text, value: index < items.count ? items[index] : nil))
                case .every:
                    let items = current.items
                    if items.isEmpty { next.append(Place(path: place.path + "[*]", value: nil, noElements: true)) }
                    for (index, item) in items.enumerated() {
                        next.append(Place(path: place.path + "[\(index)]", value: item))
                    }
                case .firstWhere(let filters):
                    let items = current.items
                    if let index = items.firstIndex(where: { item in
                        filters.allSatisfy { $0.holds(in: item, variables) }
                    }) {
                        next.append(Place(path: place.path + "[\(index)]", value: items[index]))
                    } else {
                        next.append(Place(path: place.path + segment.text, value: nil))
                    }
                }
            }
            places = next
        }
        return places.map {
            Place(path: String($0.path.drop { $0 == "." }), value: $0.value, noElements: $0.noElements)
        }
    }

    /// The value at the first place the path leads (for saving).
    package func value(in value: JSONValue, variables: Variables) -> JSONValue? {
        resolve(in: value, variables: variables).first?.value
    }

    /// The path with every element step as `[]` and every map key as a field: what a rule
    /// covers in an example answer.
    var shape: [String] {
        segments.map { segment in
            switch segment {
            case .field(let name): name
            case .index, .every, .firstWhere: "[]"
            }
        }
    }

    /// One place a path reached.
    package struct Place: Sendable {
        /// Concrete (`placements[0].used`), for reports.
        package var path: String
        package var value: JSONValue?
        /// `[*]` over an empty or absent array.
        package var noElements = false
    }
}

extension FieldPath.Filter {
    func holds(in item: JSONValue, _ variables: Variables) -> Bool {
        var current: JSONValue? = item
        for name in path { current = current?[name] }
        guard let found = current else { return false }
        guard let value else { return true }
        guard let expected = try? Template.substitute(value, variables) else { return true }
        return JSONText.equal(expected, found)
    }

    var text: String {
        let name = path.joined(separator: ".")
        guard let value else { return name }
        if case .string(let s) = value { return "\(name)=\(s)" }
        return "\(name)=\(String(decoding: value.serialized(), as: UTF8.self))"
    }
}

extension FieldPath.Segment {
    var text: String {
        switch self {
        case .field(let name):
            name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? ".\(name)" : "[\"\(name)\"]"
        case .index(let index): "[\(index)]"
        case .every: "[*]"
        case .firstWhere(let filters): "[?\(filters.map(\.text).joined(separator: "&"))]"
        }
    }
}

extension JSONValue {
    /// An array's elements (none for anything else).
    var items: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }
}
