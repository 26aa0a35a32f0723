package import GlimpseMessages

/// `UserDefaults(suiteName:)` as a widget extension reads it: the App Group's values.
/// Nil when the key has no value or the store cannot be reached yet (no token, gateway
/// down): the provider then shows its default state, as a phone's widget does when the
/// App Group entitlement is missing.
package protocol SharedDefaults: Sendable {
    func value(forKey key: String, inGroup group: String) async -> GlimpseWidgetV1.ParameterValue?
}

extension SharedDefaults {
    package func string(forKey key: String, inGroup group: String) async -> String? {
        guard case .stringValue(let string)? = await value(forKey: key, inGroup: group)?.kind else { return nil }
        return string
    }
}
