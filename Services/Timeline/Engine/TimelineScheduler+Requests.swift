package import GlimpseVocabulary
/// Reload requests from the app (`WidgetCenter`), from intents and from the system, and
/// the device states that change what a reload costs.
extension TimelineScheduler {
    /// A change to a system setting after which the system reloads every widget itself,
    /// without charging the budget (spec §1, "Not counted").
    package enum SystemChange: Sendable, Hashable {
        case locale
        case accessibility
    }

    /// `WidgetCenter.reloadTimelines(ofKind:)`: every placement of the app's kind. A
    /// request, not a guarantee: charged (unless the app is active), so it may be deferred.
    /// An unknown kind is ignored, as WidgetKit does. `reason` is `.intentPerformed` when an
    /// intent's `perform()` asked (then it reloads as the tap's own reload does).
    package mutating func reloadTimelines(
        ofKind kind: String, app: AppID, reason: ReloadReason = .appRequest
    ) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        if let kindSlot = kindIndex[KindKey(app: app, kind: kind)] {
            requestAll(in: kinds[Int(kindSlot)].members, reason: reason)
        }
        finish(&effects)
        return effects
    }

    /// `WidgetCenter.reloadAllTimelines()`: every placement of the app.
    package mutating func reloadAllTimelines(app: AppID, reason: ReloadReason = .appRequest) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        if let index = appIndex[app], apps[Int(index)].installed {
            for kind in apps[Int(index)].kinds { requestAll(in: kinds[Int(kind)].members, reason: reason) }
        }
        finish(&effects)
        return effects
    }

    /// Reloads one placement; by default the free reload that follows a performed intent.
    package mutating func reload(
        _ id: PlacementID, reason: ReloadReason = .intentPerformed
    ) throws(PlacementError) -> [TimelineEffect] {
        guard let slot = slotOf[id] else { throw .unknownPlacement(id) }
        var effects: [TimelineEffect] = []
        requestAll(in: [slot], reason: reason)
        finish(&effects)
        return effects
    }

    /// The app came to the foreground (or started an audio/navigation session), or left it.
    /// While active its reloads are free, so deferred ones go out at once.
    package mutating func setAppActive(_ app: AppID, _ active: Bool) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        if let index = appIndex[app], apps[Int(index)].installed, appActive[Int(index)] != active {
            appActive[Int(index)] = active
            let rules = rules
            for kind in apps[Int(index)].kinds {
                for slot in kinds[Int(kind)].members { reschedule(slot, rules: rules) }
            }
        }
        finish(&effects)
        return effects
    }

    /// Locale or accessibility changed: the system reloads every widget, free.
    package mutating func systemChanged(_ change: SystemChange) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        let reason: ReloadReason = change == .locale ? .localeChanged : .accessibilityChanged
        requestAll(in: liveSlots, reason: reason)
        finish(&effects)
        return effects
    }

    /// Low Power Mode on or off: automatic reload intervals and the spacing stretch by
    /// `lowPowerStretchFactor` while it is on.
    package mutating func setLowPowerMode(_ on: Bool) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        if on != lowPowerMode {
            lowPowerMode = on
            let rules = rules
            for slot in liveSlots { reschedule(slot, rules: rules) }
        }
        finish(&effects)
        return effects
    }

    /// Every live placement's slot, in slot order. Not `slotOf.values`: a dictionary's order
    /// follows its hash seed, which differs from process to process, and the order work is
    /// queued in decides which placement's call goes first and gets which fetch id; a
    /// replay or a restored snapshot in another process must queue it the same way.
    var liveSlots: [UInt32] {
        records.indices.filter { records[$0].live }.map { UInt32($0) }
    }

    mutating func requestAll(in slots: some Sequence<UInt32>, reason: ReloadReason) {
        let (t, rules) = (now, rules)
        let at = t + settings.reloadDispatchDelay
        let free = settings.isFree(reason)
        for slot in slots {
            records[Int(slot)].request(reason, free: free, at: at)
            reschedule(slot, rules: rules)
        }
    }
}
