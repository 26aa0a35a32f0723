package import GlimpseJSON
package import GlimpseMessages
import Yams

/// An app manifest as `glimpse install` reads it: `app.json` (the proto3 JSON of
/// glimpse.app.v1.AppManifest) or `app.yaml` (the same document in YAML), with each
/// declared asset's bytes read from its `path`, relative to the manifest's directory.
package struct LoadedManifest: Sendable {
    package var path: String
    package var manifest: GlimpseAppV1.AppManifest
    /// Asset bytes by asset name.
    package var assetData: [String: [UInt8]]

    package var installRequest: GlimpseGatewayV1.InstallRequest {
        GlimpseGatewayV1.InstallRequest(manifest: manifest, assetData: assetData)
    }
}

package enum ManifestLoader {
    package enum Format: Sendable { case json, yaml }

    /// Why a manifest could not be loaded; `description` is the whole message, starting
    /// with the file it is about.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        package var file: String
        package var reason: String
        package var description: String { "\(file): \(reason)" }
    }

    /// By extension: `.json`; `.yaml`/`.yml`; otherwise JSON when the text starts with `{`.
    package static func format(of path: String, bytes: [UInt8]) -> Format {
        let lower = path.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .yaml }
        let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        return first == UInt8(ascii: "{") ? .json : .yaml
    }

    package static func load(path: String) throws(Failure) -> LoadedManifest {
        let bytes: [UInt8]
        do { bytes = try Files.read(path) } catch {
            throw Failure(file: path, reason: "cannot read the manifest: \(error.reason)")
        }
        let manifest = try parse(bytes, format: format(of: path, bytes: bytes), file: path)
        let directory = Files.directory(of: path)
        var assets: [String: [UInt8]] = [:]
        for (index, asset) in manifest.assets.enumerated() {
            let label = "assets[\(index)]" + (asset.name.isEmpty ? "" : " (\"\(asset.name)\")")
            guard !asset.name.isEmpty else { throw Failure(file: path, reason: "\(label): the asset has no name") }
            guard !asset.path.isEmpty else { throw Failure(file: path, reason: "\(label): the asset has no path") }
            guard assets[asset.name] == nil else {
                throw Failure(file: path, reason: "\(label): the name \"\(asset.name)\" is declared twice")
            }
            let file = Files.resolve(asset.path, against: directory)
            do {
                assets[asset.name] = try Files.read(file)
            } catch {
                throw Failure(
                    file: path,
                    reason:
                        "\(label): cannot read \(file) (\(error.reason)); asset paths are relative to the manifest's directory"
                )
            }
        }
        return LoadedManifest(path: path, manifest: manifest, assetData: assets)
    }

    /// The manifest in `bytes`; `file` names it in errors.
    package static func parse(
        _ bytes: [UInt8], format: Format, file: String
    ) throws(Failure) -> GlimpseAppV1.AppManifest {
        let value: JSONValue
        switch format {
        case .json:
            do { value = try JSONParser.parse(bytes) } catch { throw Failure(file: file, reason: error.description) }
        case .yaml:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Failure(file: file, reason: "not UTF-8 text")
            }
            do { value = try jsonValue(fromYAML: text) } catch { throw Failure(file: file, reason: error.description) }
        }
        guard value.isObject else {
            throw Failure(file: file, reason: "the manifest must be an object (bundleId, widgets, …)")
        }
        do {
            return try GlimpseAppV1.AppManifest(protoJSONValue: value, path: "", ignoringUnknownFields: false)
        } catch {
            throw Failure(file: file, reason: error.description + familyHint(error.description))
        }
    }

    /// proto3 JSON names enum values as the proto does (WIDGET_FAMILY_SYSTEM_SMALL); a
    /// family written as WidgetKit spells it gets the spelling to use.
    static func familyHint(_ message: String) -> String {
        guard message.contains("glimpse.widget.v1.WidgetFamily"),
            let open = message.firstIndex(of: "\""),
            let close = message[message.index(after: open)...].firstIndex(of: "\""),
            let family = try? FamilyName.parse(String(message[message.index(after: open)..<close]))
        else { return "" }
        var snake = ""
        for character in FamilyName.name(family) {
            if character.isUppercase { snake += "_" }
            snake += character.uppercased()
        }
        return " (proto3 JSON spells it WIDGET_FAMILY_\(snake))"
    }

    package struct YAMLFailure: Error, Hashable, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// A YAML document as the JSON value it stands for: plain scalars by YAML's core
    /// schema (null, bools, ints, floats; anything else a string), quoted scalars strings,
    /// `.inf`/`.nan` as proto3 JSON's "Infinity"/"NaN".
    package static func jsonValue(fromYAML text: String) throws(YAMLFailure) -> JSONValue {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw YAMLFailure(description: "invalid YAML: \(error)") }
        guard let root else { throw YAMLFailure(description: "the document is empty") }
        return try jsonValue(root, path: "")
    }

    /// An integer as YAML 1.2's core schema writes one (`[-+]?[0-9]+`, `0o…`, `0x…`); nil for
    /// anything else, or past Int's range.
    static func coreSchemaInt(_ text: String) -> Int? {
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text, radix: 10)  // takes a leading + or -, refuses the rest
    }

    static func jsonValue(_ node: Node, path: String) throws(YAMLFailure) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue:
                guard let bool = node.bool else { return .string(scalar.string) }
                return .bool(bool)
            case Tag.Name.int.rawValue:
                // Read here, not by Yams (`node.int`): its YAML 1.1 sexagesimal reading ("1:20" is 80)
                // traps on overflow ("2222222222222222222:2", found by fuzzing). An integer past Int's
                // range stays its text, which the manifest's reader then refuses by field.
                guard let int = coreSchemaInt(scalar.string) else { return .string(scalar.string) }
                return .number(int)
            case Tag.Name.float.rawValue:
                guard !scalar.string.contains(":"), let double = node.float else { return .string(scalar.string) }
                if double.isNaN { return .string("NaN") }
                if double.isInfinite { return .string(double < 0 ? "-Infinity" : "Infinity") }
                return .number(double)
            default:
                return .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for (index, item) in sequence.enumerated() { items.append(try jsonValue(item, path: "\(path)[\(index)]")) }
            return .array(items)
        case .mapping(let mapping):
            var members: [JSONMember] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw YAMLFailure(
                        description: "\(path.isEmpty ? "the document" : path): a mapping key must be a plain value")
                }
                let name = keyScalar.string
                members.append(JSONMember(name, try jsonValue(value, path: path.isEmpty ? name : "\(path).\(name)")))
            }
            return .object(members)
        case .alias:
            throw YAMLFailure(description: "\(path.isEmpty ? "the document" : path): unresolved alias")
        }
    }
}
