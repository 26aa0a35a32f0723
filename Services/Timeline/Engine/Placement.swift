package import GlimpseVocabulary

/// One widget on the device: an app's kind, in one family, on one screen, with its
/// configuration values.
package struct Placement: Sendable, Hashable {
    package var id: PlacementID
    package var app: AppID
    package var kind: String
    package var family: WidgetFamily
    package var configuration: [String: ConfigurationValue]
    package var screen: WidgetScreen

    /// `screen` defaults to where the family lives (accessory → Lock Screen).
    package init(
        id: PlacementID, app: AppID, kind: String, family: WidgetFamily,
        configuration: [String: ConfigurationValue] = [:], screen: WidgetScreen? = nil
    ) {
        self.id = id
        self.app = app
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.screen = screen ?? family.screen
    }
}

/// Why a kind could not be installed or a placement could not be made.
package enum PlacementError: Error, Sendable, Hashable, CustomStringConvertible {
    case appAlreadyInstalled(AppID)
    case duplicateKind(app: AppID, kind: String)
    case unknownApp(AppID)
    case unknownKind(app: AppID, kind: String)
    case duplicatePlacement(PlacementID)
    case unknownPlacement(PlacementID)
    case unsupportedFamily(kind: String, family: WidgetFamily, supported: Set<WidgetFamily>)
    case familyNotOnScreen(family: WidgetFamily, screen: WidgetScreen)
    case familyNotOnDevice(family: WidgetFamily, device: DeviceScreen)
    case unknownParameter(kind: String, name: String)
    case parameterTypeMismatch(name: String, expected: ValueType, got: ValueType)

    package var description: String {
        switch self {
        case .appAlreadyInstalled(let app): "app \(app) is already installed"
        case .duplicateKind(let app, let kind): "app \(app) declares kind \(kind) twice"
        case .unknownApp(let app): "app \(app) is not installed"
        case .unknownKind(let app, let kind): "app \(app) has no widget kind \(kind)"
        case .duplicatePlacement(let id): "placement \(id) already exists"
        case .unknownPlacement(let id): "no placement \(id)"
        case .unsupportedFamily(let kind, let family, let supported):
            "kind \(kind) does not support \(family.rawValue); supported: \(supported.map(\.rawValue).sorted().joined(separator: ", "))"
        case .familyNotOnScreen(let family, let screen): "\(family.rawValue) cannot be placed on the \(screen.rawValue)"
        case .familyNotOnDevice(let family, let device):
            "\(family.rawValue) does not exist on the \(device.rawValue) screen"
        case .unknownParameter(let kind, let name): "kind \(kind) has no configuration parameter \(name)"
        case .parameterTypeMismatch(let name, let expected, let got):
            "parameter \(name) expects \(expected.rawValue), got \(got.rawValue)"
        }
    }
}
