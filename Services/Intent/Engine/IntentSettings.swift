#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary

/// The intent engine's numbers. The spec gives none; each default here is ours.
package struct IntentSettings: Sendable, Hashable {
    /// How long a tap's result is kept for replays of its idempotency key.
    package var idempotencyWindow: TimeInterval
    /// An external handler not answering within this has failed.
    package var handlerTimeout: TimeInterval
    /// Changes each App Group keeps for `changes(since:)`; older readers must resync.
    package var changeLogLimit: Int

    package static var defaults: Self {
        Self(idempotencyWindow: 24 * 3600, handlerTimeout: 30, changeLogLimit: 1000)
    }

    package init(idempotencyWindow: TimeInterval, handlerTimeout: TimeInterval, changeLogLimit: Int) {
        self.idempotencyWindow = idempotencyWindow
        self.handlerTimeout = handlerTimeout
        self.changeLogLimit = changeLogLimit
    }
}
