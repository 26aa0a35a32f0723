/// A setting that could not be used: names the flag and where the value came from, so
/// that a service fails fast with one line that says what to fix.
///
///     --clock: expected system or manual, got "maual" (from GLIMPSE_CLOCK)
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
