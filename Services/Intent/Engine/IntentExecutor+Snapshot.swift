package import GlimpseVocabulary

/// The executor's state for a snapshot: every stored property but the clock and the
/// settings, which a restored executor takes from the run that restores it.
extension IntentExecutor: SnapshotFields {
    package enum FieldKey: String, CodingKey, CaseIterable {
        case store, deviceLocked, apps, placements, ledger, waiting, busy, calls, deadlines, callCounter, announcedWake
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visitNested(.store, &store)
        try fields.visit(.deviceLocked, &deviceLocked)
        try fields.visit(.apps, &apps)
        try fields.visit(.placements, &placements)
        try fields.visit(.ledger, &ledger)
        try fields.visit(.waiting, &waiting)
        try fields.visit(.busy, &busy)
        try fields.visit(.calls, &calls)
        try fields.visit(.deadlines, &deadlines)
        try fields.visit(.callCounter, &callCounter)
        try fields.visit(.announcedWake, &announcedWake)
    }
}

/// The store's groups; its change log limit comes from the settings of the run.
extension AppGroupStore: SnapshotFields {
    package enum FieldKey: String, CodingKey, CaseIterable {
        case groups
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visit(.groups, &groups)
    }
}
