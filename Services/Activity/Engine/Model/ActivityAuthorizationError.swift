import GlimpseJSON
import GlimpseVocabulary
/// ActivityKit's `ActivityAuthorizationError` (S14), the reasons a request is refused.
///
/// The engine raises: `denied`, `unsupported`, `unsupportedTarget`, `visibility`,
/// `attributesTooLarge`, `targetMaximumExceeded`, `globalMaximumExceeded`. The other
/// cases exist so the service can carry every ActivityKit error on the wire.
package enum ActivityAuthorizationError: String, Error, Sendable, Hashable, CaseIterable {
    /// Content state (and, if so configured, attributes) over the size limit.
    case attributesTooLarge
    /// The device does not support Live Activities.
    case unsupported
    /// The user turned Live Activities off (for the device or for this app).
    case denied
    /// Too many ongoing activities on the device.
    case globalMaximumExceeded
    /// Too many ongoing activities for this app.
    case targetMaximumExceeded
    /// The app is not installed with Live Activity support or lacks this attributes type.
    case unsupportedTarget
    /// Requested while the app was not in the foreground (push-to-start and
    /// `LiveActivityIntent` excepted).
    case visibility
    case persistenceFailure
    case missingProcessIdentifier
    case unentitled
    case malformedActivityIdentifier
    case reconnectNotPermitted
}
