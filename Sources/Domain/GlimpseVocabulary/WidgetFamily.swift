/// The sizes a widget comes in, named as WidgetKit names them (spec §2).
///
/// The wire enum lives in the generated messages module; services map between the two.
package enum WidgetFamily: String, CaseIterable, Sendable, Hashable, Codable {
    case systemSmall
    case systemMedium
    case systemLarge
    /// iPad only: the spec's size table gives it for the 1024×1366 iPad and says
    /// "`systemExtraLarge` not on iPhone".
    case systemExtraLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline

    /// Accessory families live on the Lock Screen; system families on the Home Screen.
    package var isAccessory: Bool {
        switch self {
        case .accessoryCircular, .accessoryRectangular, .accessoryInline: true
        case .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge: false
        }
    }

    /// Buttons and toggles work here (spec §3: "system S/M/L/XL, accessoryCircular/
    /// Rectangular"); `accessoryInline` has one tap target that only opens the app.
    package var isInteractive: Bool { self != .accessoryInline }

    /// Position in `allCases`, for tables indexed by family.
    package var position: Int {
        switch self {
        case .systemSmall: 0
        case .systemMedium: 1
        case .systemLarge: 2
        case .systemExtraLarge: 3
        case .accessoryCircular: 4
        case .accessoryRectangular: 5
        case .accessoryInline: 6
        }
    }

    /// The screen a widget of this family is placed on.
    package var screen: WidgetScreen { isAccessory ? .lockScreen : .homeScreen }
}

/// Where a placement sits on the device.
package enum WidgetScreen: String, Sendable, Hashable, Codable {
    case homeScreen
    case lockScreen
}
