import GlimpseCLI
import GlimpseMessages
import Testing

typealias View = GlimpseWidgetV1.View

func text(_ content: String) -> View { View(kind: .text(.init(content: content))) }
func vstack(_ children: View...) -> View { View(kind: .stack(.init(axis: .vertical, children: children))) }
func hstack(_ children: View...) -> View { View(kind: .stack(.init(axis: .horizontal, children: children))) }
func symbol(_ name: String) -> View { View(kind: .symbol(.init(systemName: name))) }
func intent(_ type: String) -> GlimpseWidgetV1.IntentInvocation { .init(intentType: type) }
func ts(_ iso: String) -> GoogleProtobuf.Timestamp { try! ISO8601Text.parse(iso) }

@Suite("The text rendering of a view tree")
struct ViewTextTests {
    @Test("Text, stacks, labels, buttons, toggles and links, as a person reads them")
    func controls() {
        let tree = vstack(
            text("Order #42"),
            hstack(symbol("box.truck"), text("Out for delivery")),
            View(kind: .button(.init(intent: intent("CheckInIntent"), label: text("Check in")))),
            View(kind: .toggle(.init(intent: intent("NotifyIntent"), isOn: true, label: text("Notify me")))),
            View(kind: .toggle(.init(intent: intent("MuteIntent"), isOn: false, label: text("Mute")))),
            View(kind: .link(.init(destination: "pizza://order/42", label: text("Track")))),
            View(kind: .link(.init(destination: "pizza://menu"))),
            View(kind: .label(.init(title: text("Margherita"), icon: symbol("flame")))),
            View(kind: .spacer(.init())),
            View(kind: .divider),
            View(kind: .image(.init(assetName: "posters/margherita")))
        )
        #expect(
            ViewText.lines(tree) == [
                "Order #42", "Out for delivery", "[Check in]", "[x] Notify me", "[ ] Mute", "<Track>", "<pizza://menu>",
                "Margherita",
            ])
    }

    @Test("an HStack of controls is one line; one with a multi-line child keeps its lines")
    func rows() {
        let stepper = hstack(
            View(kind: .button(.init(intent: intent("Decrement"), label: text("-")))),
            text("3"),
            View(kind: .button(.init(intent: intent("Increment"), label: text("+")))))
        #expect(ViewText.lines(stepper) == ["[-] 3 [+]"])
        #expect(ViewText.lines(hstack(vstack(text("a"), text("b")), text("c"))) == ["a", "b", "c"])
        #expect(ViewText.lines(View(kind: .button(.init(label: vstack(text("Check"), text("in")))))) == ["[Check in]"])
        #expect(ViewText.lines(text("two\nlines")) == ["two", "lines"])
        #expect(ViewText.lines(View()) == [])
    }

    @Test("gauges and progress views: their labels and a percentage")
    func gauges() {
        let gauge = View(kind: .gauge(.init(value: 0.8, label: text("Battery"))))
        #expect(ViewText.lines(gauge) == ["Battery 80%"])
        let ranged = View(kind: .gauge(.init(value: 15, minimum: 10, maximum: 30)))
        #expect(ViewText.lines(ranged) == ["25%"])
        let labelled = View(kind: .gauge(.init(value: 21, label: text("Temp"), currentValueLabel: text("21°"))))
        #expect(ViewText.lines(labelled) == ["Temp 21°"])
        let progress = View(
            kind: .progress(.init(progress: .fraction(.init(value: 3, total: 4)), label: text("Baking"))))
        #expect(ViewText.lines(progress) == ["Baking 75%"])
    }

    @Test("timers and dates as the clock shows them at the entry's date")
    func clocks() {
        let interval = GlimpseWidgetV1.DateInterval(start: ts("2026-01-01T09:00:00Z"), end: ts("2026-01-01T09:30:00Z"))
        let now = ts("2026-01-01T09:25:00Z").secondsForTests
        #expect(
            ViewText.lines(View(kind: .timerText(.init(timerInterval: interval, countsDown: true))), now: now) == [
                "5:00"
            ])
        #expect(
            ViewText.lines(View(kind: .timerText(.init(timerInterval: interval, countsDown: false))), now: now) == [
                "25:00"
            ])
        let long = GlimpseWidgetV1.DateInterval(start: ts("2026-01-01T09:00:00Z"), end: ts("2026-01-01T11:00:00Z"))
        #expect(
            ViewText.lines(View(kind: .timerText(.init(timerInterval: long, countsDown: true))), now: now) == [
                "1:35:00"
            ])
        #expect(
            ViewText.lines(
                View(kind: .timerText(.init(timerInterval: long, countsDown: true, showsHours: false))), now: now) == [
                    "95:00"
                ])
        #expect(
            ViewText.lines(View(kind: .timerText(.init(timerInterval: interval, countsDown: true)))) == [
                "until 2026-01-01T09:30:00Z"
            ])
        let date = ts("2026-01-01T11:40:00Z")
        #expect(ViewText.lines(View(kind: .dateText(.init(date: date, style: .time))), now: now) == ["11:40"])
        #expect(ViewText.lines(View(kind: .dateText(.init(date: date, style: .date))), now: now) == ["2026-01-01"])
        #expect(ViewText.lines(View(kind: .dateText(.init(date: date, style: .relative))), now: now) == ["in 2h15m"])
        #expect(
            ViewText.lines(View(kind: .dateText(.init(date: ts("2026-01-01T09:20:00Z"), style: .relative))), now: now)
                == ["5m ago"])
        #expect(ViewText.lines(View(kind: .dateText(.init(date: date, style: .offset))), now: now) == ["+2h15m"])
    }
}

