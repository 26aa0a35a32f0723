import Foundation
import Rendering

/// The demo apps' images as the gateway serves them: each manifest's `assets` (name → PNG
/// path) under its bundle id, with the PNG's pixel size and bytes, so goldens embed the
/// same pictures the running stack draws.
enum DemoAssets {
    static let demos = URL(fileURLWithPath: #filePath)  // Tests/Apps/DemoAppsTests/…
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Demos")

    static let all: [AssetKey: AssetImage] = {
        var assets: [AssetKey: AssetImage] = [:]
        for app in ["pixar", "movieplanner", "steps", "rtlair", "pizza"] {
            let folder = demos.appendingPathComponent(app)
            guard let data = try? Data(contentsOf: folder.appendingPathComponent("app.json")),
                let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let bundle = manifest["bundleId"] as? String
            else { continue }
            for entry in manifest["assets"] as? [[String: Any]] ?? [] {
                guard let name = entry["name"] as? String, let path = entry["path"] as? String,
                    let bytes = try? Data(contentsOf: folder.appendingPathComponent(path)),
                    let (width, height) = pngSize(bytes)
                else { continue }
                assets[AssetKey(bundleID: bundle, name: name)] = AssetImage(
                    pixelWidth: width, pixelHeight: height, mediaType: "image/png", data: [UInt8](bytes))
            }
        }
        return assets
    }()

    /// Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian).
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }
}
