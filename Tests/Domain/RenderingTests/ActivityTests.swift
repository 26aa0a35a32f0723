import GlimpseMessages
import GlimpseVocabulary
import Rendering
import Testing

/// Live Activity presentations at spec §6's sizes on the 393-pt iPhone: compact regions
/// beside the camera, minimal, expanded regions, the Lock Screen view's 84–160 height.
@Suite struct ActivityTests {
    let r = renderer()

    func views() -> GlimpseWidgetV1.ActivityViews {
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.compactLeading = text("SF")
        island.compactTrailing = text("12m")
        island.minimal = text("12")
        island.expandedLeading = GlimpseWidgetV1.ExpandedRegion(view: text("Leading"))
        island.expandedTrailing = GlimpseWidgetV1.ExpandedRegion(view: text("Trailing"))
        island.expandedCenter = GlimpseWidgetV1.ExpandedRegion(view: text("Center"))
        island.expandedBottom = GlimpseWidgetV1.ExpandedRegion(view: text("Bottom line"))
        var v = GlimpseWidgetV1.ActivityViews()
        v.dynamicIsland = island
        v.lockScreen = vstack([text("Driver on the way"), text("Arriving in 12 minutes")])
        return v
    }

    @Test func compactRegionsSitLeftAndRightOfTheCamera() {
        let layout = r.activity(views(), presentation: .compact)
        let tree = layout.tree
        let leading = tree.node(name: "compactLeading")!, trailing = tree.node(name: "compactTrailing")!,
            camera = tree.node(name: "camera")!
        #expect(near(leading.width, 52.33) && near(trailing.width, 52.33))
        #expect(leading.maxX <= camera.x + 0.01 && trailing.x >= camera.maxX - 0.01)
        #expect(near(layout.size!.width, 230))
        for region in [leading, trailing] { #expect(near(region.height, 36.67)) }
        let sf = tree.node(text: "SF")!, twelve = tree.node(text: "12m")!
        #expect(sf.x >= leading.x && sf.maxX <= leading.maxX && sf.maxY <= 36.68)
        #expect(twelve.x >= trailing.x && twelve.maxX <= trailing.maxX + 0.01)
    }

    @Test func minimalIsBetweenItsNarrowAndWideWidths() {
        let layout = r.activity(views(), presentation: .minimal)
        #expect(layout.size!.width >= 36.67 && layout.size!.width <= 45)
        #expect(near(layout.size!.height, 36.67))
        #expect(layout.tree.node(text: "12") != nil)
    }

    @Test func expandedPlacesRegionsAroundTheCamera() {
        let layout = r.activity(views(), presentation: .expanded)
        let tree = layout.tree
        let camera = tree.node(name: "camera")!
        let leading = tree.node(name: "expandedLeading")!, trailing = tree.node(name: "expandedTrailing")!
        let center = tree.node(name: "expandedCenter")!, bottom = tree.node(name: "expandedBottom")!
        #expect(layout.size!.width == 371)
        #expect(layout.size!.height >= 84 && layout.size!.height <= 160)
        #expect(leading.maxX <= camera.x && trailing.x >= camera.maxX)
        #expect(leading.y < camera.maxY && trailing.y < camera.maxY)
        #expect(center.y >= camera.maxY)
        #expect(center.x >= leading.x && center.maxX <= trailing.maxX)
        #expect(bottom.y >= center.maxY && bottom.y >= leading.maxY)
        #expect(tree.first { $0.kind == "island" }!.clipShape?.cornerRadius == 44)
    }

    @Test func belowIfTooWideMovesAWideRegionUnderTheCamera() {
        var v = views()
        v.dynamicIsland!.expandedLeading = GlimpseWidgetV1.ExpandedRegion(
            view: text("A leading region far too wide for its side"), belowIfTooWide: true)
        let tree = r.activity(v, presentation: .expanded).tree
        #expect(tree.node(name: "expandedLeading")!.y >= tree.node(name: "camera")!.maxY)
    }

    @Test func lockScreenHeightFollowsContentBetween84And160() {
        let short = r.activity(views(), presentation: .lockScreen)
        #expect(short.size!.width == 371)
        #expect(short.size!.height == 84)
        var tall = views()
        tall.lockScreen = vstack((0..<12).map { text("Line \($0)") })
        let cut = r.activity(tall, presentation: .lockScreen)
        #expect(cut.size!.height == 160)
        #expect(cut.tree.truncated)
        var tint = views()
        tint.lockScreen = text("Tinted").with(.activityBackgroundTint(color(.orange)))
        let tinted = r.activity(tint, presentation: .lockScreen).tree
        guard case .color(let c)? = tinted.fill?.kind else {
            Issue.record("no tint")
            return
        }
        #expect(c.red == 1 && c.green < 0.7)
    }

    @Test func devicesWithoutADynamicIslandShowTheBanner() {
        let layout = renderer(device: .iPhone375x667).activity(views(), presentation: .compact)
        #expect(layout.tree.name == "banner")
        #expect(layout.tree.node(text: "Driver on the way") != nil)
        #expect(layout.size!.width == 353)
    }
}