extension GoogleProtobuf.Timestamp {
    var secondsForTests: Double { Double(seconds) + Double(nanos) / 1e9 }
}

/// A placed widget showing a check-in entry.
func sampleWidget(
    id: UInt64 = 7, kind: String = "CheckIn", family: GlimpseWidgetV1.WidgetFamily = .systemSmall
) -> GlimpseGatewayV1.Widget {
    var widget = GlimpseGatewayV1.Widget()
    widget.placementId = id
    widget.bundleId = "com.example.cinema"
    widget.kind = kind
    widget.family = family
    widget.location = .init(screen: .home, page: 0, slot: 2)
    widget.displaySize = .init(width: 170, height: 170)
    var entry = GlimpseWidgetV1.TimelineEntry()
    entry.date = ts("2026-01-01T09:00:00Z")
    entry.view = vstack(
        text("Coco"),
        View(kind: .button(.init(intent: intent("CheckInIntent"), label: text("Check in"))), id: "checkin"))
    entry.widgetUrl = "cinema://film/coco"
    widget.entry = entry
    widget.entrySequence = 12
    widget.configuration = ["film": .init(kind: .stringValue("coco"))]
    var element = GlimpseGatewayV1.Element()
    element.path = "1"
    element.id = "checkin"
    element.kind = .button(intent("CheckInIntent"))
    element.label = "Check in"
    widget.elements = [element]
    widget.budget = .init(
        placementId: id, used: 3, limit: 70, remaining: 67, windowSeconds: 86_400,
        nextReloadAt: ts("2026-01-01T10:00:00Z"), waitingFor: .policy)
    return widget
}

