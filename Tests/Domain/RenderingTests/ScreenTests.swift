import GlimpseMessages
import GlimpseVocabulary
import Rendering
import Testing

/// The screens: the Home Screen grid (cells and gaps from the size table), Smart Stacks,
/// the Lock Screen's order, and the Dynamic Island strip.
@Suite struct ScreenTests {
    let r = renderer()

    func widget(_ id: UInt64, _ family: GlimpseWidgetV1.WidgetFamily, _ label: String) -> GlimpseGatewayV1.Widget {
        var w = GlimpseGatewayV1.Widget()
        w.placementId = id
        w.bundleId = "com.example"
        w.family = family
        var entry = GlimpseWidgetV1.TimelineEntry()
        entry.view = text(label)
        w.entry = entry
        return w
    }

    func slot(_ widgets: GlimpseGatewayV1.Widget...) -> GlimpseGatewayV1.Screen.Slot {
        GlimpseGatewayV1.Screen.Slot(widgets: widgets)
    }

    @Test func homeScreenFlowsWidgetsRowMajorOntoTheGrid() {
        var screen = GlimpseGatewayV1.Screen()
        screen.homePages = [
            .init(slots: [
                slot(widget(1, .systemSmall, "one")), slot(widget(2, .systemSmall, "two")),
                slot(widget(3, .systemLarge, "three")),
            ]),
            .init(slots: [slot(widget(4, .systemMedium, "four"))]),
        ]
        let page0 = r.homeScreen(screen, page: 0)
        #expect(page0.size!.width == 393 && page0.size!.height == 852)
        let tree = page0.tree
        let one = tree.node(name: "1")!, two = tree.node(name: "2")!, three = tree.node(name: "3")!
        // Grid: cell 68×60, gaps 22 (338 − 2·158) and 38 (354 − 2·158); 338 wide, centered.
        #expect(one.kind == "widget")
        #expect(near(one.x, 27.5) && one.width == 158 && one.height == 158)
        #expect(near(two.x, 207.5) && near(two.y, one.y))
        #expect(near(three.x, 27.5) && near(three.y, one.y + 158 + 38) && three.width == 338 && three.height == 354)
        #expect(three.maxY <= 852)
        #expect(tree.node(text: "one")!.x >= one.x + 16)
        let page1 = r.homeScreen(screen, page: 1).tree
        let four = page1.node(name: "4")!
        #expect(near(four.x, 27.5) && near(four.y, one.y) && four.width == 338 && four.height == 158)
        #expect(page1.node(name: "1") == nil)
    }

    @Test func iPadGridHasEightColumns() {
        var screen = GlimpseGatewayV1.Screen()
        screen.homePages = [
            .init(slots: [slot(widget(1, .systemExtraLarge, "xl")), slot(widget(2, .systemSmall, "s"))])
        ]
        let tree = renderer(device: .iPad1024x1366).homeScreen(screen).tree
        let xl = tree.node(name: "1")!
        #expect(xl.width == 748 && near(xl.x, 138))
        #expect(near(tree.node(name: "2")!.x, 138))
        #expect(tree.node(name: "2")!.y > xl.maxY)
    }

    @Test func smartStackShowsItsTopWidget() {
        var screen = GlimpseGatewayV1.Screen()
        screen.homePages = [.init(slots: [slot(widget(7, .systemSmall, "top"), widget(8, .systemSmall, "under"))])]
        let tree = r.homeScreen(screen).tree
        let stack = tree.first { $0.kind == "smartStack" }!
        #expect(stack.node(name: "7")?.kind == "widget")
        #expect(tree.node(text: "top") != nil)
        #expect(tree.node(text: "under") == nil)
        #expect(stack.first { $0.kind == "pageDots" }!.children.count == 2)
    }

    @Test func missingEntryShowsARedactedPlaceholder() {
        var w = widget(9, .systemSmall, "x")
        w.entry = nil
        let tree = r.widget(w).tree
        #expect(tree.redacted)
        #expect(tree.all.contains { $0.kind == "text" && $0.redacted })
    }

    @Test func lockScreenOrdersInlineClockAccessoriesThenActivities() {
        var screen = GlimpseGatewayV1.Screen()
        var lock = GlimpseGatewayV1.Screen.LockScreen()
        lock.widgets = [
            widget(1, .accessoryCircular, "C"), widget(2, .accessoryInline, "Inline"),
            widget(3, .accessoryRectangular, "Rect"),
        ]
        var item = GlimpseGatewayV1.ActivityView()
        item.activity = GlimpseActivityV1.Activity(activityId: "a1", bundleId: "com.example")
        var unknown = GlimpseGatewayV1.ActivityView()
        unknown.activity = GlimpseActivityV1.Activity(
            activityId: "a2", bundleId: "com.other", attributesType: "DeliveryAttributes")
        lock.activities = [item, unknown]
        screen.lockScreen = lock
        var views = GlimpseWidgetV1.ActivityViews()
        views.lockScreen = text("Pizza is on its way")
        let tree = r.lockScreen(screen, views: ["a1": views]).tree
        let inline = tree.node(name: "2")!, clock = tree.node(name: "clock")!
        let circular = tree.node(name: "1")!, rect = tree.node(name: "3")!
        let first = tree.node(id: "a1")!, second = tree.node(id: "a2")!
        #expect(clock.text == "10:42")
        #expect(inline.maxY <= clock.y)
        #expect(circular.y >= clock.maxY && near(circular.y, rect.y))
        #expect(circular.maxX < rect.x)
        #expect(first.y >= rect.maxY && second.y >= first.maxY)
        #expect(first.node(text: "Pizza is on its way") != nil)
        #expect(second.all.contains { $0.text.contains("DeliveryAttributes") })
    }

    @Test func dynamicIslandFollowsTheScreenMode() {
        var screen = GlimpseGatewayV1.Screen()
        var lock = GlimpseGatewayV1.Screen.LockScreen()
        var a = GlimpseGatewayV1.ActivityView()
        a.activity = GlimpseActivityV1.Activity(activityId: "a", bundleId: "com.example")
        var b = GlimpseGatewayV1.ActivityView()
        b.activity = GlimpseActivityV1.Activity(activityId: "b", bundleId: "com.example")
        lock.activities = [a, b]
        screen.lockScreen = lock
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.compactLeading = text("L")
        island.compactTrailing = text("T")
        island.minimal = text("M")
        let views = [
            "a": GlimpseWidgetV1.ActivityViews(dynamicIsland: island),
            "b": GlimpseWidgetV1.ActivityViews(dynamicIsland: island),
        ]

        screen.dynamicIsland = GlimpseGatewayV1.DynamicIsland(mode: .compact, activityId: "a")
        let compact = r.dynamicIsland(screen, views: views).tree
        let pill = compact.first { $0.kind == "island" }!
        #expect(pill.name == "compact" && near(pill.width, 230) && near(pill.x, (393 - 230) / 2))
        #expect(compact.node(text: "L")!.maxX <= compact.node(name: "camera")!.x)

        screen.dynamicIsland = GlimpseGatewayV1.DynamicIsland(mode: .minimal, activityId: "a", detachedActivityId: "b")
        let minimal = r.dynamicIsland(screen, views: views).tree
        let attached = minimal.node(name: "minimalAttached")!, detached = minimal.node(name: "minimalDetached")!
        #expect(detached.x > attached.maxX)
        #expect(detached.width >= 36.67 && detached.width <= 45)

        screen.dynamicIsland = GlimpseGatewayV1.DynamicIsland(mode: .none)
        #expect(r.dynamicIsland(screen, views: views).tree.node(name: "idle") != nil)
    }
}
