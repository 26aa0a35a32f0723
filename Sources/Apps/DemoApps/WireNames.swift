import GlimpseKit
import GlimpseMessages

// The demo apps build the wire's view tree directly, with GlimpseKit's constructors
// (`.vstack([...])`); these names are theirs, over GlimpseKit's SwiftUI-shaped ones.
typealias View = GlimpseWidgetV1.View
typealias Style = GlimpseWidgetV1.ShapeStyle
typealias Color = GlimpseWidgetV1.Color
typealias Font = GlimpseWidgetV1.Font
typealias Shape = GlimpseWidgetV1.Shape
