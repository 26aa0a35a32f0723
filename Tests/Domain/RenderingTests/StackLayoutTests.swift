import GlimpseMessages
import Rendering
import Testing

/// SwiftUI's proposal model: stacks share space by flexibility, align, and frames and
/// padding shape what children are offered. Canvas: the 393×852 iPhone (small 158, medium
/// 338×158), 16-pt widget margins.
@Suite struct StackLayoutTests {
    let r = renderer()

    @Test func hstackGivesFixedChildrenTheirSizeAndSharesTheRestEqually() {
        let view = hstack([rectangle().with(frame(width: 50)).id("fixed"), rectangle().id("a"), rectangle().id("b")])
        let tree = r.view(view, family: .systemMedium).tree
        let fixed = tree.node(id: "fixed")!, a = tree.node(id: "a")!, b = tree.node(id: "b")!
        #expect(fixed.width == 50)
        #expect(near(a.width, 120) && near(b.width, 120))  // (306 − 50 − 2·8) / 2
        #expect(near(fixed.x, 16))
        #expect(near(a.x, fixed.maxX + 8))
        #expect(near(b.x, a.maxX + 8))
        #expect(near(b.maxX, 322))
        #expect(near(a.height, 126))
    }

    @Test func explicitSpacingReplacesTheDefault() {
        let view = hstack(
            [rectangle().with(frame(width: 20)).id("a"), rectangle().with(frame(width: 20)).id("b")], spacing: 2)
        let tree = r.view(view, family: .systemSmall).tree
        #expect(near(tree.node(id: "b")!.x - tree.node(id: "a")!.maxX, 2))
    }

    @Test func spacerPushesItsNeighboursToTheEdges() {
        let tree = r.view(hstack([text("A"), spacer(), text("B")]), family: .systemSmall).tree
        #expect(near(tree.node(text: "A")!.x, 16))
        #expect(near(tree.node(text: "B")!.maxX, 142))
    }

    @Test func vstackAlignsLeadingAndTrailing() {
        let leading = r.view(vstack([text("Short"), text("A longer line")], h: .leading), family: .systemSmall).tree
        #expect(near(leading.node(text: "Short")!.x, leading.node(text: "A longer line")!.x))
        let trailing = r.view(vstack([text("Short"), text("A longer line")], h: .trailing), family: .systemSmall).tree
        #expect(near(trailing.node(text: "Short")!.maxX, trailing.node(text: "A longer line")!.maxX))
        let center = r.view(vstack([text("Short"), text("A longer line")]), family: .systemSmall).tree
        let s = center.node(text: "Short")!, l = center.node(text: "A longer line")!
        #expect(near(s.x + s.width / 2, l.x + l.width / 2))
        #expect(s.x > l.x)
    }

    @Test func hstackAlignsTopAndBottom() {
        let small = rectangle().with(frame(width: 20, height: 20)).id("small")
        let tall = rectangle().with(frame(width: 20, height: 60)).id("tall")
        let top = r.view(hstack([small, tall], v: .top), family: .systemSmall).tree
        #expect(near(top.node(id: "small")!.y, top.node(id: "tall")!.y))
        let bottom = r.view(hstack([small, tall], v: .bottom), family: .systemSmall).tree
        #expect(near(bottom.node(id: "small")!.maxY, bottom.node(id: "tall")!.maxY))
        let center = r.view(hstack([small, tall]), family: .systemSmall).tree
        #expect(near(center.node(id: "small")!.y, center.node(id: "tall")!.y + 20))
    }

    @Test func infiniteMaxWidthFrameTakesTheWidthAndAlignsItsContent() {
        let leading = GlimpseWidgetV1.Alignment(horizontal: .leading, vertical: .center)
        let tree = r.view(text("A").with(frame(maxWidth: .infinity, alignment: leading)), family: .systemSmall).tree
        #expect(near(tree.node(text: "A")!.x, 16))
        let pair = r.view(hstack([text("A").with(frame(maxWidth: .infinity)), text("B")]), family: .systemSmall).tree
        #expect(near(pair.node(text: "B")!.maxX, 142))
        let a = pair.node(text: "A")!
        #expect(a.x > 16)  // centered in its wide frame
    }

    @Test func fixedFrameSizesAndCentersTheChild() {
        let tree = r.view(rectangle().with(frame(width: 40, height: 30)).id("r"), family: .systemSmall).tree
        let node = tree.node(id: "r")!
        #expect(node.width == 40 && node.height == 30)
        #expect(near(node.x, 59) && near(node.y, 64))
    }

    @Test func paddingInsetsTheContentWithinTheWidgetMargin() {
        let topLeading = GlimpseWidgetV1.Alignment(horizontal: .leading, vertical: .top)
        let view = text("Hi").with(padding(10), frame(maxWidth: .infinity, maxHeight: .infinity, alignment: topLeading))
        let node = r.view(view, family: .systemSmall).tree.node(text: "Hi")!
        #expect(near(node.x, 26) && near(node.y, 26))
        let defaultPadding = r.view(
            text("Hi").with(padding(), frame(maxWidth: .infinity, maxHeight: .infinity, alignment: topLeading)),
            family: .systemSmall)
        #expect(near(defaultPadding.tree.node(text: "Hi")!.x, 32))
        let horizontal = r.view(rectangle().with(padding(20, .horizontal)).id("h"), family: .systemSmall).tree.node(
            id: "h")!
        #expect(near(horizontal.x, 36) && near(horizontal.width, 86) && near(horizontal.height, 126))
    }

    @Test func systemFamiliesHaveSixteenPointMarginsAndAccessoriesNone() {
        let small = r.view(rectangle().id("r"), family: .systemSmall).tree
        #expect(small.width == 158)
        let filled = small.node(id: "r")!
        #expect(filled.x == 16 && filled.y == 16 && filled.width == 126 && filled.height == 126)
        let circular = r.view(rectangle().id("r"), family: .accessoryCircular).tree.node(id: "r")!
        #expect(circular.x == 0 && circular.width == 72 && circular.height == 72)
    }

    @Test func zstackOverlaysAtItsAlignment() {
        let z = stack(
            .depth,
            [
                rectangle().with(frame(width: 100, height: 100)).id("big"),
                rectangle().with(frame(width: 20, height: 20)).id("dot"),
            ], h: .trailing, v: .bottom)
        let tree = r.view(z, family: .systemSmall).tree
        #expect(near(tree.node(id: "dot")!.maxX, tree.node(id: "big")!.maxX))
        #expect(near(tree.node(id: "dot")!.maxY, tree.node(id: "big")!.maxY))
    }

    @Test func backgroundFollowsThePaddingItComesAfter() {
        let view = text("Tag").with(padding(6), .background(color(.red)))
        let tree = r.view(view, family: .systemSmall).tree
        let background = tree.first { $0.kind == "background" }!
        let label = tree.node(text: "Tag")!
        #expect(near(background.width, label.width + 12) && near(background.x, label.x - 6))
    }

    @Test func pathsNameChildIndicesFromTheRoot() {
        let tree = r.view(vstack([text("a"), hstack([text("b"), text("c")])]), family: .systemSmall).tree
        #expect(tree.node(text: "c")!.path == "0.1.1")
        #expect(tree.first { $0.kind == "vstack" }!.path == "0")
    }
}
