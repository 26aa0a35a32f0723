/// What is wrong with a contract file (or the contracts directory), in words that name
/// the file and the field.
package struct ContractFileError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }

    /// The same problem, said of `file`.
    func within(_ file: String) -> ContractFileError { ContractFileError("\(file): \(message)") }
}
