/// What is wrong with a contract file (or the contracts directory), in words that name
/// the file and the field.
public struct ContractFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// The same problem, said of `file`.
    func within(_ file: String) -> ContractFileError { ContractFileError("\(file): \(message)") }
}
