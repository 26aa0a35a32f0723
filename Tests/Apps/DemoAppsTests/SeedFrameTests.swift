@testable import DemoApps
import GlimpseKit
import GlimpseMessages
import Rendering
import Testing

/// What matters in each seed view, at the frames Glimpse lays it out at (393×852 iPhone).
@Suite struct SeedFrameTests {
    typealias B = SeedSamples.Bundle
    typealias Node = GlimpseWidgetV1.LayoutNode

    func inside(_ node: Node, _ box: Node, tolerance: Double = 0.01) -> Bool {
        guard let n = node.frame, let b = box.frame else { return false }
        return n.x >= b.x - tolerance && n.y >= b.y - tolerance
            && n.x + n.width <= b.x + b.width + tolerance && n.y + n.height <= b.y + b.height + tolerance
    }

    @Test func pixarsMarkWatchedButtonIsWithinTheMediumWidget() throws {
        let layout = SeedSamples.widget(SeedSamples.pixar(.systemMedium), .systemMedium, bundle: B.pixar)
        let root = try #require(layout.root)
        let button = try #require(root.find { $0.id == "markWatched" })
        #expect(inside(button, root) && button.kind == "button")
        // Title on the leading side; the button at the trailing edge of the padded content.
        let title = try #require(root.find { $0.text == "Coco" })
        #expect(title.frame!.x < button.frame!.x && abs(button.frame!.x + button.frame!.width - (338 - 32)) < 0.01)
    }

    @Test func pixarsLargePosterLeavesRoomForItsTexts() throws {
        let layout = SeedSamples.widget(SeedSamples.pixar(.systemLarge), .systemLarge, bundle: B.pixar)
        let root = try #require(layout.root)
        for text in ["Coco", "2017", "42% watched", "Watched"] {
            let node = try #require(root.find { $0.text == text }, "\(text)")
            #expect(inside(node, root), "\(text) falls outside the widget")
        }
        // The filled poster overflows its frame as SwiftUI's does; the clip shape on the
        // frame keeps what is drawn inside the widget's margins and above the title.
        let clip = try #require(root.find { $0.kind == "clip" && $0.children.first?.kind == "image" })
        let title = try #require(root.find { $0.text == "Coco" })
        #expect(inside(clip, root) && clip.frame!.y >= 16 - 0.01)
        #expect(clip.frame!.y + clip.frame!.height <= title.frame!.y + 0.01)
    }

