#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseMessages
import GlimpseRPC
package import RPCCore
import Synchronization

/// Taps on a widget (`Widgets.Tap`): a Link or the widget itself opens a URL; a Button or
/// Toggle runs its intent through glimpse-intent (`performIntent`, shared with the taps
/// on a Live Activity), and the answer carries the entry the tapped widget's reload brought.
extension Gateway {
    package func tap(_ request: GlimpseGatewayV1.TapRequest) async throws(RPCError) -> GlimpseGatewayV1.TapResponse {
        let placement = try await device.placement(request.placementId)
        let (entry, _) = await device.entry(request.placementId)
        let before = await device.timelineChanges
        let elements = Elements.collect(entry?.view)
        let widgetURL = entry?.widgetUrl ?? ""
        var element = retriedElement(request.idempotencyKey, target: "placement \(placement.placementId)")
        if element == nil {
            element = try Elements.resolve(request.element, in: elements, hasWidgetURL: !widgetURL.isEmpty)
        }
        var response = GlimpseGatewayV1.TapResponse()
        response.element = element

        func openURL(_ url: String) {
            response.result = .openedUrl(url)
            event(
                bundle: placement.bundleId, summary: "opened \(url) in \(placement.bundleId)",
                .urlOpened(.init(placementId: placement.placementId, url: url)))
        }

        switch element?.kind {
        case .link(let url)?:
            openURL(url)
        case nil:
            // The widget itself: its widgetURL, else the app opens at its root.
            openURL(widgetURL.isEmpty ? "\(placement.bundleId)://" : widgetURL)
        case .button?, .toggle?:
            guard let element else { break }
            var perform = GlimpseIntentV1.PerformRequest()
            perform.bundleId = placement.bundleId
            perform.placementId = placement.placementId
            let (performed, key) = try await performIntent(
                perform, of: element, key: request.idempotencyKey, target: "placement \(placement.placementId)")
            response.result = .performed(performed)
            response.idempotencyKey = key
            // The tapped widget reloads once; answer with what that reload brought (a new
            // entry, the same one, or the provider's failure). A replay reloads nothing.
            if performed.reloadedPlacements.contains(placement.placementId), await device.unreachable[.timeline] == nil
            {
                _ = await device.wait(for: .answered(placement.placementId, after: before), timeout: settleTimeout)
            }
        }
        response.widget = try await widget(placement.placementId, detailed: false)
        return response
    }

    /// The element a retried tap (same idempotency key, same target) tapped the first time:
    /// a Toggle flipped by then must send the same value again.
    func retriedElement(_ key: String, target: String) -> GlimpseGatewayV1.Element? {
        guard !key.isEmpty, let (earlier, element) = recentTaps.withLock({ $0.elements[key] }), earlier == target else {
            return nil
        }
        return element
    }

    /// Runs a Button's or Toggle's intent through glimpse-intent (`perform` names the app
    /// and the placement or Live Activity) and logs `intent_performed` before the reloads
    /// the tap causes. Returns the answer and the tap's idempotency key.
    func performIntent(
        _ perform: GlimpseIntentV1.PerformRequest, of element: GlimpseGatewayV1.Element, key: String, target: String
    ) async throws(RPCError) -> (GlimpseIntentV1.PerformResponse, String) {
        var perform = perform
        let intent: GlimpseWidgetV1.IntentInvocation
        switch element.kind {
        case .button(let invocation)?, .toggle(let invocation)?: intent = invocation
        case .link?, nil: throw RPCError(code: .internal, message: "\(element.path) runs no intent")
        }
        perform.idempotencyKey = key.isEmpty ? UUID().uuidString : key
        perform.intentType = intent.intentType
        perform.parameters = intent.parameters
        if case .toggle? = element.kind, perform.parameters["value"] == nil {
            // Toggle(isOn:intent:) sets the intent's `value` to the new state.
            perform.parameters["value"] = GlimpseWidgetV1.ParameterValue(kind: .boolValue(!element.isOn))
        }
        recentTaps.withLock { $0.remember(perform.idempotencyKey, target, element) }
        // The tap's reloads stream in while it runs: the log holds them so that the
        // intent's event comes first, as its cause.
        log.hold()
        defer { log.release() }
        let message = perform
        let performed: GlimpseIntentV1.PerformResponse
        do {
            performed = try await upstreams.call(.intent) { options in
                try await upstreams.intent().perform(ClientRequest(message: message), options: options).message
            }
        } catch {
            // A refusal glimpse-intent answers with a status (the device locked, a family that
            // is not interactive) is a tap that happened: it is in the event log too.
            if let refused = Self.refusal(error) {
                logPerformed(
                    perform, element: element, intent: intent,
                    GlimpseIntentV1.PerformResponse(result: .refused(refused)))
            }
            throw error
        }
        logPerformed(perform, element: element, intent: intent, performed)
        return (performed, perform.idempotencyKey)
    }

    /// The refusal an error from glimpse-intent's Perform stands for, if it is one.
    static func refusal(_ error: RPCError) -> GlimpseIntentV1.PerformResponse.Refused? {
        guard let reason = error.reason(as: GlimpseIntentV1.Refusal.self) else { return nil }
        return GlimpseIntentV1.PerformResponse.Refused(reason: reason, message: error.message)
    }

    private func logPerformed(
        _ perform: GlimpseIntentV1.PerformRequest, element: GlimpseGatewayV1.Element,
        intent: GlimpseWidgetV1.IntentInvocation, _ performed: GlimpseIntentV1.PerformResponse
    ) {
        let outcome: String =
            switch performed.result {
            case .performed?: performed.replayed ? "replayed" : "performed"
            case .failed(let failed)?: "failed: \(failed.message)"
            case .refused(let refused)?: "refused: \(refused.message)"
            case nil: "no result"
            }
        let elementName = element.id.isEmpty ? element.path : element.id
        var detail = GlimpseGatewayV1.Event.IntentPerformed()
        detail.placementId = perform.placementId
        detail.activityId = perform.activityId
        detail.element = elementName
        detail.intentType = intent.intentType
        detail.response = performed
        let tapped = perform.activityId.isEmpty ? "\(perform.placementId)" : "Live Activity \(perform.activityId)"
        log.append(
            GlimpseGatewayV1.Event(
                at: now(), bundleID: perform.bundleId,
                summary: "tap \(tapped)/\(elementName): \(intent.intentType) \(outcome)",
                detail: .intentPerformed(detail)), source: .gateway, leads: true)
    }
}
