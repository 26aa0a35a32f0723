#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import GlimpseVocabulary

/// The intent engine's numbers. The spec gives none; each default here is ours.
public struct IntentSettings: Sendable, Hashable {
    /// How long a tap's result is kept for replays of its idempotency key.
    public var idempotencyWindow: TimeInterval
    /// An external handler not answering within this has failed.
    public var handlerTimeout: TimeInterval
    /// Changes each App Group keeps for `changes(since:)`; older readers must resync.
    public var changeLogLimit: Int

    public static var defaults: Self {
        Self(idempotencyWindow: 24 * 3600, handlerTimeout: 30, changeLogLimit: 1000)
    }

    public init(idempotencyWindow: TimeInterval, handlerTimeout: TimeInterval, changeLogLimit: Int) {
        self.idempotencyWindow = idempotencyWindow
        self.handlerTimeout = handlerTimeout
        self.changeLogLimit = changeLogLimit
    }
}