    @Test func theStatusBarClockStaysLeftOfTheCompactIsland() throws {
        let home = try #require(SeedSamples.renderer().homeScreen(SeedScreen.screen()).root)
        let island = try #require(
            SeedSamples.renderer().dynamicIsland(SeedScreen.screen(), views: SeedScreen.views).root)
        let clock = try #require(home.find { $0.name == "statusBarClock" })
        let compact = try #require(island.find { $0.kind == "island" && $0.name == "compact" })
        #expect(clock.frame!.x >= 16 && clock.frame!.x + clock.frame!.width < compact.frame!.x)
    }

    @Test func rtlAirsCheckInButtonIsInsideTheMediumWidget() throws {
        let layout = SeedSamples.widget(
            SeedSamples.rtlAir(FlightProvider.mediumKind, .notCheckedIn), .systemMedium, bundle: B.rtlAir)
        #expect(layout.size == GlimpseWidgetV1.DisplaySize(width: 338, height: 158))
        let root = try #require(layout.root)
        let button = try #require(root.find { $0.id == "checkin" })
        #expect(inside(button, root) && root.find { $0.text == "Check In" }.map { inside($0, button) } == true)
        // Gate M72 replaces it once checked in; none when cleared.
        let checkedIn = SeedSamples.widget(
            SeedSamples.rtlAir(FlightProvider.mediumKind, .checkedIn), .systemMedium, bundle: B.rtlAir)
        #expect(checkedIn.root?.find { $0.id == "gate" }.map { inside($0, checkedIn.root!) } == true)
        let cleared = SeedSamples.widget(
            SeedSamples.rtlAir(FlightProvider.mediumKind, .gateConfirmed), .systemMedium, bundle: B.rtlAir)
        #expect(cleared.root?.find { $0.kind == "button" } == nil)
    }

    @Test func rtlAirsLockScreenLineStaysOneLineWithinTheWidget() throws {
        let layout = SeedSamples.widget(
            SeedSamples.rtlAir(FlightProvider.lockScreenKind, .checkedIn), .accessoryRectangular, bundle: B.rtlAir)
        let root = try #require(layout.root)
        let texts = root.all.filter { $0.kind == "text" }
        #expect(texts.count == 8 && texts.allSatisfy { $0.lineCount == 1 && inside($0, root) })
        // minimumScaleFactor(0.6): nothing is drawn smaller than 0.6 × caption2.
        #expect(texts.allSatisfy { $0.fontSize >= 11 * 0.6 - 0.01 })
    }

    @Test func stepsGaugeFillsTheCircle() throws {
        let layout = SeedSamples.widget(SeedSamples.steps(.accessoryCircular), .accessoryCircular, bundle: B.steps)
        #expect(layout.size == GlimpseWidgetV1.DisplaySize(width: 72, height: 72))
        let root = try #require(layout.root)
        let gauge = try #require(root.find { $0.kind == "gauge" })
        #expect(inside(gauge, root))
        // The .accessoryCircular style: the open ring with its marker.
        let ring = try #require(gauge.find { $0.kind == "arc" })
        #expect(abs(ring.frame!.width - 72) < 0.01 && abs(ring.frame!.height - 72) < 0.01)
        #expect(gauge.find { $0.text == "8k" }.map { inside($0, ring) } == true)
    }

    @Test func pizzasCompactLeadingHoldsTheBagAndCountAndTheTimerIsTrailing() throws {
        let layout = SeedSamples.activity(SeedSamples.pizza(), .compact, bundle: B.pizza)
        let root = try #require(layout.root)
        let leading = try #require(root.find { $0.name == "compactLeading" })
        let trailing = try #require(root.find { $0.name == "compactTrailing" })
        let bag = try #require(leading.find { $0.kind == "symbol" })
        let count = try #require(leading.find { $0.kind == "text" })
        #expect(inside(bag, leading) && inside(count, leading) && count.text.hasPrefix("2"))
        let timer = try #require(trailing.find { $0.kind == "timerText" })
        #expect(timer.text == "30:00" && inside(timer, trailing))
    }

    @Test func pizzasDriverIsNamedInTheExpandedCenterAndOnTheLockScreen() throws {
        let expanded = SeedSamples.activity(SeedSamples.pizza(), .expanded, bundle: B.pizza)
        let center = try #require(expanded.root?.find { $0.name == "expandedCenter" })
        let line = try #require(center.find { $0.text.contains("Tim") })
        #expect(inside(line, center) && line.lineCount == 1)
        let lock = SeedSamples.activity(SeedSamples.pizza(), .lockScreen, bundle: B.pizza)
        let root = try #require(lock.root)
        let avatar = try #require(root.find { $0.kind == "image" })
        #expect(avatar.clipShape?.kind == .circle && abs(avatar.frame!.width - 36) < 0.01)
        let timer = try #require(root.find { $0.kind == "timerText" })
        let shapes = root.all.filter { $0.kind == "shape" }
        #expect(
            shapes.allSatisfy {
                $0.frame!.x + $0.frame!.width <= timer.frame!.x + 0.01
                    || $0.frame!.x >= timer.frame!.x + timer.frame!.width - 0.01
            })
    }
}

extension GlimpseWidgetV1.LayoutNode {
    var all: [GlimpseWidgetV1.LayoutNode] { [self] + children.flatMap(\.all) }
    func find(_ predicate: (GlimpseWidgetV1.LayoutNode) -> Bool) -> GlimpseWidgetV1.LayoutNode? {
        all.first(where: predicate)
    }
}