@Suite("Widgets, budgets and the screen as text")
struct WidgetTextTests {
    @Test("one placement: what it is, its entry as text, its tappable elements, its budget")
    func detail() {
        let text = WidgetText.detail(sampleWidget())
        #expect(
            text == """
                placement  7  com.example.cinema / CheckIn
                family     systemSmall  170×170 pt
                where      home page 0, slot 2
                config     film=coco
                entry      2026-01-01T09:00:00Z  (sequence 12)
                url        cinema://film/coco

                  │ Coco
                  │ [Check in]

                tappable:
                  PATH  ID       KIND    TARGET         LABEL
                  1     checkin  button  CheckInIntent  Check in

                budget     3/70 used, 67 remaining; next reload 2026-01-01T10:00:00Z (policy)
                """)
    }

    @Test("a placeholder, a stale widget and a provider error say so")
    func states() {
        var widget = sampleWidget()
        widget.entry = nil
        widget.placeholder = true
        widget.stale = true
        widget.lastError = .init(
            at: ts("2026-01-01T09:01:00Z"), code: "UNAVAILABLE", message: "connection refused", failures: 2,
            retryAt: ts("2026-01-01T09:02:00Z"))
        let text = WidgetText.detail(widget)
        #expect(text.contains("placement  7  com.example.cinema / CheckIn  (stale: glimpse-timeline unreachable)"))
        #expect(text.contains("entry      placeholder"))
        #expect(text.contains("  │ (placeholder)"))
        #expect(
            text.contains(
                "last error UNAVAILABLE: connection refused at 2026-01-01T09:01:00Z (2 in a row); retry at 2026-01-01T09:02:00Z"
            ))
        #expect(WidgetText.list([widget]).contains("placeholder, stale, error UNAVAILABLE"))
    }

    @Test("the widget list: aligned columns, no trailing blanks")
    func list() {
        var lock = sampleWidget(id: 12, kind: "Showtime", family: .accessoryInline)
        lock.location = .init(screen: .lock, slot: 0)
        let text = WidgetText.list([sampleWidget(), lock])
        #expect(
            text == """
                ID  BUNDLE              KIND      FAMILY           WHERE                SHOWS
                7   com.example.cinema  CheckIn   systemSmall      home page 0, slot 2  entry 2026-01-01T09:00:00Z
                12  com.example.cinema  Showtime  accessoryInline  lock slot 0          entry 2026-01-01T09:00:00Z
                """)
        #expect(WidgetText.list([]) == "no widgets placed")
        #expect(Table.render(header: ["NAME", "NOTE"], rows: [["a", ""], ["bb", "x"]]) == "NAME  NOTE\na\nbb    x")
        #expect(Table.fields([("id", "7"), ("locale", "")]) == "id      7\nlocale")
    }

    @Test("budget: used, limit, remaining, next reload, what it waits for, when the window frees")
    func budget() {
        var budget = GlimpseTimelineV1.BudgetStatus(
            placementId: 7, used: 70, limit: 70, remaining: 0, windowSeconds: 86_400)
        budget.nextReloadAt = ts("2026-01-02T08:00:00Z")
        budget.waitingFor = .budget
        budget.windowFreesAt = ts("2026-01-02T08:00:00Z")
        #expect(
            BudgetText.detail(budget) == """
                placement     7
                used          70 of 70 in the rolling 1d window
                remaining     0
                next reload   2026-01-02T08:00:00Z
                waiting for   budget: the budget of the rolling window is spent
                window frees  2026-01-02T08:00:00Z
                """)
        #expect(BudgetText.summary(budget) == "70/70 used, 0 remaining; next reload 2026-01-02T08:00:00Z (budget)")
        #expect(
            BudgetText.summary(.init(placementId: 1, used: 0, limit: 40, remaining: 40))
                == "0/40 used, 40 remaining; no reload scheduled")
        #expect(BudgetText.detail(.init(placementId: 1)).contains("waiting for   nothing: no reload is wanted"))
    }

    @Test("the whole screen: pages with slots and stacks, the Lock Screen, the Dynamic Island, unreachable services")
    func screen() {
        var screen = GlimpseGatewayV1.Screen()
        screen.device = "iPhone393x852"
        screen.size = .init(width: 393, height: 852)
        screen.now = ts("2026-01-01T09:00:00Z")
        let top = sampleWidget(id: 8, kind: "Weather")
        var under = sampleWidget(id: 9, kind: "Calendar")
        under.entry?.view = text("not shown: under the top of the stack")
        screen.homePages = [
            .init(slots: [.init(widgets: [sampleWidget()]), .init(widgets: [top, under])])
        ]
        var inline = sampleWidget(id: 12, kind: "Showtime", family: .accessoryInline)
        inline.entry?.view = text("Coco at 9:30")
        var activity = GlimpseActivityV1.Activity()
        activity.activityId = "A1"
        activity.bundleId = "com.example.pizza"
        activity.attributesType = "PizzaDeliveryAttributes"
        activity.state = .active
        activity.content = .init(stateJson: #"{"eta":10}"#)
        screen.lockScreen = .init(
            widgets: [inline], activities: [.init(activity: activity, presentations: ["lockScreen", "compact"])])
        screen.dynamicIsland = .init(mode: .compact, activityId: "A1")
        screen.unreachableServices = ["timeline"]
        #expect(
            ScreenText.render(screen) == """
                iPhone393x852  393×852 pt  unlocked  2026-01-01T09:00:00Z

                Home Screen
                  page 0
                    slot 0  #7 com.example.cinema / CheckIn systemSmall
                      │ Coco
                      │ [Check in]
                    slot 1  Smart Stack of 2
                      #8 com.example.cinema / Weather systemSmall  (on top)
                        │ Coco
                        │ [Check in]
                      #9 com.example.cinema / Calendar systemSmall

                Lock Screen
                  #12 com.example.cinema / Showtime accessoryInline
                    │ Coco at 9:30
                  A1 com.example.pizza PizzaDeliveryAttributes active (lockScreen, compact)
                    {"eta":10}

                Dynamic Island  compact: A1

                unreachable: timeline (showing the last known state)
                """)
    }

    @Test("an empty, locked screen; the island's other modes")
    func emptyScreen() {
        var screen = GlimpseGatewayV1.Screen()
        screen.locked = true
        let text = ScreenText.render(screen)
        #expect(text.contains("device  locked"))
        #expect(text.contains("Home Screen\n  (no widgets)"))
        #expect(text.contains("Lock Screen\n  (no widgets, no Live Activities)"))
        #expect(text.contains("Dynamic Island  none"))
        #expect(
            ScreenText.dynamicIsland(.init(mode: .minimal, activityId: "A1", detachedActivityId: "B2"))
                == "minimal: A1 (attached), B2 (detached)")
        #expect(
            ScreenText.dynamicIsland(
                .init(mode: .expanded, activityId: "A1", reason: "alert", until: ts("2026-01-01T09:00:08Z")))
                == "expanded: A1 (alert) until 2026-01-01T09:00:08Z")
    }

    @Test("a tap's outcome, the clock, apps, activities, events")
    func others() {
        var tap = GlimpseGatewayV1.TapResponse()
        var perform = GlimpseIntentV1.PerformResponse()
        perform.result = .performed(.init())
        perform.reloadedPlacements = [7]
        tap.result = .performed(perform)
        tap.element = sampleWidget().elements.first
        tap.idempotencyKey = "k1"
        #expect(WidgetText.tap(tap) == "tapped button \"Check in\" (CheckInIntent): performed; reloaded 7\nkey k1")
        tap.result = .openedUrl("cinema://film/coco")
        tap.element = nil
        tap.idempotencyKey = ""
        #expect(WidgetText.tap(tap) == "tapped the widget: opened cinema://film/coco")

        var clock = GlimpseGatewayV1.ClockState(now: ts("2026-01-08T09:00:00Z"), manual: true, frozen: true)
        clock.steps = 14
        clock.events = 30
        #expect(ClockText.state(clock) == "2026-01-08T09:00:00Z  manual, frozen  (14 steps, 30 events)")

        let app = GlimpseGatewayV1.InstalledApp(
            bundleId: "com.example.pizza", displayName: "Pizza", widgetKinds: ["OrderStatus", "Menu"],
            activityAttributes: ["PizzaDeliveryAttributes"], installedAt: ts("2026-01-01T09:00:00Z"))
        #expect(
            AppText.list([app]) == """
                BUNDLE             NAME   WIDGET KINDS      INTENTS  ACTIVITIES               STATE       INSTALLED
                com.example.pizza  Pizza  OrderStatus,Menu  -        PizzaDeliveryAttributes  background  2026-01-01T09:00:00Z
                """)
        #expect(
            AppText.installed(
                .init(bundleId: "com.example.pizza", appToken: "t", widgetKinds: 2, intents: 1, assets: 0))
                == "installed com.example.pizza: 2 widget kinds, 1 intent, 0 assets")

        var activity = GlimpseActivityV1.Activity()
        activity.activityId = "A1"
        activity.bundleId = "com.example.pizza"
        activity.attributesType = "PizzaDeliveryAttributes"
        activity.state = .ended
        activity.content = .init(stateJson: #"{"eta":0}"#)
        #expect(
            ActivityText.list([.init(activity: activity, presentations: ["lockScreen"])]) == """
                ID  BUNDLE             ATTRIBUTES               STATE  SHOWS       CONTENT
                A1  com.example.pizza  PizzaDeliveryAttributes  ended  lockScreen  {"eta":0}
                """)

        let event = GlimpseGatewayV1.Event(
            sequence: 12, at: ts("2026-01-01T09:00:00Z"), kind: "entry_changed",
            bundleId: "com.example.pizza", summary: "placement 7 shows the 09:00 entry")
        #expect(
            EventText.line(event)
                == "12  2026-01-01T09:00:00Z  entry_changed  com.example.pizza  placement 7 shows the 09:00 entry")
    }
}
