import Foundation
import GlimpseCLI
import GlimpseJSON
import GlimpseMessages
import Testing

@Suite("Manifest loading: JSON and YAML, assets next to the manifest, clear errors")
struct ManifestTests {
    /// A fresh directory with `files` (path → contents) in it.
    static func directory(_ files: [String: [UInt8]]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cli-\(UUID().uuidString)")
            .path
        for (path, bytes) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: full))
        }
        return root
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 9, 9]

    static let json = """
        {
          "bundleId": "com.example.pizza",
          "displayName": "Pizza",
          "widgets": [
            {"kind": "OrderStatus", "supportedFamilies": ["WIDGET_FAMILY_SYSTEM_SMALL", "WIDGET_FAMILY_ACCESSORY_INLINE"]}
          ],
          "activityAttributes": [{"typeName": "PizzaDeliveryAttributes"}],
          "assets": [
            {"name": "posters/margherita", "path": "assets/margherita.png", "use": "USE_WIDGET"},
            {"name": "logo", "path": "logo.jpg", "use": "USE_LIVE_ACTIVITY_MINIMAL"}
          ],
          "defaultEndpoint": "127.0.0.1:9100",
          "supportsFrequentUpdates": true
        }
        """

    static let yaml = """
        # the same app, in YAML
        bundleId: com.example.pizza
        displayName: Pizza
        widgets:
          - kind: OrderStatus
            supportedFamilies: [WIDGET_FAMILY_SYSTEM_SMALL, WIDGET_FAMILY_ACCESSORY_INLINE]
        activityAttributes:
          - typeName: PizzaDeliveryAttributes
        assets:
          - name: posters/margherita
            path: assets/margherita.png
            use: USE_WIDGET
          - {name: logo, path: logo.jpg, use: USE_LIVE_ACTIVITY_MINIMAL}
        defaultEndpoint: "127.0.0.1:9100"
        supportsFrequentUpdates: yes
        """

    @Test("app.json: the manifest, and each asset's bytes read relative to the manifest's directory")
    func json() throws {
        let root = try Self.directory([
            "app/app.json": Array(Self.json.utf8), "app/assets/margherita.png": Self.png, "app/logo.jpg": Self.jpeg,
            // A decoy where the current directory would be: must not be read.
            "assets/margherita.png": [0],
        ])
        let loaded = try ManifestLoader.load(path: root + "/app/app.json")
        #expect(loaded.manifest.bundleId == "com.example.pizza")
        #expect(loaded.manifest.widgets.first?.supportedFamilies == [.systemSmall, .accessoryInline])
        #expect(loaded.manifest.activityAttributes.map(\.typeName) == ["PizzaDeliveryAttributes"])
        #expect(loaded.manifest.supportsFrequentUpdates)
        #expect(loaded.assetData == ["posters/margherita": Self.png, "logo": Self.jpeg])
        #expect(loaded.installRequest.manifest == loaded.manifest)
        #expect(loaded.installRequest.assetData == loaded.assetData)
    }

    @Test("app.yaml is the same document: the same manifest and assets")
    func yaml() throws {
        let root = try Self.directory([
            "app.json": Array(Self.json.utf8), "app.yaml": Array(Self.yaml.utf8),
            "assets/margherita.png": Self.png, "logo.jpg": Self.jpeg,
        ])
        let fromJSON = try ManifestLoader.load(path: root + "/app.json")
        let fromYAML = try ManifestLoader.load(path: root + "/app.yaml")
        #expect(fromYAML.manifest == fromJSON.manifest)
        #expect(fromYAML.assetData == fromJSON.assetData)
    }

    @Test("YAML scalars: quoted ones stay strings, plain ones follow YAML's types")
    func yamlScalars() throws {
        let value = try ManifestLoader.jsonValue(
            fromYAML: """
                a: "123"
                b: 123
                c: 1.5
                d: true
                e: ~
                f: .inf
                g: 2026-01-01T09:00:00Z
                h: [x, 'y']
                """)
        #expect(
            String(decoding: value.serialized(), as: UTF8.self)
                == #"{"a":"123","b":123,"c":1.5,"d":true,"e":null,"f":"Infinity","g":"2026-01-01T09:00:00Z","h":["x","y"]}"#
        )
        // A display name that looks like a number stays the string it is when quoted.
        let manifest = try ManifestLoader.parse(
            Array("bundleId: com.x\ndisplayName: \"2048\"\n".utf8), format: .yaml, file: "app.yaml")
        #expect(manifest.displayName == "2048")
    }

    @Test("YAML integers: the core schema's forms; sexagesimal and out-of-range ones stay text instead of trapping")
    func yamlIntegers() throws {
        let value = try ManifestLoader.jsonValue(
            fromYAML: """
                a: 0x1F
                b: 0o17
                c: -42
                d: +7
                e: 1:20
                f: 2222222222222222222:2
                g: 99999999999999999999
                """)
        #expect(
            String(decoding: value.serialized(), as: UTF8.self)
                == #"{"a":31,"b":15,"c":-42,"d":7,"e":"1:20","f":"2222222222222222222:2","g":"99999999999999999999"}"#)
        // The fuzzer's input, whole: a document that is one such scalar as a key.
        #expect(throws: ManifestLoader.Failure.self) {
            try ManifestLoader.parse(Array(" 2222222222222222222:2".utf8), format: .yaml, file: "app.yaml")
        }
    }

    @Test("the format follows the extension, else the first character")
    func formats() {
        #expect(ManifestLoader.format(of: "app.json", bytes: []) == .json)
        #expect(ManifestLoader.format(of: "app.YML", bytes: []) == .yaml)
        #expect(ManifestLoader.format(of: "manifest", bytes: Array("  {\"bundleId\":\"x\"}".utf8)) == .json)
        #expect(ManifestLoader.format(of: "manifest", bytes: Array("bundleId: x".utf8)) == .yaml)
    }

    @Test(
        "errors name the file and what is wrong",
        arguments: [
            // (manifest, other files, what the message must contain)
            ("missing.json", [String: String](), ["missing.json: cannot read the manifest", "No such file"]),
            ("app.json", ["app.json": "{\"bundleId\": \"x\",}"], ["app.json: invalid JSON"]),
            ("app.json", ["app.json": "{\"bundleId\": \"x\", \"colour\": 1}"], ["app.json:", "colour"]),
            (
                "app.json", ["app.json": "{\"bundleId\": \"x\", \"widgets\": [{\"supportedFamilies\": [\"HUGE\"]}]}"],
                ["app.json:", "widgets[0]", "HUGE"]
            ),
            ("app.json", ["app.json": "[1, 2]"], ["app.json: the manifest must be an object"]),
            (
                "app.json",
                ["app.json": "{\"bundleId\": \"x\", \"assets\": [{\"name\": \"logo\", \"path\": \"art/logo.png\"}]}"],
                [
                    "app.json: assets[0] (\"logo\"): cannot read", "art/logo.png", "No such file",
                    "relative to the manifest's directory",
                ]
            ),
            (
                "app.json", ["app.json": "{\"bundleId\": \"x\", \"assets\": [{\"name\": \"logo\"}]}"],
                ["assets[0] (\"logo\"): the asset has no path"]
            ),
            ("app.yaml", ["app.yaml": "bundleId: x\nwidgets: [\n"], ["app.yaml: invalid YAML"]),
            ("app.yaml", ["app.yaml": ""], ["app.yaml: the document is empty"]),
            (
                "app.yaml", ["app.yaml": "bundleId: x\nwidgets:\n  - kind: K\n    supportedFamilies: [systemSmall]\n"],
                ["widgets[0].supportedFamilies[0]", "(proto3 JSON spells it WIDGET_FAMILY_SYSTEM_SMALL)"]
            ),
        ])
    func errors(manifest: String, files: [String: String], expected: [String]) throws {
        let root = try Self.directory(files.mapValues { Array($0.utf8) })
        let error = try #require(throws: ManifestLoader.Failure.self) {
            try ManifestLoader.load(path: root + "/" + manifest)
        }
        for part in expected {
            #expect(error.description.contains(part), "\(error.description) lacks \(part)")
        }
    }

    @Test("glimpse install with a bad manifest is a usage error (exit 2), before any gateway")
    func installUsage() async throws {
        let root = try Self.directory(["app.json": Array("{\"bundleId\": 7}".utf8)])
        let out = CapturedOutput(), err = CapturedOutput()
        let status = await GlimpseTool.run(
            arguments: ["install", root + "/app.json", "--gateway", "127.0.0.1:1"], output: out, errorOutput: err)
        #expect(status == 2)
        #expect(err.text.hasPrefix("error: " + root + "/app.json: bundleId"))
        #expect(out.text.isEmpty)
    }
}
