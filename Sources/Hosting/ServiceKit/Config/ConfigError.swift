/// A setting that could not be used: names the flag and where the value came from, so
/// that a service fails fast with one line that says what to fix.
///
///     --clock: expected system or manual, got "maual" (from GLIMPSE_CLOCK)
package struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
