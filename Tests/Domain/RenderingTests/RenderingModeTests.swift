import GlimpseMessages
import Rendering
import Testing

/// Appearance and rendering modes: dark flips primary and the widget background; vibrant
/// desaturates; accented removes the background and tints only accentable content.
@Suite struct RenderingModeTests {
    func rgba(_ paint: GlimpseWidgetV1.Paint?) -> (Float, Float, Float, Float)? {
        guard case .color(let c)? = paint?.kind else { return nil }
        return (c.red, c.green, c.blue, c.alpha)
    }

    @Test func darkFlipsPrimaryAndTheBackground() {
        let light = renderer().view(text("Hi"), family: .systemSmall).tree
        let dark = renderer(dark: true).view(text("Hi"), family: .systemSmall).tree
        #expect(rgba(light.node(text: "Hi")!.foreground)! == (0, 0, 0, 1))
        #expect(rgba(dark.node(text: "Hi")!.foreground)! == (1, 1, 1, 1))
        #expect(rgba(light.fill)! == (1, 1, 1, 1))
        let bg = rgba(dark.fill)!
        #expect(bg.0 < 0.12 && bg.3 == 1)
        #expect(renderer(dark: true).view(text("Hi"), family: .systemSmall).dark)
    }

    @Test func secondaryIsTranslucent() {
        let v = text("Sub").with(.foregroundStyle(GlimpseWidgetV1.ShapeStyle(kind: .hierarchical(.secondary))))
        let c = rgba(renderer().view(v, family: .systemSmall).tree.node(text: "Sub")!.foreground)!
        #expect(near(Double(c.3), 0.6))
    }

    @Test func systemColorsDifferByAppearance() {
        let v = text("Red").with(.foregroundStyle(color(.red)))
        let light = rgba(renderer().view(v, family: .systemSmall).tree.node(text: "Red")!.foreground)!
        let dark = rgba(renderer(dark: true).view(v, family: .systemSmall).tree.node(text: "Red")!.foreground)!
        #expect(light.0 == 1 && dark.0 == 1)
        #expect(light.1 != dark.1)
    }

    @Test func vibrantDesaturates() {
        let v = text("Red").with(.foregroundStyle(color(.red)))
        let full = rgba(renderer().view(v, family: .systemSmall, mode: .fullColor).tree.node(text: "Red")!.foreground)!
        let vibrant = rgba(renderer().view(v, family: .systemSmall, mode: .vibrant).tree.node(text: "Red")!.foreground)!
        #expect(full.0 != full.1)
        #expect(vibrant.0 == vibrant.1 && vibrant.1 == vibrant.2)
        // Accessories default to vibrant and have no background.
        let accessory = renderer().view(v, family: .accessoryRectangular)
        #expect(accessory.renderingMode == .vibrant)
        #expect(accessory.tree.fill == nil)
    }

    @Test func accentedRemovesTheBackgroundAndTintsAccentableContent() {
        let v = vstack([
            text("Plain").with(.foregroundStyle(color(.red))), text("Accent").with(.widgetAccentable(true)),
        ])
        .with(.containerBackground(GlimpseWidgetV1.ContainerBackground(style: color(.yellow))))
        let full = renderer().view(v, family: .systemSmall).tree
        #expect(rgba(full.fill)!.1 > 0.7)  // yellow behind everything
        let accented = renderer().view(v, family: .systemSmall, mode: .accented).tree
        #expect(accented.fill == nil)
        #expect(rgba(accented.node(text: "Plain")!.foreground)! == (1, 1, 1, 1))
        let accent = rgba(accented.node(text: "Accent")!.foreground)!
        #expect(accent.2 > accent.0)
    }

    @Test func containerBackgroundFillsTheWholeWidgetIncludingMargins() {
        let v = text("x").with(.containerBackground(GlimpseWidgetV1.ContainerBackground(style: color(.blue))))
        let tree = renderer().view(v, family: .systemMedium).tree
        #expect(tree.kind == "widget" && tree.x == 0 && tree.width == 338 && tree.height == 158)
        #expect(rgba(tree.fill)!.2 == 1)
    }

    @Test func invalidatableContentIsDimmed() {
        let tree = renderer().view(text("Waiting").with(.invalidatableContent(true)), family: .systemSmall).tree
        #expect(tree.node(text: "Waiting")!.dimmed)
    }

    @Test func redactedTextIsMarked() {
        let tree = renderer().view(vstack([text("Secret"), symbol("star")]), family: .systemSmall, redacted: true).tree
        #expect(tree.node(text: "Secret")!.redacted)
        #expect(TextWriter.text(renderer().view(text("Secret"), family: .systemSmall, redacted: true)).contains("▒"))
        #expect(
            !SVGWriter.document(renderer().view(text("Secret"), family: .systemSmall, redacted: true)).contains(
                ">Secret<"))
    }

    /// iOS redacts `.privacySensitive()` views while the device is locked (the system's
    /// `.privacy` redaction reason); the rest of the widget shows.
    @Test func privacySensitiveViewsAreRedactedWhileLocked() {
        let view = vstack([text("Balance"), text("$1,234").with(.privacySensitive(true))])
        func tree(locked: Bool, _ view: View) -> Node {
            Renderer(environment: RenderEnvironment(now: t0, locked: locked)).view(view, family: .accessoryRectangular)
                .tree
        }
        let locked = tree(locked: true, view)
        #expect(locked.node(text: "$1,234")!.redacted && !locked.node(text: "Balance")!.redacted)
        let unlocked = tree(locked: false, view)
        #expect(!unlocked.node(text: "$1,234")!.redacted && !unlocked.node(text: "Balance")!.redacted)
        // .redacted(reason: .privacy) asks for the same unlocked; .placeholder redacts all of it.
        let privacy = tree(locked: false, view.with(.redacted(.privacy)))
        #expect(privacy.node(text: "$1,234")!.redacted && !privacy.node(text: "Balance")!.redacted)
        let placeholder = tree(locked: false, view.with(.redacted(.placeholder)))
        #expect(placeholder.node(text: "$1,234")!.redacted && placeholder.node(text: "Balance")!.redacted)
    }
}
