package import GlimpseMessages
package import GlimpseVocabulary

/// The wire's enums and the vocabulary's: one name for each thing, mapped in one place.
extension GlimpseVocabulary.WidgetFamily {
    /// The family a wire value names; `InvalidField` for UNSPECIFIED or a value this
    /// version does not know.
    package init(_ wire: GlimpseWidgetV1.WidgetFamily, field: String) throws(InvalidField) {
        switch wire {
        case .systemSmall: self = .systemSmall
        case .systemMedium: self = .systemMedium
        case .systemLarge: self = .systemLarge
        case .systemExtraLarge: self = .systemExtraLarge
        case .accessoryCircular: self = .accessoryCircular
        case .accessoryRectangular: self = .accessoryRectangular
        case .accessoryInline: self = .accessoryInline
        case .unspecified: throw InvalidField(field, "a widget family is required")
        case .unrecognized(let n): throw InvalidField(field, "unknown widget family \(n)")
        }
    }

    package var wire: GlimpseWidgetV1.WidgetFamily {
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
}

extension GlimpseWidgetV1.DisplaySize {
    package init(_ size: GlimpseVocabulary.DisplaySize) {
        self.init()
        width = size.width
        height = size.height
    }
}
