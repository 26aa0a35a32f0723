package import GlimpseVocabulary
/// Installing apps' kinds, and making, editing and removing placements.
extension TimelineScheduler {
    /// Registers an app's widget kinds (install). Refused if the app is installed already
    /// or a kind is declared twice. A kind that lists no family supports all of them, as
    /// WidgetKit's `supportedFamilies` defaults to every family.
    package mutating func install(app: AppID, kinds declared: [WidgetKind]) throws(PlacementError) {
        if let index = appIndex[app], apps[Int(index)].installed { throw .appAlreadyInstalled(app) }
        var seen = Set<String>()
        for kind in declared {
            guard seen.insert(kind.kind).inserted else { throw .duplicateKind(app: app, kind: kind.kind) }
        }
        let index: UInt32
        if let existing = appIndex[app] {
            index = existing
            apps[Int(index)] = AppState(id: app)
            appActive[Int(index)] = false
        } else {
            index = UInt32(apps.count)
            apps.append(AppState(id: app))
            appActive.append(false)
            appIndex[app] = index
        }
        for var kind in declared {
            if kind.supportedFamilies.isEmpty { kind.supportedFamilies = Set(WidgetFamily.allCases) }
            let record = KindRecord(app: index, widget: kind)
            let kindSlot: UInt32
            if let reused = freeKindSlots.popLast() {
                kindSlot = reused
                kinds[Int(kindSlot)] = record
            } else {
                kindSlot = UInt32(kinds.count)
                kinds.append(record)
            }
            kindIndex[KindKey(app: app, kind: kind.kind)] = kindSlot
            apps[Int(index)].kinds.append(kindSlot)
        }
    }

    /// Uninstalls an app: its placements go, their calls are cancelled.
    package mutating func uninstall(app: AppID) -> [TimelineEffect] {
        guard let index = appIndex[app], apps[Int(index)].installed else { return [] }
        var effects: [TimelineEffect] = []
        for kind in apps[Int(index)].kinds {
            for slot in kinds[Int(kind)].members { removeSlot(slot, effects: &effects) }
            kindIndex[KindKey(app: app, kind: kinds[Int(kind)].widget.kind)] = nil
            kinds[Int(kind)].members = []
            freeKindSlots.append(kind)
        }
        apps[Int(index)].kinds = []
        apps[Int(index)].installed = false
        appActive[Int(index)] = false
        finish(&effects)
        return effects
    }

    /// Places a widget. The placeholder shows at once and a free provider call is scheduled.
    /// Refused when the kind is unknown, the family unsupported by the kind, off its screen
    /// or absent from the device screen, or the configuration does not fit the kind.
    package mutating func place(_ placement: Placement) throws(PlacementError) -> [TimelineEffect] {
        guard slotOf[placement.id] == nil else { throw .duplicatePlacement(placement.id) }
        let kindSlot = try kindSlot(app: placement.app, kind: placement.kind)
        let widget = kinds[Int(kindSlot)].widget
        try check(family: placement.family, screen: placement.screen, of: widget)
        let configuration = try validated(placement.configuration, for: widget)

        let slot: UInt32
        var generation: UInt32 = 0
        if let reused = freeSlots.popLast() {
            slot = reused
            generation = records[Int(slot)].generation &+ 1
        } else {
            slot = UInt32(records.count)
        }
        var record = PlacementRecord(
            id: placement.id, kind: kindSlot, app: kinds[Int(kindSlot)].app,
            memberPosition: UInt32(kinds[Int(kindSlot)].members.count),
            family: placement.family, screen: placement.screen)
        record.generation = generation
        if settings.dailyReloadBudget <= 0 { record.budgetAllowsAt = .infinity }
        let t = now
        record.request(.placed, free: true, at: t + settings.reloadDispatchDelay)
        if Int(slot) == records.count {
            records.append(record)
            timelines.append(nil)
            budgets.append(ReloadBudget())
        } else {
            records[Int(slot)] = record
        }
        configurations[slot] = configuration.isEmpty ? nil : configuration
        kinds[Int(kindSlot)].members.append(slot)
        slotOf[placement.id] = slot

        var effects: [TimelineEffect] = [
            .entryChanged(placement.id, nil),
            .fetchPlaceholder(
                PlaceholderRequest(
                    placement: placement.id, app: placement.app, kind: placement.kind, context: context(of: slot))),
        ]
        reschedule(slot, rules: rules)
        finish(&effects)
        return effects
    }

