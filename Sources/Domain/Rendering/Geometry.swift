internal import GlimpseMessages

/// A size in points.
struct Size: Equatable {
    var width: Double
    var height: Double
    static let zero = Size(width: 0, height: 0)

    subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }
}

enum Axis: Equatable {
    case horizontal, vertical
    var other: Axis { self == .horizontal ? .vertical : .horizontal }
}

/// SwiftUI's ProposedViewSize: nil is "your ideal size", `.infinity` is "as large as you like".
struct Proposal: Hashable {
    var width: Double?
    var height: Double?

    static let unspecified = Proposal(width: nil, height: nil)
    static let zero = Proposal(width: 0, height: 0)
    static let infinity = Proposal(width: .infinity, height: .infinity)

    init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    init(_ size: Size) {
        self.init(width: size.width, height: size.height)
    }

    subscript(axis: Axis) -> Double? {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    /// The proposal with nil replaced (for views that fill what they are offered).
    func replacingUnspecified(with size: Size) -> Size {
        Size(width: width ?? size.width, height: height ?? size.height)
    }
}

/// A rectangle in the canvas's points.
struct Rect: Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    /// The same rectangle up to layout arithmetic's rounding.
    func isNear(_ other: Rect) -> Bool {
        abs(x - other.x) < 0.001 && abs(y - other.y) < 0.001 && abs(width - other.width) < 0.001
            && abs(height - other.height) < 0.001
    }

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(origin: (Double, Double), size: Size) {
        self.init(x: origin.0, y: origin.1, width: size.width, height: size.height)
    }

    var size: Size { Size(width: width, height: height) }
    var maxX: Double { x + width }
    var maxY: Double { y + height }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }

    func inset(top: Double, leading: Double, bottom: Double, trailing: Double) -> Rect {
        Rect(
            x: x + leading, y: y + top,
            width: max(0, width - leading - trailing), height: max(0, height - top - bottom))
    }

    /// `size` placed inside this rectangle at `alignment`.
    func place(_ size: Size, _ alignment: Alignment2D) -> Rect {
        let dx: Double
        switch alignment.horizontal {
        case .leading: dx = 0
        case .center: dx = (width - size.width) / 2
        case .trailing: dx = width - size.width
        }
        let dy: Double
        switch alignment.vertical {
        case .top: dy = 0
        case .center: dy = (height - size.height) / 2
        case .bottom: dy = height - size.height
        }
        return Rect(x: x + dx, y: y + dy, width: size.width, height: size.height)
    }

    var message: GlimpseWidgetV1.Rect {
        GlimpseWidgetV1.Rect(x: x, y: y, width: width, height: height)
    }

    init(_ message: GlimpseWidgetV1.Rect?) {
        let m = message ?? .init()
        self.init(x: m.x, y: m.y, width: m.width, height: m.height)
    }
}

enum HAlign: Equatable { case leading, center, trailing }
enum VAlign: Equatable { case top, center, bottom }

struct Alignment2D: Equatable {
    var horizontal: HAlign
    var vertical: VAlign
    static let center = Alignment2D(horizontal: .center, vertical: .center)
    static let topLeading = Alignment2D(horizontal: .leading, vertical: .top)

    init(horizontal: HAlign, vertical: VAlign) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The wire's alignment (absent: center); baselines are approximated by the top edge.
    init(_ alignment: GlimpseWidgetV1.Alignment?) {
        guard let alignment else {
            self = .center
            return
        }
        switch alignment.horizontal {
        case .leading: horizontal = .leading
        case .trailing: horizontal = .trailing
        default: horizontal = .center
        }
        switch alignment.vertical {
        case .top, .firstTextBaseline: vertical = .top
        case .bottom, .lastTextBaseline: vertical = .bottom
        default: vertical = .center
        }
    }
}
