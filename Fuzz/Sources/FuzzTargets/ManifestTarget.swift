import GlimpseCLI
import GlimpseMessages
import IntentService
import TimelineService
import IntentMapping
import TimelineMapping

extension FuzzTarget {
    /// The manifest loader of `glimpse install` and `glimpse verify` (`ManifestLoader.parse`):
    /// JSON when the text starts with `{`, else YAML (through Yams and libyaml), then
    /// proto3 JSON into `glimpse.app.v1.AppManifest`, then what installing maps it to
    /// (glimpse-timeline's widget kinds, glimpse-intent's intents). A loaded manifest
    /// written as JSON loads again as the same manifest.
    static let manifest = FuzzTarget(name: "manifest") { bytes in
        let format = ManifestLoader.format(of: "app", bytes: bytes)
        guard let manifest = try? ManifestLoader.parse(bytes, format: format, file: "app") else { return }
        let json = manifest.jsonBytes()
        do {
            let again = try ManifestLoader.parse(json, format: .json, file: "app.json")
            expect(again.jsonBytes() == json, "a manifest reads back changed: \(String(decoding: json, as: UTF8.self))")
        } catch {
            finding("a loaded manifest, written as JSON, does not load: \(error)")
        }
        _ = try? manifest.widgetKinds()
        _ = try? manifest.intentDefinitions()
    }
}