    /// The user edited a configurable widget: new values, and a free reload.
    package mutating func reconfigure(
        _ id: PlacementID, configuration: [String: ConfigurationValue]
    ) throws(PlacementError) -> [TimelineEffect] {
        guard let slot = slotOf[id] else { throw .unknownPlacement(id) }
        let widget = kinds[Int(records[Int(slot)].kind)].widget
        let validated = try validated(configuration, for: widget)
        configurations[slot] = validated.isEmpty ? nil : validated
        return try reload(id, reason: .placed)
    }

    /// Removes a placement; a call in flight is cancelled.
    package mutating func remove(_ id: PlacementID) throws(PlacementError) -> [TimelineEffect] {
        guard let slot = slotOf[id] else { throw .unknownPlacement(id) }
        var effects: [TimelineEffect] = []
        removeSlot(slot, effects: &effects)
        finish(&effects)
        return effects
    }

    /// The context for a widget-gallery preview (`isPreview`); no placement, no budget.
    package func previewContext(
        app: AppID, kind: String, family: WidgetFamily, configuration: [String: ConfigurationValue] = [:]
    ) throws(PlacementError) -> TimelineContext {
        let widget = kinds[Int(try kindSlot(app: app, kind: kind))].widget
        try check(family: family, screen: family.screen, of: widget)
        return TimelineContext(
            family: family, displaySize: settings.deviceScreen.displaySize(of: family)!,
            isPreview: true, configuration: try validated(configuration, for: widget))
    }

    // MARK: Helpers

    func kindSlot(app: AppID, kind: String) throws(PlacementError) -> UInt32 {
        guard let appSlot = appIndex[app], apps[Int(appSlot)].installed else { throw .unknownApp(app) }
        guard let slot = kindIndex[KindKey(app: app, kind: kind)] else { throw .unknownKind(app: app, kind: kind) }
        return slot
    }

    func check(family: WidgetFamily, screen: WidgetScreen, of widget: WidgetKind) throws(PlacementError) {
        guard widget.supportedFamilies.contains(family) else {
            throw .unsupportedFamily(kind: widget.kind, family: family, supported: widget.supportedFamilies)
        }
        guard family.screen == screen else { throw .familyNotOnScreen(family: family, screen: screen) }
        guard settings.deviceScreen.displaySize(of: family) != nil else {
            throw .familyNotOnDevice(family: family, device: settings.deviceScreen)
        }
    }

    /// Unknown names and wrong types are refused; unset parameters take their defaults.
    func validated(
        _ values: [String: ConfigurationValue], for widget: WidgetKind
    ) throws(PlacementError) -> [String: ConfigurationValue] {
        var result: [String: ConfigurationValue] = [:]
        for (name, value) in values {
            guard let parameter = widget.parameters.first(where: { $0.name == name }) else {
                throw .unknownParameter(kind: widget.kind, name: name)
            }
            guard parameter.type == value.type else {
                throw .parameterTypeMismatch(name: name, expected: parameter.type, got: value.type)
            }
            result[name] = value
        }
        for parameter in widget.parameters where result[parameter.name] == nil {
            result[parameter.name] = parameter.defaultValue
        }
        return result
    }

    mutating func removeSlot(_ slot: UInt32, effects: inout [TimelineEffect]) {
        let i = Int(slot)
        let record = records[i]
        if record.isFetching { effects.append(.cancelFetch(FetchID(slot: slot, sequence: record.fetchSequence))) }
        // Swap-remove from the kind's member list, fixing the moved member's position.
        let kind = Int(record.kind)
        let position = Int(record.memberPosition)
        let last = kinds[kind].members.removeLast()
        if last != slot {
            kinds[kind].members[position] = last
            records[Int(last)].memberPosition = UInt32(position)
        }
        slotOf[record.id] = nil
        placeholders[record.id] = nil
        var dead = PlacementRecord(
            id: record.id, kind: record.kind, app: record.app, memberPosition: 0,
            family: record.family, screen: record.screen)
        dead.generation = record.generation &+ 1  // invalidates its queued wake-up
        dead.live = false
        records[i] = dead
        timelines[i] = nil
        configurations[slot] = nil
        budgets[i] = ReloadBudget()
        freeSlots.append(slot)
    }
}
