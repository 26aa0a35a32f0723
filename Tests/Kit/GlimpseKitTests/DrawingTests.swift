import Foundation
import GlimpseMessages
@testable import RPCCore
import Testing

@testable import GlimpseKit

let testContext = ServerContext(
    method: MethodDescriptor(service: "glimpse.app.v1.Test", method: "Call"), requestMetadata: Metadata(),
    deadline: nil, remotePeer: "test")

func serverRequest<Message>(_ message: Message) -> ServerRequest<Message> {
    ServerRequest(metadata: Metadata(), message: message)
}

/// A SwiftUI-shaped view draws the wire tree glimpse-gateway renders.
@Suite("GlimpseKit drawing")
struct DrawingTests {
    struct Card: View {
        let title: String
        let done: Bool
        @Environment(\.widgetFamily) var family

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                Text(title).font(.headline)
                if family == .systemMedium {
                    Text("medium").foregroundStyle(.secondary)
                }
                ForEach(0..<2) { index in
                    Text("row \(index)")
                }
                if done {
                    Image(systemName: "checkmark")
                } else {
                    Spacer()
                }
            }
            .padding()
            .widgetURL(URL(string: "app://card/\(title)"))
        }
    }

    func draw(_ family: WidgetFamily, _ view: some View) -> (view: GlimpseWidgetV1.View, widgetURL: String?) {
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        return DrawingNotes.draw(environment) { wire(view) }
    }

    @Test("stacks, conditionals, ForEach, modifiers in order, the environment and widgetURL")
    func composite() throws {
        let small = draw(.systemSmall, Card(title: "Coco", done: true))
        guard case .stack(let stack)? = small.view.kind else { Issue.record("not a stack"); return }
        #expect(stack.axis == .vertical && stack.spacing == 4 && stack.alignment?.horizontal == .leading)
        let texts = stack.children.compactMap { child -> String? in
            if case .text(let text)? = child.kind { return text.content }
            return nil
        }
        #expect(texts == ["Coco", "row 0", "row 1"])
        guard case .symbol(let symbol)? = stack.children.last?.kind else { Issue.record("no symbol"); return }
        #expect(symbol.systemName == "checkmark")
        #expect(stack.children[0].modifiers.first?.kind == .font(GlimpseWidgetV1.Font(textStyle: .headline)))
        #expect(small.view.modifiers.count == 1)
        #expect(small.widgetURL == "app://card/Coco")

        let medium = draw(.systemMedium, Card(title: "Up", done: false))
        guard case .stack(let mediumStack)? = medium.view.kind else { Issue.record("not a stack"); return }
        #expect(mediumStack.children.count == 5)
        guard case .spacer? = mediumStack.children.last?.kind else { Issue.record("no spacer"); return }
    }

    @Test("padding edges, frames, masks and container backgrounds reach the wire")
    func modifiers() {
        let view = wire(
            Image("poster").resizable().aspectRatio(contentMode: .fill)
                .mask(RoundedRectangle(cornerRadius: 10).frame(minWidth: 0, maxWidth: .infinity))
                .padding([.top, .leading], 6)
                .containerBackground(.fill.tertiary, for: .widget))
        guard case .image(let image)? = view.kind else { Issue.record("not an image"); return }
        #expect(image.resizable && image.contentMode == .fill)
        let kinds = view.modifiers.compactMap(\.kind)
        #expect(kinds.count == 4)
        #expect(kinds[0] == .mask(GlimpseWidgetV1.Shape(kind: .roundedRectangle, cornerRadius: 10)))
        #expect(kinds[1] == .padding(GlimpseWidgetV1.Padding(edges: .top, length: 6)))
        #expect(kinds[2] == .padding(GlimpseWidgetV1.Padding(edges: .leading, length: 6)))
        #expect(
            kinds[3]
                == .containerBackground(
                    GlimpseWidgetV1.ContainerBackground(style: .init(kind: .fill(.tertiary)), placement: .widget)))
    }

    struct MarkIntent: AppIntent {
        static let title: LocalizedStringResource = "Mark"
        @Parameter(title: "Film") var filmID: String
        @Parameter(title: "Count", default: 1) var count: Int
        init() {}
        init(filmID: String) { self.filmID = filmID }
        func perform() async throws -> some IntentResult {
            WidgetCenter.shared.reloadTimelines(ofKind: "Films")
            if filmID == "none" { throw Refusal() }
            return .result(value: "\(filmID) × \(count)")
        }
        struct Refusal: Error {}
    }

    @Test("Button(intent:) carries the intent's @Parameters, and a tap makes and performs it")
    func intentRoundTrip() async throws {
        let button = wire(Button(intent: MarkIntent(filmID: "coco")) { Text("Watched") })
        guard case .button(let wireButton)? = button.kind, let invocation = wireButton.intent else {
            Issue.record("not a button")
            return
        }
        #expect(invocation.intentType == "MarkIntent")
        #expect(invocation.parameters["filmID"] == "coco".parameterValue)
        #expect(invocation.parameters["count"] == 1.parameterValue)
        // The manifest's declarations: a parameter with a default is optional.
        let declared = IntentRegistry.shared.parameters("MarkIntent")
        #expect(declared.map(\.name) == ["filmID", "count"])
        #expect(declared.map(\.type) == ["VALUE_TYPE_STRING", "VALUE_TYPE_INT"])
        #expect(declared.map(\.title) == ["Film", "Count"])
        #expect(
            declared[0].defaultValue == nil && declared[1].defaultValue?.manifestJSON?["intValue"] as? String == "1")

        let handler = IntentHandlerService()
        var request = GlimpseAppV1.PerformRequest(intentType: "MarkIntent", parameters: invocation.parameters)
        var answer = try await handler.perform(request: serverRequest(request), context: testContext)
        #expect(answer.message.outcome == .succeeded(.init(value: "coco × 1".parameterValue)))
        // WidgetCenter inside perform(): the tap's reload, not an app request.
        #expect(answer.message.reloads?.kinds == ["Films"])

        request.parameters["filmID"] = "none".parameterValue
        answer = try await handler.perform(request: serverRequest(request), context: testContext)
        guard case .failed(let failure)? = answer.message.outcome else { Issue.record("not failed"); return }
        #expect(failure.message.hasPrefix("MarkIntent: "))
        #expect(answer.message.reloads?.kinds == ["Films"])  // asked before the throw: still the tap's

        await #expect(throws: RPCError.self) {
            _ = try await handler.perform(
                request: serverRequest(GlimpseAppV1.PerformRequest(intentType: "Unknown")),
                context: testContext)
        }
    }

    struct FilmEntry: TimelineEntry {
        let date: Date
        let title: String
    }

    struct FilmProvider: TimelineProvider {
        func placeholder(in context: Context) -> FilmEntry { FilmEntry(date: context.date, title: "…") }
        func getSnapshot(in context: Context, completion: @escaping (FilmEntry) -> Void) {
            completion(FilmEntry(date: context.date, title: "Snapshot"))
        }
        func getTimeline(in context: Context, completion: @escaping (Timeline<FilmEntry>) -> Void) {
            // Answered from another thread, as a provider that fetches would.
            nonisolated(unsafe) let completion = completion
            Thread.detachNewThread {
                let entries = [0, 15].map {
                    FilmEntry(date: context.date.addingTimeInterval(Double($0) * 60), title: "\(context.family) +\($0)")
                }
                completion(Timeline(entries: entries, policy: .after(context.date.addingTimeInterval(3600))))
            }
        }
    }

    struct FilmWidget: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "Films", provider: FilmProvider()) { entry in
                Text(entry.title)
            }
            .configurationDisplayName("Films")
            .supportedFamilies([.systemSmall, .accessoryInline])
        }
    }

    @Test("a StaticConfiguration answers timelines with the device's clock and the family asked")
    func staticConfiguration() async throws {
        let configured = FilmWidget().configured
        #expect(configured.widgets.map(\.kind) == ["Films"])
        #expect(configured.widgets[0].families == [.systemSmall, .accessoryInline])
        let service = WidgetProviderService(source: WidgetTable(configured.widgets))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var context = GlimpseAppV1.TimelineProviderContext()
        context.family = .accessoryInline
        let answer = try await service.timeline(
            request: serverRequest(
                GlimpseAppV1.TimelineRequest(
                    widget: .init(kind: "Films", placementId: 1), context: context, now: .init(date: now))),
            context: testContext)
        let timeline = try #require(answer.message.timeline)
        #expect(timeline.entries.map { $0.date?.date } == [now, now.addingTimeInterval(900)])
        #expect(timeline.entries.first?.view?.kind == .text(GlimpseWidgetV1.Text(content: "accessoryInline +0")))
        #expect(timeline.reloadPolicy == .after(GoogleProtobuf.Timestamp(date: now.addingTimeInterval(3600))))
        await #expect(throws: RPCError.self) {
            _ = try await service.timeline(
                request: serverRequest(GlimpseAppV1.TimelineRequest(widget: .init(kind: "Other"))),
                context: testContext)
        }
    }

    struct Delivery: ActivityAttributes {
        struct ContentState: Codable, Hashable {
            var driver: String
            var eta: ClosedRange<Date>
        }
        var pizzas: Int
    }

    @Test("an ActivityConfiguration draws the Lock Screen and the island from ActivityKit's JSON")
    func activityConfiguration() throws {
        let configuration = ActivityConfiguration(for: Delivery.self) { context in
            Text("\(context.state.driver) brings \(context.attributes.pizzas)").widgetURL(URL(string: "pizza://track"))
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading, priority: 1) { Text("\(context.attributes.pizzas)") }
                DynamicIslandExpandedRegion(.bottom) {
                    Text(context.state.driver).dynamicIsland(verticalPlacement: .belowIfTooWide)
                }
            } compactLeading: {
                Image(systemName: "bag")
            } compactTrailing: {
                Text(timerInterval: context.state.eta, countsDown: true)
            } minimal: {
                Image(systemName: "timer")
            }
            .keylineTint(.red)
        }
        let definition = try #require(configuration.configured.activities.first)
        #expect(definition.attributesType == "Delivery")
        let state = Delivery.ContentState(
            driver: "Tim", eta: Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 900))
        var request = GlimpseAppV1.ActivityViewsRequest(
            activityId: "A", attributesType: "Delivery", attributesJson: #"{"pizzas":2}"#,
            stateJson: String(decoding: try JSONEncoder().encode(state), as: UTF8.self))
        let views = try definition.views(request)
        #expect(views.lockScreen?.kind == .text(GlimpseWidgetV1.Text(content: "Tim brings 2")))
        #expect(views.widgetUrl == "pizza://track")
        let island = try #require(views.dynamicIsland)
        #expect(island.expandedLeading?.priority == 1)
        #expect(island.expandedBottom?.belowIfTooWide == true && island.expandedLeading?.belowIfTooWide == false)
        #expect(island.keylineTint == GlimpseWidgetV1.Color(value: .system(.red)))
        guard case .timerText(let timer)? = island.compactTrailing?.kind else { Issue.record("no timer"); return }
        #expect(timer.timerInterval?.end?.date == Date(timeIntervalSince1970: 900))

        request.stateJson = #"{"driver":"Tim"}"#
        #expect(throws: RPCError.self) { _ = try definition.views(request) }
    }

    @Test("the manifest names each kind, family and intent the bundle declares")
    func manifest() throws {
        let manifest = try Manifest(
            FilmWidget().configured, arguments: ["--bundle-id", "com.example.films", "--endpoint", "127.0.0.1:7900"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(manifest.json.utf8)) as? [String: Any])
        #expect(json["bundleId"] as? String == "com.example.films")
        let widgets = try #require(json["widgets"] as? [[String: Any]])
        #expect(
            widgets.first?["supportedFamilies"] as? [String] == [
                "WIDGET_FAMILY_SYSTEM_SMALL", "WIDGET_FAMILY_ACCESSORY_INLINE",
            ])
        #expect(throws: GlimpseAppError.self) { _ = try Manifest(FilmWidget().configured, arguments: ["--bundle-id"]) }
    }
}
