import GatewayService
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Testing

@Suite struct ElementsTests {
    static func text(_ content: String) -> GlimpseWidgetV1.View {
        var view = GlimpseWidgetV1.View()
        view.kind = .text(.init(content: content))
        return view
    }

    static func button(_ intent: String, label: String, id: String = "") -> GlimpseWidgetV1.View {
        var button = GlimpseWidgetV1.Button()
        button.intent = GlimpseWidgetV1.IntentInvocation(intentType: intent)
        button.label = text(label)
        var view = GlimpseWidgetV1.View()
        view.kind = .button(button)
        view.id = id
        return view
    }

    static func stack(_ children: [GlimpseWidgetV1.View]) -> GlimpseWidgetV1.View {
        var stack = GlimpseWidgetV1.Stack()
        stack.children = children
        var view = GlimpseWidgetV1.View()
        view.kind = .stack(stack)
        return view
    }

    static let tree: GlimpseWidgetV1.View = {
        var link = GlimpseWidgetV1.Link()
        link.destination = "rtlair://gate"
        link.label = text("Gate B12")
        var linkView = GlimpseWidgetV1.View()
        linkView.kind = .link(link)
        var toggle = GlimpseWidgetV1.Toggle()
        toggle.intent = GlimpseWidgetV1.IntentInvocation(intentType: "BagsIntent")
        toggle.isOn = true
        toggle.label = text("Bags")
        var toggleView = GlimpseWidgetV1.View()
        toggleView.kind = .toggle(toggle)
        return stack([
            text("RTL 042"), stack([button("CheckInIntent", label: "Check in", id: "checkin"), toggleView]), linkView,
        ])
    }()

    @Test func collectsButtonsTogglesAndLinksWithPaths() {
        let elements = Elements.collect(Self.tree)
        #expect(elements.map(\.path) == ["0.1.0", "0.1.1", "0.2"])
        #expect(elements.map(\.label) == ["Check in", "Bags", "Gate B12"])
        #expect(elements[0].id == "checkin")
        #expect(elements[1].isOn)
        #expect(Elements.collect(nil).isEmpty)
    }

    @Test func resolvesByIdPathIntentLabelAndURL() throws {
        let elements = Elements.collect(Self.tree)
        #expect(try Elements.resolve("checkin", in: elements, hasWidgetURL: false)?.path == "0.1.0")
        #expect(try Elements.resolve("0.1.1", in: elements, hasWidgetURL: false)?.label == "Bags")
        #expect(try Elements.resolve("BagsIntent", in: elements, hasWidgetURL: false)?.path == "0.1.1")
        #expect(try Elements.resolve("check IN", in: elements, hasWidgetURL: false)?.id == "checkin")
        #expect(try Elements.resolve("rtlair://gate", in: elements, hasWidgetURL: false)?.path == "0.2")
    }

    @Test func emptyNameIsTheWidgetOrItsOnlyElement() throws {
        let elements = Elements.collect(Self.tree)
        #expect(try Elements.resolve("", in: elements, hasWidgetURL: true) == nil)
        #expect(try Elements.resolve("", in: [], hasWidgetURL: false) == nil)
        let one = Elements.collect(Self.button("CheckInIntent", label: "Check in"))
        #expect(try Elements.resolve("", in: one, hasWidgetURL: false)?.path == "0")
        #expect(throws: RPCError.self) { try Elements.resolve("", in: elements, hasWidgetURL: false) }
    }

    @Test func unknownOrAmbiguousNamesAreRefusedWithTheChoices() {
        let elements = Elements.collect(Self.tree)
        do {
            _ = try Elements.resolve("Board", in: elements, hasWidgetURL: false)
            Issue.record("resolved an unknown element")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message.contains("checkin (0.1.0) Button CheckInIntent"))
            // Typed: a script tells "not on the screen now" from a placement that is gone.
            #expect(error.reason(as: GlimpseIntentV1.Refusal.self) == .noSuchElement)
            #expect(error.errorInfo?.metadata["element"] == "Board")
        }
        let twice = Elements.collect(Self.stack([Self.button("A", label: "Go"), Self.button("B", label: "Go")]))
        do {
            _ = try Elements.resolve("go", in: twice, hasWidgetURL: false)
            Issue.record("resolved an ambiguous element")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func textJoinsLabelsAndTexts() {
        #expect(Elements.text(of: Self.tree) == "RTL 042 Check in Bags Gate B12")
    }
}
