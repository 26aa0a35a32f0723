#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
package import RPCCore

extension Gateway {
    /// Applies the given settings, each at the service whose rules it changes: locked at
    /// glimpse-intent (interactive widgets are inactive), Low Power Mode, locale and
    /// Dynamic Type at glimpse-timeline, an app's Live Activities switches at
    /// glimpse-activity. The device keeps them only once the services took them.
    package func updateSettings(
        _ request: GlimpseGatewayV1.UpdateSettingsRequest
    ) async throws(RPCError) -> GlimpseGatewayV1.Settings {
        log.hold()
        defer { log.release() }
        if let locked = request.locked {
            _ = try await upstreams.call(.intent) { options in
                try await upstreams.intent().setDeviceLocked(
                    ClientRequest(message: .init(locked: locked)), options: options)
            }
        }
        if request.lowPowerMode != nil || request.locale != nil || request.dynamicTypeSize != nil {
            var timeline = GlimpseTimelineV1.SetDeviceSettingsRequest()
            timeline.lowPowerMode = request.lowPowerMode
            timeline.locale = request.locale
            timeline.dynamicTypeSize = request.dynamicTypeSize
            _ = try await upstreams.call(.timeline) { options in
                try await upstreams.timeline().setDeviceSettings(ClientRequest(message: timeline), options: options)
            }
        }
        var switches: GlimpseActivityV1.AuthorizationInfo?
        if request.liveActivitiesEnabled != nil || request.frequentUpdatesEnabled != nil {
            guard await device.app(request.bundleId) != nil else {
                throw RPCError(
                    code: .notFound,
                    message:
                        "bundle_id: \(request.bundleId.isEmpty ? "required with an app's switches" : "\(request.bundleId) is not installed")"
                )
            }
            var activity = GlimpseActivityV1.SetAppSwitchesRequest()
            activity.bundleId = request.bundleId
            activity.activitiesEnabled = request.liveActivitiesEnabled
            activity.frequentUpdatesEnabled = request.frequentUpdatesEnabled
            switches = try await upstreams.call(.activity) { options in
                try await upstreams.activity().setAppSwitches(ClientRequest(message: activity), options: options)
                    .message
            }
        }
        let settings: GlimpseGatewayV1.Settings
        do {
            settings = try await device.updateSettings { settings in
                if let locked = request.locked { settings.locked = locked }
                if let low = request.lowPowerMode { settings.lowPowerMode = low }
                if let locale = request.locale { settings.locale = locale }
                if let size = request.dynamicTypeSize { settings.dynamicTypeSize = size }
                if let switches { settings.appSwitches[request.bundleId] = switches }
            }
        } catch {
            throw RPCError(code: .internal, message: "the device store: \(error)")
        }
        event(summary: "settings: " + Self.describe(request), .settingsChanged(.init(settings: settings)))
        return settings
    }

    static func describe(_ request: GlimpseGatewayV1.UpdateSettingsRequest) -> String {
        var parts: [String] = []
        if let locked = request.locked { parts.append(locked ? "locked" : "unlocked") }
        if let low = request.lowPowerMode { parts.append("Low Power Mode \(low ? "on" : "off")") }
        if let locale = request.locale { parts.append("locale \(locale)") }
        if let size = request.dynamicTypeSize { parts.append("Dynamic Type \(size)") }
        if let on = request.liveActivitiesEnabled {
            parts.append("\(request.bundleId) Live Activities \(on ? "on" : "off")")
        }
        if let on = request.frequentUpdatesEnabled {
            parts.append("\(request.bundleId) frequent updates \(on ? "on" : "off")")
        }
        return parts.isEmpty ? "unchanged" : parts.joined(separator: ", ")
    }

    /// Uninstalls every app and puts the settings back.
    package func reset() async throws(RPCError) -> GlimpseGatewayV1.ResetResponse {
        let bundles = await device.apps.keys.sorted()
        for bundle in bundles { _ = try await uninstall(bundle) }
        let defaults = DeviceState.defaultSettings
        var request = GlimpseGatewayV1.UpdateSettingsRequest()
        request.locked = false
        request.lowPowerMode = false
        request.locale = defaults.locale
        request.dynamicTypeSize = defaults.dynamicTypeSize
        _ = try await updateSettings(request)
        do { try await device.reset() } catch {
            throw RPCError(code: .internal, message: "the device store: \(error)")
        }
        return .init(uninstalledApps: UInt32(bundles.count))
    }
}
