/// Deadlines flow: the deadline of the server call a task is handling, so that a call the
/// handler makes to the next service goes out with what is left of it (`grpc-timeout`), the
/// caller's own limit (`CallOptions.timeout`) as a ceiling. Calls that are not part of the
/// caller's request (an app's provider, answered for the engine on its own clock) opt out
/// with `CallOptions.inheritsDeadline`.
public enum CallDeadline {
    /// Set by the router while a handler runs; nil outside a server call or without a deadline.
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// What is left of the current server call's deadline (never below 1 ms: a call made
    /// once it has passed fails at once with DEADLINE_EXCEEDED), or nil without one.
    public static var remaining: Duration? {
        current.map { max(.milliseconds(1), $0 - .now) }
    }
}

extension CallOptions {
    /// The timeout a call goes out with: its own, shortened to what is left of the server
    /// call it is made for.
    public var effectiveTimeout: Duration? {
        guard inheritsDeadline, let left = CallDeadline.remaining else { return timeout }
        guard let timeout else { return left }
        return min(timeout, left)
    }
}
