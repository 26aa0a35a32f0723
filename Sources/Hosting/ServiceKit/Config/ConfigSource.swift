package import GlimpseVocabulary
/// Where a setting's value comes from: the command line first, then the environment
/// variable `GLIMPSE_<FLAG_NAME>` (`--data-dir` → `GLIMPSE_DATA_DIR`), then a default.
///
/// Options are declared as optional strings, so that the parser says only what was
/// given; this resolves and validates each one, and every error names the flag and the
/// variable.
package struct ConfigSource: Sendable {
    package var environment: [String: String]

    package init(environment: [String: String]) {
        self.environment = environment
    }

    /// The environment variable a flag falls back to: `data-dir` → `GLIMPSE_DATA_DIR`.
    package static func environmentName(of flag: String) -> String {
        "GLIMPSE_" + flag.uppercased().replacing("-", with: "_")
    }

    /// A given value and where it came from, or nil when neither place has one. An empty
    /// environment variable counts as not set.
    package func raw(_ flag: String, _ commandLine: String?) -> (value: String, origin: String)? {
        let variable = Self.environmentName(of: flag)
        if let commandLine { return (commandLine, "from --\(flag)") }
        if let value = environment[variable], !value.isEmpty { return (value, "from \(variable)") }
        return nil
    }

    /// The value of `--flag`, parsed; `fallback` when not given. `expected` says what a
    /// valid value looks like, for the error.
    package func value<Value>(
        _ flag: String, _ commandLine: String?, expected: String, default fallback: Value,
        parse: (String) -> Value?
    ) throws(ConfigError) -> Value {
        guard let (raw, origin) = raw(flag, commandLine) else { return fallback }
        guard let value = parse(raw) else {
            throw ConfigError("--\(flag): expected \(expected), got \"\(raw)\" (\(origin))")
        }
        return value
    }

    /// Like `value`, nil when not given.
    package func optional<Value>(
        _ flag: String, _ commandLine: String?, expected: String, parse: (String) -> Value?
    ) throws(ConfigError) -> Value? {
        try value(flag, commandLine, expected: expected, default: nil) { raw -> Value?? in
            parse(raw).map { Optional($0) }
        }
    }

    /// A setting the service cannot start without.
    package func required<Value>(
        _ flag: String, _ commandLine: String?, expected: String, parse: (String) -> Value?
    ) throws(ConfigError) -> Value {
        guard let value = try optional(flag, commandLine, expected: expected, parse: parse) else {
            throw ConfigError("--\(flag) is required: pass it or set \(Self.environmentName(of: flag))")
        }
        return value
    }

    /// The address of another service (`--timeline-address host:port`, or
    /// `GLIMPSE_TIMELINE_ADDRESS`); required.
    package func address(_ flag: String, _ commandLine: String?) throws(ConfigError) -> ServiceAddress {
        try required(flag, commandLine, expected: "host:port", parse: ServiceAddress.init(parsing:))
    }

    /// The address of another service, or nil when neither the flag nor the variable is set.
    package func optionalAddress(_ flag: String, _ commandLine: String?) throws(ConfigError) -> ServiceAddress? {
        try optional(flag, commandLine, expected: "host:port", parse: ServiceAddress.init(parsing:))
    }

    /// A timeout in seconds (`300`, `0.5`); `0` is none (nil), so it parses to `Duration??`.
    package static func timeout(_ raw: String) -> Duration?? {
        guard let seconds = Double(raw), seconds.isFinite, seconds >= 0, seconds <= 1e9 else { return nil }
        return .some(seconds == 0 ? nil : .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }

    /// A TCP port, 0...65535.
    static func port(_ raw: String) -> Int? {
        guard let port = Int(raw), (0...65535).contains(port) else { return nil }
        return port
    }
}

extension ConfigSource {
    /// `--device`: the screen model of the spec's table (default the 393×852-pt iPhone;
    /// `iPad1024x1366` for systemExtraLarge). glimpse-timeline and glimpse-gateway must be
    /// given the same one.
    package func device(_ commandLine: String?) throws(ConfigError) -> DeviceScreen {
        try value(
            "device", commandLine, expected: DeviceScreen.allCases.map(\.rawValue).joined(separator: ", "),
            default: DeviceScreen.default, parse: DeviceScreen.init(rawValue:))
    }
}

extension ConfigSource {
    /// `--device-key FILE` (or `GLIMPSE_DEVICE_KEY`): the key in that file, nil when neither
    /// is given. A file that cannot be read or holds no key stops the service at once.
    package func deviceKey(_ commandLine: String?) throws(ConfigError) -> DeviceKey? {
        guard let (path, origin) = raw("device-key", commandLine) else { return nil }
        switch DeviceKey.load(path: path) {
        case .success(let key):
            return key
        case .failure(.unreadable):
            throw ConfigError("--device-key: cannot read \(path) (\(origin))")
        case .failure(.malformed):
            throw ConfigError(
                "--device-key: \(path) holds no device key (\(origin)): 16 to 1,024 visible ASCII characters without spaces, "
                    + "e.g. made by `glimpse device-key \(path)`")
        }
    }
}
