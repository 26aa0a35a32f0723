import Testing
@testable import AssetEngine
import EngineTesting
import GlimpseVocabulary

@Suite("Image limits per use (spec §6, §7)")
struct ImageLimitTests {
    @Test(
        "widget images: area up to 718,080 pixels (F10: 1024×1024 refused)",
        arguments: [(960, 748, true), (960, 749, false), (1024, 1024, false), (500, 500, true)])
    func widgetArea(width: Int, height: Int, accepted: Bool) {
        let image = ImageInfo(format: .png, width: width, height: height)
        let violation = AssetLimits.defaults.violation(of: image, for: .widget)
        #expect((violation == nil) == accepted)
        if !accepted { #expect(violation == .imageAreaTooLarge(width: width, height: height, limit: 718_080)) }
    }

    @Test(
        "Live Activity images no larger than their presentation, in pixels at 3×",
        arguments: [
            (DeviceScreen.iPhone430x932, LiveActivityPresentation.minimal, 135, 110),  // 45 × 36.67 pt
            (.iPhone430x932, .compact, 187, 110),  // 62.33 × 36.67
            (.iPhone393x852, .compact, 157, 110),  // 52.33 × 36.67
            (.iPhone430x932, .expanded, 1224, 480),  // 408 × 160
            (.iPhone430x932, .lockScreen, 1224, 480),
            (.iPhone393x852, .lockScreen, 1113, 480),  // 371 × 160
        ])
    func presentationLimits(screen: DeviceScreen, presentation: LiveActivityPresentation, maxWidth: Int, maxHeight: Int)
    {
        let limits = AssetLimits(device: screen)
        #expect(limits.maximumPixels(for: presentation)! == (maxWidth, maxHeight))
        let fits = ImageInfo(format: .png, width: maxWidth, height: maxHeight)
        #expect(limits.violation(of: fits, for: .liveActivity(presentation)) == nil)
        for (w, h) in [(maxWidth + 1, maxHeight), (maxWidth, maxHeight + 1)] {
            #expect(
                limits.violation(of: ImageInfo(format: .png, width: w, height: h), for: .liveActivity(presentation))
                    == .imageLargerThanPresentation(
                        presentation, width: w, height: h, maxWidth: maxWidth, maxHeight: maxHeight))
        }
    }

    @Test("by default the asset limits are the 393-pt iPhone's, the device every engine assumes")
    func defaultDevice() {
        // Before the one device model, assets assumed the 430-pt iPhone (187 px compact)
        // while timelines assumed the 393-pt one.
        #expect(AssetLimits.defaults.maximumPixels(for: .compact)! == (157, 110))
        #expect(AssetLimits.defaults.device == DeviceScreen.default)
    }

    @Test("the pixel scale is the device's: the 2× iPad has no presentation sizes in the spec, so no limit is invented")
    func scaleFollowsDevice() {
        #expect(AssetLimits(device: .iPad1024x1366).maximumPixels(for: .minimal) == nil)
        #expect(AssetLimits(device: .iPhone430x932).maximumPixels(for: .minimal)! == (135, 110))
    }

    @Test(
        "a too-large poster is refused for the minimal presentation at its header chunk, and accepted as a widget image"
    )
    func posterForMinimal() throws {
        var cache = makeCache()
        let poster =
            ImageFixtures.jpeg(width: 300, height: 450, app1Bytes: 2_000) + [UInt8](repeating: 7, count: 50_000)
        var upload = try cache.beginUpload("com.example.pixar/posters/coco", use: .liveActivity(.minimal))
        #expect(
            throws: AssetError.imageLargerThanPresentation(
                .minimal, width: 300, height: 450, maxWidth: 135, maxHeight: 110)
        ) {
            try cache.append(Array(poster[0..<4096]), to: &upload)
        }
        #expect(cache.store.stagedBytes == 0)
        #expect(
            cache.engine.lookup(name("com.example.pixar/posters/coco"))
                == .unknown(name("com.example.pixar/posters/coco")))
        let widget = try cache.put("com.example.pixar/posters/coco", poster, use: .widget)
        #expect(widget.answer.metadata.image == ImageInfo(format: .jpeg, width: 300, height: 450))
    }

    @Test("overall size per asset is a setting: refused when announced and while streaming")
    func assetSize() throws {
        var cache = makeCache(AssetLimits(maximumAssetBytes: 1_000))
        #expect(throws: AssetError.assetTooLarge(size: 1_001, limit: 1_000)) {
            _ = try cache.beginUpload("app/big", totalSize: 1_001)
        }
        var upload = try cache.beginUpload("app/big")
        let png = ImageFixtures.png(width: 10, height: 10, dataBytes: 900)
        try cache.append(png, to: &upload)
        #expect(throws: AssetError.assetTooLarge(size: png.count + 100, limit: 1_000)) {
            try cache.append([UInt8](repeating: 0, count: 100), to: &upload)
        }
        #expect(cache.store.stagedBytes == 0)
    }

    @Test("a non-image upload is refused with a clear error")
    func notAnImage() throws {
        var cache = makeCache()
        #expect(throws: AssetError.unsupportedImage(.unsupportedFormat(detected: "GIF"))) {
            _ = try cache.put("app/anim", Array("GIF89a\u{1}\u{0}\u{1}\u{0}\u{0}\u{0}".utf8))
        }
        #expect(throws: AssetError.unsupportedImage(.truncated)) {
            _ = try cache.put("app/short", Array(ImageFixtures.png(width: 1, height: 1)[0..<20]))
        }
    }
}
