import Foundation
import Testing
import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
import TimelineEngine
import TimelineService
import TimelineMapping

@Suite("Timeline service: wire ↔ engine")
struct TimelineMappingTests {
    static func view(_ text: String) -> GlimpseWidgetV1.View {
        GlimpseWidgetV1.View(kind: .text(GlimpseWidgetV1.Text(content: text)))
    }

    @Test("a provider's timeline becomes the engine's and comes back field for field")
    func timelineRoundTrip() throws {
        var wire = GlimpseWidgetV1.Timeline()
        for minute in [0, 15, 30] {
            var entry = GlimpseWidgetV1.TimelineEntry()
            entry.date = GoogleProtobuf.Timestamp(Date(timeIntervalSince1970: 1_767_225_600 + Double(minute * 60)))
            entry.view = Self.view("Coco +\(minute)")
            entry.widgetUrl = minute == 0 ? "pixar://coco" : ""
            wire.entries.append(entry)
        }
        wire.reloadPolicy = .after(GoogleProtobuf.Timestamp(Date(timeIntervalSince1970: 1_767_229_200)))
        let timeline = try TimelineEngine.Timeline(wire)
        #expect(timeline.entries.count == 3)
        #expect(timeline.entries[0].url == "pixar://coco")
        #expect(timeline.policy == .after(Date(timeIntervalSince1970: 1_767_229_200)))
        #expect(timeline.wire == wire)
    }

    @Test("a missing reload policy is .atEnd, as Timeline(entries:policy:) defaults")
    func defaultPolicy() throws {
        #expect(try TimelineEngine.Timeline(GlimpseWidgetV1.Timeline()).policy == .atEnd)
    }

    @Test("an entry without a date, or with a date out of range, names the field")
    func badEntries() throws {
        var wire = GlimpseWidgetV1.Timeline()
        wire.entries = [GlimpseWidgetV1.TimelineEntry(), GlimpseWidgetV1.TimelineEntry()]
        wire.entries[0].date = GoogleProtobuf.Timestamp(Date())
        #expect(throws: InvalidField("timeline.entries[1].date", "an entry needs a date")) {
            try TimelineEngine.Timeline(wire)
        }
        var far = GoogleProtobuf.Timestamp()
        far.seconds = .max
        wire.entries[1].date = far
        #expect(throws: InvalidField.self) { try TimelineEngine.Timeline(wire) }
    }

    @Test("manifest kinds: none listed means all families; duplicates and unknown families name the field")
    func manifestKinds() throws {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = "com.example.MoviePlanner"
        var widget = GlimpseAppV1.WidgetKindDeclaration()
        widget.kind = "MoviePlannerwidget"
        manifest.widgets = [widget]
        manifest.defaultEndpoint = "127.0.0.1:9000"
        let kinds = try manifest.widgetKinds()
        #expect(kinds.map(\.kind) == ["MoviePlannerwidget"])
        #expect(kinds[0].supportedFamilies.isEmpty)  // the engine reads empty as all families
        #expect(manifest.providerEndpoint(of: "MoviePlannerwidget") == "127.0.0.1:9000")
        manifest.widgets.append(widget)
        #expect(throws: InvalidField("manifest.widgets[1].kind", "kind \"MoviePlannerwidget\" is declared twice")) {
            try manifest.widgetKinds()
        }
        manifest.widgets = [widget]
        manifest.widgets[0].supportedFamilies = [.systemSmall, .unrecognized(99)]
        #expect(throws: InvalidField("manifest.widgets[0].supported_families[1]", "unknown widget family 99")) {
            try manifest.widgetKinds()
        }
    }
}
