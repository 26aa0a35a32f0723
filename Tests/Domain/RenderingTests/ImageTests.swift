import GlimpseMessages
import Rendering
import Testing

/// Images: natural size = pixels / device scale; resizable fills, fit and fill keep the
/// aspect ratio; a missing asset is a labelled box; symbols are squares at the font's size.
@Suite struct ImageTests {
    let assets = [AssetKey(bundleID: "com.example", name: "poster"): AssetImage(pixelWidth: 300, pixelHeight: 150)]

    func imageNode(_ view: View) -> Node {
        renderer(assets: assets).view(view, family: .systemSmall, bundleID: "com.example").tree.first {
            $0.kind == "image"
        }!
    }

    @Test func naturalSizeIsPixelsOverScale() {
        let node = imageNode(image("poster"))
        #expect(node.width == 100 && node.height == 50)
        #expect(node.assetName == "com.example/poster")
        #expect(AssetKey(nodeName: node.assetName) == AssetKey(bundleID: "com.example", name: "poster"))
    }

    @Test func resizableFillsTheProposal() {
        let node = imageNode(image("poster", resizable: true).with(frame(width: 120, height: 120)))
        #expect(node.width == 120 && node.height == 120)
    }

    @Test func fitKeepsTheAspectRatioInside() {
        let node = imageNode(image("poster", resizable: true, mode: .fit).with(frame(width: 120, height: 120)))
        #expect(node.width == 120 && node.height == 60)
        #expect(near(node.y, 16 + 3 + 30))  // centered in the 120-pt frame, itself centered in 126
    }

    @Test func fillCoversTheProposalAndOverflows() {
        let node = imageNode(image("poster", resizable: true, mode: .fill).with(frame(width: 120, height: 120)))
        #expect(node.width == 240 && node.height == 120)
    }

    @Test func missingAssetIsALabelledBox() {
        let node = imageNode(image("absent"))
        #expect(node.width == 40 && node.height == 40)
        #expect(node.accessibilityLabel.contains("absent"))
        let svg = SVGWriter.document(
            renderer().view(image("absent").with(frame(width: 100, height: 40)), family: .systemSmall))
        #expect(svg.contains(">absent</text>"))
    }

    @Test func embeddedImagesBecomeDataURLs() {
        let withBytes = [
            AssetKey(bundleID: "com.example", name: "poster"): AssetImage(
                pixelWidth: 3, pixelHeight: 3, mediaType: "image/png", data: [1, 2, 3, 4])
        ]
        let layout = renderer(assets: withBytes).view(image("poster"), family: .systemSmall, bundleID: "com.example")
        #expect(
            SVGWriter.document(layout, assets: withBytes, embedImages: true).contains("data:image/png;base64,AQIDBA=="))
        #expect(!SVGWriter.document(layout, assets: withBytes, embedImages: false).contains("data:"))
    }

    @Test func symbolIsASquareAtTheFontSize() {
        let tree = renderer().view(symbol("bolt.fill").with(font(.title)), family: .systemSmall).tree
        let node = tree.first { $0.kind == "symbol" }!
        #expect(node.systemName == "bolt.fill")
        #expect(node.width == node.height)
        #expect(node.width >= 28 && node.width <= 36)
    }

    @Test func assetNamesAreCollectedFromTheTree() {
        let names = Renderer.assetNames(in: vstack([image("a"), hstack([text("x"), image("b")])]))
        #expect(names == ["a", "b"])
    }
}
