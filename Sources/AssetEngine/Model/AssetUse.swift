/// What an asset is for, which decides its image limit (spec §7).
public enum AssetUse: Sendable, Hashable {
    /// A widget image: its pixel area is capped (F10: 718,080).
    case widget
    /// A Live Activity image for one presentation: no larger than it (S12).
    case liveActivity(LiveActivityPresentation)
}

/// Live Activity presentations with distinct size limits (spec §6).
public enum LiveActivityPresentation: String, Sendable, Hashable, CaseIterable {
    case minimal, compact, expanded, lockScreen
}

/// The iPhone screen classes of the spec §6 table.
public enum ScreenClass: String, Sendable, Hashable, CaseIterable {
    /// 430×932 (Pro Max, Plus, Air).
    case width430
    /// 393×852 (Pro).
    case width393
}

/// A size in points.
public struct PointSize: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The largest pixel size at `scale`, to the nearest pixel (36.67 pt × 3 = 110 px).
    public func pixels(scale: Double) -> (width: Int, height: Int) {
        (Int((width * scale).rounded()), Int((height * scale).rounded()))
    }
}
