import GlimpseVocabulary
/// The settings as one reload decision reads them, with Low Power Mode applied.
struct ReloadRules {
    var window: Seconds
    var limit: Int
    var spacing: Seconds
    var minimumInterval: Seconds
    var timeout: Seconds
    /// 1 normally; `lowPowerStretchFactor` in Low Power Mode.
    var stretch: Double

    init(_ settings: TimelineSettings, lowPowerMode: Bool) {
        window = settings.budgetWindow
        limit = settings.dailyReloadBudget
        stretch = lowPowerMode ? max(1, settings.lowPowerStretchFactor) : 1
        spacing = settings.minimumReloadSpacing * stretch
        minimumInterval = settings.minimumReloadInterval
        timeout = settings.providerTimeout
    }

    /// An automatic reload due at `due`, measured from the last reload, stretched.
    func stretched(_ due: Seconds, since last: Seconds) -> Seconds {
        guard stretch != 1, due.isFinite, last.isFinite, due > last else { return due }
        return last + (due - last) * stretch
    }
}

/// When and how a placement's next provider call should happen.
struct ReloadPlan {
    enum Mode { case free, charged, retry }
    var time: Seconds
    var wantedAt: Seconds
    var mode: Mode
    var reason: ReloadReason
}
