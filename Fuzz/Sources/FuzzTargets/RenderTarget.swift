#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseMessages
import ProtoMapping
import Rendering

extension FuzzTarget {
    /// The layout and the renderer on view trees as the gateway gets them from apps: the
    /// bytes decode as a `glimpse.widget.v1.View` (byte 0 even) or as Live Activity views
    /// (`ActivityViews`, byte 0 odd); what the content limits let through (`ContentLimits`,
    /// the gate the gateway and glimpse-timeline apply) is laid out at a family's size
    /// (byte 0 picks it) or in every Live Activity presentation, and written as SVG and text.
    /// The renderer has no error to give: every tree lays out, and the layout encodes.
    static let render = FuzzTarget(name: "render") { bytes in
        guard let first = bytes.first else { return }
        let payload = Array(bytes.dropFirst())
        let renderer = Renderer(environment: RenderEnvironment(now: Date(timeIntervalSince1970: 1_767_258_000)))
        if first & 1 == 0 {
            guard let view = try? GlimpseWidgetV1.View(serializedBytes: payload),
                ContentLimits.violation(of: view, bytes: payload.count) == nil
            else { return }
            let families = GlimpseWidgetV1.WidgetFamily.allCases
            let modes = GlimpseWidgetV1.WidgetRenderingMode.allCases
            let family = families[Int(first >> 1) % families.count]
            let mode = modes[Int(first >> 4) % modes.count]
            RenderOutput.check(renderer.view(view, family: family, bundleID: "com.example.fuzz", mode: mode))
        } else {
            guard let views = try? GlimpseWidgetV1.ActivityViews(serializedBytes: payload),
                ContentLimits.violation(of: views) == nil
            else { return }
            for presentation in ActivityPresentationKind.allCases {
                RenderOutput.check(renderer.activity(views, presentation: presentation))
            }
        }
    }
}

enum RenderOutput {
    /// Both outputs draw it, and it travels (`Device.Render` answers it as protobuf).
    static func check(_ layout: GlimpseWidgetV1.Layout) {
        _ = SVGWriter.document(layout)
        _ = TextWriter.text(layout)
        do { _ = try layout.serializedBytes() } catch {
            finding("the layout does not encode: \(error)")
        }
    }
}
