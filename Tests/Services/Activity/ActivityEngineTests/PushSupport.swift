#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import ActivityEngine
import EngineTesting
import GlimpseJSON
import GlimpseVocabulary

/// An APNs body `{"aps": {...}}` with the given `aps` members (nil values left out).
func pushBody(_ aps: [(String, JSONValue?)]) -> [UInt8] {
    JSONValue.object([JSONMember("aps", .object(aps.compactMap { k, v in v.map { JSONMember(k, $0) } }))]).serialized()
}

func seconds(_ date: Date) -> JSONValue { .number(date.timeIntervalSince1970) }

func updateBody(
    at timestamp: Date, state: JSONValue = ["driverName": "John"], staleDate: Date? = nil,
    alert: JSONValue? = nil, relevance: Double? = nil
) -> [UInt8] {
    pushBody([
        ("timestamp", seconds(timestamp)), ("event", "update"), ("content-state", state),
        ("stale-date", staleDate.map(seconds)), ("alert", alert),
        ("relevance-score", relevance.map { .number($0) }),
    ])
}

func endBody(at timestamp: Date, state: JSONValue? = nil, dismissalDate: Date? = nil) -> [UInt8] {
    pushBody([
        ("timestamp", seconds(timestamp)), ("event", "end"), ("content-state", state),
        ("dismissal-date", dismissalDate.map(seconds)),
    ])
}

func startBody(
    at timestamp: Date, type: String = Harness.pizzaType,
    alert: JSONValue? = ["title": "Order placed", "body": "Tim is on the way"],
    attributes: JSONValue? = ["numberOfPizzas": 1, "totalAmount": "$99"],
    state: JSONValue? = ["driverName": "Tim"], extra: [(String, JSONValue?)] = []
) -> [UInt8] {
    pushBody(
        [
            ("timestamp", seconds(timestamp)), ("event", "start"), ("content-state", state),
            ("attributes-type", .string(type)), ("attributes", attributes), ("alert", alert),
        ] + extra)
}

let pizzaHeaders10 = LiveActivityPushHeaders(app: Harness.pizzaApp, priority: 10)
let pizzaHeaders5 = LiveActivityPushHeaders(app: Harness.pizzaApp, priority: 5)

extension Harness {
    /// A pizza activity with its update token already issued.
    mutating func pushablePizza(relevance: Double = 0) throws -> (ActivityID, PushToken) {
        let id = try requestPizza(relevance: relevance, pushType: .token)
        try advance(by: 0)
        guard let token = engine.activity(id)?.pushToken else { throw HarnessError.noToken }
        return (id, token)
    }

    mutating func push(
        _ body: [UInt8], to token: PushToken, headers: LiveActivityPushHeaders = pizzaHeaders10
    ) -> PushOutcome {
        engine.receivePush(headers: headers, deviceToken: token, body: body)
    }
}

enum HarnessError: Error { case noToken }
