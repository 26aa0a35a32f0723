import GlimpseVocabulary
/// The scheduler's hot state for one placement: plain data only (no references), so
/// reading or copying it never touches a reference count. The parts that own memory —
/// timeline, configuration, budget log — live in side arrays indexed by the same slot.
///
/// Reload state: at most one provider call is in flight (`inFlightSince`). Requests made
/// before dispatch merge into `requestedAt`/`freeRequestedAt`; requests made while a call
/// is in flight wait for it and then cause one more call. After a failure `retryAt` holds
/// the retry of the same (already charged) reload.
struct PlacementRecord: Codable {
    var id: PlacementID

    /// Last dispatch of a reload that was not a retry; `-infinity` before the first.
    var lastReloadAt: Seconds = -.infinity
    /// When the current timeline's policy wants the next one (`.infinity`: never).
    var policyDueAt: Seconds = .infinity
    /// Earliest explicit (charged unless the app is active) request not yet dispatched.
    var requestedAt: Seconds = .infinity
    /// Earliest free request not yet dispatched.
    var freeRequestedAt: Seconds = .infinity
    /// Retry of a failed call (`.infinity`: none).
    var retryAt: Seconds = .infinity
    /// Dispatch time of the call in flight (`.nan`: none).
    var inFlightSince: Seconds = .nan
    /// Date of the entry after the one shown (`.infinity`: none).
    var nextEntryAt: Seconds = .infinity
    /// Earliest time the budget allows another charged reload (cached from the budget log
    /// at each charge; only charges change it).
    var budgetAllowsAt: Seconds = -.infinity
    /// The time of this placement's live wake-up item in the queue (`.infinity`: none).
    var wakeAt: Seconds = .infinity
    var inFlightWantedAt: Seconds = 0

    var kind: UInt32
    var app: UInt32
    /// Position in its kind's member list.
    var memberPosition: UInt32
    /// Sequence of the call in flight; with the slot it makes the `FetchID`.
    var fetchSequence: UInt32 = 0
    /// Bumped whenever the wake-up changes; queue items with an older generation are stale.
    var generation: UInt32 = 0
    /// Index of the entry last reported shown; -1 is the placeholder.
    var shownIndex: Int32 = -1
    /// Consecutive failed calls of the current reload.
    var failures: UInt16 = 0
    var family: WidgetFamily
    var screen: WidgetScreen
    /// Reason of the pending free request with the highest precedence.
    var pendingReason: ReloadReason = .policy
    /// Reason of the earliest pending charged request.
    var requestedReason: ReloadReason = .appRequest
    var inFlightReason: ReloadReason = .policy
    /// Whether the call in flight (and so its retries) was charged.
    var inFlightCharged = false
    var live = true

    var isFetching: Bool { !inFlightSince.isNaN }
}
