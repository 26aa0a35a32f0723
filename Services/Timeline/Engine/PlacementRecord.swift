import GlimpseVocabulary
/// The scheduler's hot state for one placement: plain data only (no references), so
/// reading or copying it never touches a reference count. The parts that own memory —
/// timeline, configuration, budget log — live in side arrays indexed by the same slot.
///
/// Reload state: at most one provider call is in flight (`isFetching`). Requests made
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
    /// `live`, `inFlightCharged` and `isFetching`, one bit each: with two Bools and the
    /// dispatch time of the call in flight the record took 128 bytes, with one byte 112
    /// (a million placements, 16 MB).
    var flags: UInt8 = Flag.live

    enum Flag {
        static let live: UInt8 = 1
        static let inFlightCharged: UInt8 = 2
        static let fetching: UInt8 = 4
    }

    /// Whether the call in flight (and so its retries) was charged.
    var inFlightCharged: Bool {
        get { flags & Flag.inFlightCharged != 0 }
        set { flags = newValue ? flags | Flag.inFlightCharged : flags & ~Flag.inFlightCharged }
    }

    var live: Bool {
        get { flags & Flag.live != 0 }
        set { flags = newValue ? flags | Flag.live : flags & ~Flag.live }
    }

    /// A provider call is in flight (dispatched at `lastReloadAt`, or at a retry).
    var isFetching: Bool {
        get { flags & Flag.fetching != 0 }
        set { flags = newValue ? flags | Flag.fetching : flags & ~Flag.fetching }
    }
}

/// Saved with the two flags as the two Bools they were, under the same keys, and the call
/// in flight as the dispatch time it was (NaN: none; only whether it is NaN was ever read,
/// so it is saved as `lastReloadAt`): a snapshot written before they were packed reads
/// back, and one written now reads in that build.
extension PlacementRecord {
    enum CodingKeys: String, CodingKey {
        case id, lastReloadAt, policyDueAt, requestedAt, freeRequestedAt, retryAt, inFlightSince, nextEntryAt
        case budgetAllowsAt, wakeAt, inFlightWantedAt, kind, app, memberPosition, fetchSequence, generation
        case shownIndex, failures, family, screen, pendingReason, requestedReason, inFlightReason
        case inFlightCharged, live
    }

    /// Reads the fields in the order they are written (the snapshot decoder reads in order).
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(PlacementID.self, forKey: .id)
        let times = try [
            CodingKeys.lastReloadAt, .policyDueAt, .requestedAt, .freeRequestedAt, .retryAt, .inFlightSince,
            .nextEntryAt, .budgetAllowsAt, .wakeAt, .inFlightWantedAt,
        ].map { try c.decode(Seconds.self, forKey: $0) }
        let kind = try c.decode(UInt32.self, forKey: .kind)
        let app = try c.decode(UInt32.self, forKey: .app)
        let memberPosition = try c.decode(UInt32.self, forKey: .memberPosition)
        let fetchSequence = try c.decode(UInt32.self, forKey: .fetchSequence)
        let generation = try c.decode(UInt32.self, forKey: .generation)
        let shownIndex = try c.decode(Int32.self, forKey: .shownIndex)
        let failures = try c.decode(UInt16.self, forKey: .failures)
        let family = try c.decode(WidgetFamily.self, forKey: .family)
        let screen = try c.decode(WidgetScreen.self, forKey: .screen)
        self.init(id: id, kind: kind, app: app, memberPosition: memberPosition, family: family, screen: screen)
        (lastReloadAt, policyDueAt, requestedAt, freeRequestedAt, retryAt) = (
            times[0], times[1], times[2], times[3], times[4]
        )
        isFetching = !times[5].isNaN
        (nextEntryAt, budgetAllowsAt, wakeAt, inFlightWantedAt) = (times[6], times[7], times[8], times[9])
        self.fetchSequence = fetchSequence
        self.generation = generation
        self.shownIndex = shownIndex
        self.failures = failures
        pendingReason = try c.decode(ReloadReason.self, forKey: .pendingReason)
        requestedReason = try c.decode(ReloadReason.self, forKey: .requestedReason)
        inFlightReason = try c.decode(ReloadReason.self, forKey: .inFlightReason)
        inFlightCharged = try c.decode(Bool.self, forKey: .inFlightCharged)
        live = try c.decode(Bool.self, forKey: .live)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(lastReloadAt, forKey: .lastReloadAt)
        try c.encode(policyDueAt, forKey: .policyDueAt)
        try c.encode(requestedAt, forKey: .requestedAt)
        try c.encode(freeRequestedAt, forKey: .freeRequestedAt)
        try c.encode(retryAt, forKey: .retryAt)
        try c.encode(isFetching ? lastReloadAt : .nan, forKey: .inFlightSince)
        try c.encode(nextEntryAt, forKey: .nextEntryAt)
        try c.encode(budgetAllowsAt, forKey: .budgetAllowsAt)
        try c.encode(wakeAt, forKey: .wakeAt)
        try c.encode(inFlightWantedAt, forKey: .inFlightWantedAt)
        try c.encode(kind, forKey: .kind)
        try c.encode(app, forKey: .app)
        try c.encode(memberPosition, forKey: .memberPosition)
        try c.encode(fetchSequence, forKey: .fetchSequence)
        try c.encode(generation, forKey: .generation)
        try c.encode(shownIndex, forKey: .shownIndex)
        try c.encode(failures, forKey: .failures)
        try c.encode(family, forKey: .family)
        try c.encode(screen, forKey: .screen)
        try c.encode(pendingReason, forKey: .pendingReason)
        try c.encode(requestedReason, forKey: .requestedReason)
        try c.encode(inFlightReason, forKey: .inFlightReason)
        try c.encode(inFlightCharged, forKey: .inFlightCharged)
        try c.encode(live, forKey: .live)
    }
}
