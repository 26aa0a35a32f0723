@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import Testing

@Suite struct PizzaDeliveryTests {
    /// Seconds since 2001-01-01, as JSONEncoder writes a Date by default.
    static let eta = start.timeIntervalSinceReferenceDate

    func request(state: String, stale: Bool = false) -> GlimpseAppV1.ActivityViewsRequest {
        var request = GlimpseAppV1.ActivityViewsRequest(activityId: "A1", attributesType: "PizzaDeliveryAttributes")
        request.attributesJson = #"{"numberOfPizzas":2,"totalAmount":"$99"}"#
        request.stateJson = state
        request.isStale = stale
        request.now = .init(date: start)
        return request
    }

    @Test func theContentStateDecodesDatesAsSecondsSince2001() throws {
        let json =
            #"{"driverName":"Tim","estimatedDeliveryTime":[\#(Self.eta),\#(Self.eta + 900)],"status":"onTheWay"}"#
        let state = try JSONDecoder().decode(PizzaDeliveryAttributes.ContentState.self, from: Data(json.utf8))
        #expect(state.estimatedDeliveryTime == start...start.addingTimeInterval(900))
        #expect(state.status == .onTheWay)
        // What JSONEncoder writes is what the views read.
        let encoded = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(PizzaDeliveryAttributes.ContentState.self, from: encoded) == state)
        #expect(String(decoding: encoded, as: UTF8.self).contains("\(Int(Self.eta))"))
        // The article's two-field state still decodes: on the way.
        let original = #"{"driverName":"Tim","estimatedDeliveryTime":[\#(Self.eta),\#(Self.eta + 900)]}"#
        #expect(
            try JSONDecoder().decode(PizzaDeliveryAttributes.ContentState.self, from: Data(original.utf8)).status
                == .onTheWay)
    }

    @Test func everyPresentationHasAView() throws {
        let state =
            #"{"driverName":"Tim","estimatedDeliveryTime":[\#(Self.eta),\#(Self.eta + 900)],"status":"onTheWay"}"#
        let views = try PizzaDeliveryActivityWidget().views(for: request(state: state))
        let lock = try #require(views.lockScreen)
        #expect(lock.texts == ["Tim is on the way!", "2 🍕", "You've already paid: $99 + $9.9 Delivery Fee 💸"])
        #expect(lock.images == ["Tim"] && lock.symbols == ["box.truck.badge.clock.fill", "house.fill"])
        let timers = lock.all.compactMap { if case .timerText(let t)? = $0.kind { t } else { nil } }
        #expect(
            timers.first?.timerInterval?.end == .init(date: start.addingTimeInterval(900))
                && timers.first?.countsDown == true)

        let island = try #require(views.dynamicIsland)
        let regions: [String: GlimpseWidgetV1.View?] = [
            "expandedLeading": island.expandedLeading?.view, "expandedTrailing": island.expandedTrailing?.view,
            "expandedCenter": island.expandedCenter?.view, "expandedBottom": island.expandedBottom?.view,
            "compactLeading": island.compactLeading, "compactTrailing": island.compactTrailing,
            "minimal": island.minimal,
        ]
        for (name, view) in regions {
            #expect(view.map { !$0.isEmpty && !$0.all.isEmpty } == true, "\(name) is missing")
        }
        #expect(island.expandedLeading?.view?.texts == ["2 Pizzas"])
        #expect(island.expandedCenter?.view?.texts == ["Tim is on his way!"])
        #expect(island.expandedBottom?.view?.texts == ["Contact driver"])
        #expect(island.compactLeading?.symbols == ["bag"])
        #expect(island.minimal?.symbols == ["timer"])
        #expect(island.keylineTint == .system(.accentColor))
    }

    @Test func aNewDriverChangesTheAvatarAndTheHeadline() throws {
        let state = #"{"driverName":"John","estimatedDeliveryTime":[\#(Self.eta),\#(Self.eta + 3600)]}"#
        let views = try PizzaDeliveryActivityWidget().views(for: request(state: state, stale: true))
        #expect(views.lockScreen?.images == ["John"])
        #expect(views.lockScreen?.texts.first == "John is on the way!")
        #expect(views.lockScreen?.texts.last == "Waiting for the latest from John…")
    }

    @Test func deliveredShowsNoCountdown() throws {
        let state = #"{"driverName":"John","estimatedDeliveryTime":[\#(Self.eta),\#(Self.eta)],"status":"delivered"}"#
        let views = try PizzaDeliveryActivityWidget().views(for: request(state: state))
        #expect(views.dynamicIsland?.compactTrailing?.texts == ["Delivered"])
        #expect(views.lockScreen?.texts.first == "Delivered. Enjoy! 🍕")
    }

    @Test func datesAsUnixSecondsOrStringsAreRefusedClearly() throws {
        let bad = #"{"driverName":"Tim","estimatedDeliveryTime":"2026-01-01T09:15:00Z"}"#
        #expect(throws: (any Error).self) { try PizzaDeliveryActivityWidget().views(for: request(state: bad)) }
    }
}
