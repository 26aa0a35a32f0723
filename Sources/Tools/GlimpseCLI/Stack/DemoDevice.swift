#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import GlimpseJSON
import GlimpseMessages
import GlimpseVocabulary

/// `Demos/device.json`: the seed demo apps `glimpse up` starts, installs and shows: each
/// app's process port and manifest, the widgets to place and the Live Activities to start
/// (and the template of `glimpse fleet`'s devices, with the elements it taps).
/// In an activity's request, a string "$now", "$now+30m" or "$now-2h" becomes that device
/// instant in seconds since 2001-01-01 (how Swift's JSONEncoder writes a Date), so content
/// states carry dates relative to the moment the stack comes up.
struct DemoDevice: Sendable {
    struct App: Sendable {
        var name: String
        var port: Int
        var manifest: String  // resolved path
        var widgets: [GlimpseGatewayV1.PlaceRequest]  // bundle filled in after install
        /// By widget (as `widgets`): the element `glimpse fleet` taps through the day, if any
        /// (`"tap"` beside the PlaceRequest: an element id, path, intent type or label).
        var taps: [String?]
        var activities: [JSONValue]  // RequestActivityRequest JSON, with $now templates
    }

    var apps: [App]

    static func load(_ path: String) throws(CLIFailure) -> DemoDevice {
        let value: JSONValue
        do { value = try JSONParser.parse(try Files.read(path)) } catch {
            throw CLIFailure.local("cannot read the demo device \(path): \(error)")
        }
        let base = Files.directory(of: path)
        guard case .array(let items)? = value["apps"] else { throw CLIFailure.local("\(path): needs \"apps\": [...]") }
        var apps: [App] = []
        for item in items {
            guard let name = item["name"]?.stringValue, let port = item["port"]?.doubleValue,
                let manifest = item["manifest"]?.stringValue
            else {
                throw CLIFailure.local("\(path): each app needs name, port and manifest")
            }
            var widgets: [GlimpseGatewayV1.PlaceRequest] = []
            var taps: [String?] = []
            if case .array(let places)? = item["widgets"] {
                for var place in places {
                    taps.append(place["tap"]?.stringValue)
                    if case .object(let members) = place { place = .object(members.filter { $0.key != "tap" }) }
                    do { widgets.append(try GlimpseGatewayV1.PlaceRequest(jsonBytes: place.serialized())) } catch {
                        throw CLIFailure.local(
                            "\(path): \(name): widget \(String(decoding: place.serialized(), as: UTF8.self)): \(error)")
                    }
                }
            }
            var activities: [JSONValue] = []
            if case .array(let requests)? = item["activities"] { activities = requests }
            apps.append(
                App(
                    name: name, port: Int(port), manifest: Files.resolve(manifest, against: base),
                    widgets: widgets, taps: taps, activities: activities))
        }
        return DemoDevice(apps: apps)
    }

    /// `--app name=host:port` options (`AppEndpointOptions`) read: by app name, the address its endpoints point at.
    func endpoints(_ specs: [String]) throws(CLIFailure) -> [String: String] {
        var endpoints: [String: String] = [:]
        for spec in specs {
            guard let equals = spec.firstIndex(of: "="), equals != spec.startIndex else {
                throw .usage("--app: expected name=host:port, got \"\(spec)\"")
            }
            let name = String(spec[..<equals])
            guard apps.contains(where: { $0.name == name }) else {
                throw .usage(
                    "--app \(name): no such app in the demo device (\(apps.map(\.name).joined(separator: ", ")))")
            }
            let address = try HostPort(parsing: String(spec[spec.index(after: equals)...]), what: "--app \(name)")
            endpoints[name] = address.description
        }
        return endpoints
    }

    /// The request with every "$now±duration" string replaced by seconds since 2001.
    static func request(_ template: JSONValue, now: Date) throws(CLIFailure) -> GlimpseActivityV1.RequestActivityRequest
    {
        let filled = fill(template, now: now)
        do { return try GlimpseActivityV1.RequestActivityRequest(jsonBytes: filled.serialized()) } catch {
            throw CLIFailure.local("demo activity: \(error)")
        }
    }

    static func fill(_ value: JSONValue, now: Date) -> JSONValue {
        switch value {
        case .string(let text) where text.hasPrefix("$now"):
            let offset = text.dropFirst(4)
            var seconds = 0.0
            if let sign = offset.first, sign == "+" || sign == "-",
                let parsed = try? DurationText.parse(String(offset.dropFirst()))
            {
                seconds = sign == "+" ? parsed : -parsed
            }
            return .number(now.timeIntervalSinceReferenceDate + seconds)
        case .string(let text):
            // A JSON document inside a string (attributes_json, state_json): fill it too.
            if text.hasPrefix("{"), let inner = try? JSONParser.parse(Array(text.utf8)) {
                return .string(String(decoding: fill(inner, now: now).serialized(), as: UTF8.self))
            }
            return value
        case .array(let items):
            return .array(items.map { fill($0, now: now) })
        case .object(let members):
            return .object(members.map { JSONMember($0.key, fill($0.value, now: now)) })
        default:
            return value
        }
    }
}

/// `--app name=host:port`: where a demo app's (or a fleet template app's) endpoints point.
struct AppEndpointOptions: ParsableArguments {
    @Option(
        name: .customLong("app"),
        help: ArgumentHelp(
            "Point an app's endpoints at its process: name=host:port (repeatable; default: the manifest's own).",
            valueName: "name=host:port"))
    var specs: [String] = []
}
