package import GlimpseVocabulary

/// The manager's state for a snapshot: every stored property but the clock and the
/// settings (`config`), which a restored manager takes from the run that restores it, and
/// `pending`, which is empty between calls.
extension ActivityManager: SnapshotFields {
    package enum FieldKey: String, CodingKey, CaseIterable {
        case device, identifierSource, identifiers, apps, activities, removedApps, removedOrder, updateTokens
        case pushToStart, channels, storedBroadcasts, deferredPushes, ongoing, ongoingByApp, deadlines
        case compactionThreshold, nextStartOrder, dismissed
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visit(.device, &device)
        try Self.visit(&identifiers, &fields)
        try fields.visit(.apps, &apps)
        try fields.visit(.activities, &activities)
        try fields.visit(.removedApps, &removedApps)
        try fields.visit(.removedOrder, &removedOrder)
        try fields.visit(.updateTokens, &updateTokens)
        try fields.visit(.pushToStart, &pushToStart)
        try fields.visit(.channels, &channels)
        try fields.visit(.storedBroadcasts, &storedBroadcasts)
        try fields.visit(.deferredPushes, &deferredPushes)
        try fields.visit(.ongoing, &ongoing)
        try fields.visit(.ongoingByApp, &ongoingByApp)
        try fields.visit(.deadlines, &deadlines)
        try fields.visit(.compactionThreshold, &compactionThreshold)
        try fields.visit(.nextStartOrder, &nextStartOrder)
        try fields.visitAdded(.dismissed, &dismissed)
    }

    /// The identifier source, of the kind the start gave the manager: its counters go on
    /// where they were, so a restored manager hands out the ids the saved one would have.
    private static func visit(
        _ source: inout any IdentifierSource, _ fields: inout some SnapshotFieldVisitor<FieldKey>
    ) throws {
        let kind = String(reflecting: type(of: source))
        var saved = kind
        try fields.visit(.identifierSource, &saved)
        guard saved == kind else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [FieldKey.identifierSource],
                    debugDescription: "the snapshot's identifiers come from \(saved), this manager's from \(kind)"))
        }
        func visitOpened<S: IdentifierSource>(_ opened: S) throws -> S {
            var opened = opened
            try fields.visit(.identifiers, &opened)
            return opened
        }
        source = try visitOpened(source)
    }
}
