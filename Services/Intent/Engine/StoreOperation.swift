package import GlimpseVocabulary
/// One step of a declarative intent action on the App Group store.
package enum StoreOperation: Sendable, Hashable, Codable {
    /// Sets `key` to a literal or to one of the intent's parameters.
    case set(key: String, to: ValueSource)
    /// Flips a bool; an absent key counts as false.
    case toggle(key: String)
    /// Adds to an int (an absent key counts as 0) or a double.
    case increment(key: String, by: Int64)
}

/// Where a `set` takes its value from.
package enum ValueSource: Sendable, Hashable, Codable {
    case literal(TypedValue)
    case parameter(String)
}

extension AppGroupStore {
    /// Applies `operations` in order, atomically: if one fails, nothing is written.
    /// Parameters must already be validated (every `.parameter` name is present).
    mutating func apply(
        _ operations: [StoreOperation], in group: GroupID, parameters: [String: TypedValue]
    ) throws(StoreError) -> [StoreChange] {
        var staged: [(key: String, value: TypedValue)] = []
        func current(_ key: String) -> TypedValue? {
            staged.last { $0.key == key }?.value ?? value(key, in: group)
        }
        for operation in operations {
            switch operation {
            case .set(let key, .literal(let value)):
                staged.append((key, value))
            case .set(let key, .parameter(let name)):
                guard let value = parameters[name] else { preconditionFailure("unvalidated parameter \(name)") }
                staged.append((key, value))
            case .toggle(let key):
                switch current(key) {
                case nil: staged.append((key, .bool(true)))
                case .bool(let flag)?: staged.append((key, .bool(!flag)))
                case let other?: throw .typeMismatch(key: key, expected: .bool, found: other.type)
                }
            case .increment(let key, let amount):
                switch current(key) {
                case nil: staged.append((key, .int(amount)))
                case .int(let n)?:
                    let (sum, overflow) = n.addingReportingOverflow(amount)
                    guard !overflow else { throw .overflow(key: key, value: n, increment: amount) }
                    staged.append((key, .int(sum)))
                case .double(let x)?: staged.append((key, .double(x + Double(amount))))
                case let other?: throw .typeMismatch(key: key, expected: .int, found: other.type)
                }
            }
        }
        return staged.map { key, value in
            let sequence = write(key, value, in: group)
            return StoreChange(sequence: sequence, key: key, value: value)
        }
    }
}
