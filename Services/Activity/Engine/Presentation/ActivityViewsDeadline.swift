/// How long the device waits for an app's `ActivityConfiguration` to answer the views of a
/// content state before it draws the activity without them (and says which app did not
/// answer). The gateway calls with it; `glimpse verify` holds an app to it.
package enum ActivityViewsDeadline {
    package static let timeout: Duration = .seconds(2)

    /// The same, in seconds.
    package static var seconds: Double {
        let (whole, attoseconds) = timeout.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
