public import Foundation
package import GlimpseMessages

/// What a view reads with `@Environment(\.…)`: the entry's family, its size, the color
/// scheme, whether it is a gallery preview. Set for the length of one drawing.
public struct EnvironmentValues: Sendable {
    public var widgetFamily: WidgetFamily = .systemSmall
    public var displaySize: CGSize = .zero
    public var colorScheme: ColorScheme = .light
    public var widgetRenderingMode: WidgetRenderingMode = .fullColor
    public var isLuminanceReduced = false
    public var showsWidgetContainerBackground = true
    /// The device's clock when the entry is drawn.
    public var date = Date(timeIntervalSince1970: 0)

    public init() {}

    @TaskLocal static var current = EnvironmentValues()
}

/// `@Environment(\.widgetFamily) var family`.
@propertyWrapper
public struct Environment<Value>: @unchecked Sendable {  // a key path is immutable
    let keyPath: KeyPath<EnvironmentValues, Value>

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }

    public var wrappedValue: Value { EnvironmentValues.current[keyPath: keyPath] }
}

public enum ColorScheme: Sendable, Hashable { case light, dark }

public enum WidgetRenderingMode: Sendable, Hashable { case fullColor, accented, vibrant }

/// The widget families, as WidgetKit names them.
public enum WidgetFamily: String, Sendable, Hashable, CaseIterable, Codable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge
    case accessoryCircular, accessoryRectangular, accessoryInline

    package init?(_ wire: GlimpseWidgetV1.WidgetFamily) {
        switch wire {
        case .systemSmall: self = .systemSmall
        case .systemMedium: self = .systemMedium
        case .systemLarge: self = .systemLarge
        case .systemExtraLarge: self = .systemExtraLarge
        case .accessoryCircular: self = .accessoryCircular
        case .accessoryRectangular: self = .accessoryRectangular
        case .accessoryInline: self = .accessoryInline
        case .unspecified, .unrecognized: return nil
        }
    }

    var wire: GlimpseWidgetV1.WidgetFamily {
        switch self {
        case .systemSmall: .systemSmall
        case .systemMedium: .systemMedium
        case .systemLarge: .systemLarge
        case .systemExtraLarge: .systemExtraLarge
        case .accessoryCircular: .accessoryCircular
        case .accessoryRectangular: .accessoryRectangular
        case .accessoryInline: .accessoryInline
        }
    }

    /// The manifest's spelling (`WIDGET_FAMILY_SYSTEM_SMALL`).
    var manifestName: String {
        "WIDGET_FAMILY_"
            + rawValue.reduce(into: "") { name, character in
                if character.isUppercase { name += "_" }
                name += character.uppercased()
            }
    }
}

extension EnvironmentValues {
    /// The environment a provider's request describes.
    init(_ context: GlimpseAppV1.TimelineProviderContext, now: Date) {
        self.init()
        widgetFamily = WidgetFamily(context.family) ?? .systemSmall
        displaySize = CGSize(width: context.displaySize?.width ?? 0, height: context.displaySize?.height ?? 0)
        colorScheme = context.colorScheme == .dark ? .dark : .light
        widgetRenderingMode =
            switch context.renderingMode {
            case .accented: .accented
            case .vibrant: .vibrant
            default: .fullColor
            }
        date = now
    }
}

/// What one drawing gathers beside the tree: `.widgetURL(_:)` (one per hierarchy).
final class DrawingNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var url: String?
    private var below = false

    var widgetURL: String? { lock.withLock { url } }
    func setWidgetURL(_ value: String) { lock.withLock { url = value } }
    /// `.dynamicIsland(verticalPlacement: .belowIfTooWide)` inside an expanded region.
    var belowIfTooWide: Bool { lock.withLock { below } }
    func setBelowIfTooWide() { lock.withLock { below = true } }

    @TaskLocal static var current: DrawingNotes?

    /// Draws `content` in `environment`, with its notes.
    static func draw(
        _ environment: EnvironmentValues, _ content: () -> WireView
    ) -> (view: WireView, widgetURL: String?) {
        let notes = DrawingNotes()
        let view = EnvironmentValues.$current.withValue(environment) {
            DrawingNotes.$current.withValue(notes) { content() }
        }
        return (view, notes.widgetURL)
    }
}
