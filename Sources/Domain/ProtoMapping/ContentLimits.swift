package import GlimpseMessages

/// The limits on what an app's content may be: one set, checked once where the content
/// enters (a provider's timeline at glimpse-timeline, an activity's views at the gateway,
/// `glimpse verify`), with room left for every wrapper the device puts around it, so that
/// no answer about the device fails because of one app's content.
///
/// Headroom, by construction: protobuf nests at most 100 messages (`ProtoLimits.maxDepth`);
/// a view level is at most two message levels (a view and its stack, label or button) plus
/// a few below the deepest view (a modifier's style), and the deepest wrapper (the
/// Home Screen in `Device.Show`, the event log, a drawn layout) adds under 15. Answers stay
/// under stock gRPC clients' 4 MiB receive limit: one entry is at most `entryBytes`, and an
/// answer that lists many (the screen, a timeline, the event log) leaves content out past
/// `answerBytes` and says so.
package enum ContentLimits {
    /// View levels on the deepest path of one view tree: each view counts one, and each
    /// background, container background, clip shape or mask on it one more (each may be drawn as
    /// a layer of its own).
    package static let viewLevels = 32
    /// Bytes of one entry's view tree (serialized) and its widgetURL.
    package static let entryBytes = 256 * 1024
    /// Bytes of a Live Activity's views (every presentation together), serialized.
    package static let activityViewsBytes = 256 * 1024
    /// Bytes one answer of the device may take: stock gRPC clients receive 4 MiB by default;
    /// 64 KiB is left for the envelope.
    package static let answerBytes = 4 * 1024 * 1024 - 64 * 1024
    /// What a provider's Timeline call may answer (and glimpse-timeline and the gateway take
    /// from each other): the 10 MiB timeline cap plus its envelope.
    package static let timelineMessageBytes = 11 * 1024 * 1024

    /// The view levels of `view` (see `viewLevels`).
    package static func levels(of view: GlimpseWidgetV1.View) -> Int {
        let layers = view.modifiers.count { modifier in
            switch modifier.kind {
            case .background?, .containerBackground?, .clipShape?, .mask?: true
            default: false
            }
        }
        return 1 + layers + (view.nestedViews.map(levels(of:)).max() ?? 0)
    }

    /// Why `view` (serialized as `bytes`, plus a URL of `urlBytes`) cannot be shown, as a
    /// sentence; nil when it fits.
    package static func violation(of view: GlimpseWidgetV1.View, bytes: Int, limit: Int = entryBytes) -> String? {
        if bytes > limit {
            return "the view tree takes \(bytes) bytes; the limit is \(limit) (\(limit / 1024) KiB)"
        }
        let levels = levels(of: view)
        if levels > viewLevels {
            return "the view tree nests \(levels) levels; the limit is \(viewLevels)"
        }
        return nil
    }

    /// Why a Live Activity's views (every presentation) cannot be shown, as a sentence; nil
    /// when they fit.
    package static func violation(of views: GlimpseWidgetV1.ActivityViews) -> String? {
        let bytes = (try? views.serializedBytes().count) ?? Int.max
        if bytes > activityViewsBytes {
            return
                "the views take \(bytes) bytes; the limit is \(activityViewsBytes) (\(activityViewsBytes / 1024) KiB)"
        }
        let levels = views.trees.map(levels(of:)).max() ?? 0
        if levels > viewLevels {
            return "a view tree nests \(levels) levels; the limit is \(viewLevels)"
        }
        return nil
    }
}

extension GlimpseWidgetV1.ActivityViews {
    /// Every view tree of every presentation: the Lock Screen, then the Dynamic Island's.
    package var trees: [GlimpseWidgetV1.View] {
        var trees = [lockScreen].compactMap { $0 }
        if let island = dynamicIsland {
            trees += [island.compactLeading, island.compactTrailing, island.minimal].compactMap { $0 }
            trees += [island.expandedLeading, island.expandedTrailing, island.expandedCenter, island.expandedBottom]
                .compactMap { $0?.view }
        }
        return trees
    }
}
