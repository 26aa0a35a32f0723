// swift-tools-version:6.1
import PackageDescription

// Glimpse: WidgetKit and ActivityKit's system side as gRPC-wire services.
// The map of the house is in README.md; Proto/ is the contract.

let collections = Target.Dependency.product(name: "Collections", package: "swift-collections")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")

let package = Package(
    name: "Glimpse",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GlimpseClock", targets: ["GlimpseClock"]),
        .library(name: "TimelineEngine", targets: ["TimelineEngine"]),
        .library(name: "IntentEngine", targets: ["IntentEngine"]),
        .library(name: "ActivityEngine", targets: ["ActivityEngine"]),
        .library(name: "AssetEngine", targets: ["AssetEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        // MARK: C libraries (Debian packages; the user's choice, not up for replacement)
        .systemLibrary(
            name: "CNghttp2", pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(
            name: "CProtobufC", pkgConfig: "libprotobuf-c",
            providers: [.apt(["libprotobuf-c-dev"])]),

        // MARK: Time
        .target(name: "GlimpseClock"),

        // MARK: I/O-free engines
        .target(name: "TimelineEngine", dependencies: ["GlimpseClock", collections]),
        .target(name: "IntentEngine", dependencies: ["GlimpseClock", collections]),
        .target(name: "ActivityEngine", dependencies: ["GlimpseClock", collections]),
        .target(name: "AssetEngine", dependencies: ["GlimpseClock", collections, crypto]),

        // MARK: Benchmarks (release builds, apart from tests)
        .executableTarget(
            name: "glimpse-bench-timeline", dependencies: ["TimelineEngine", "GlimpseClock"],
            path: "Benchmarks/TimelineScale"),

        // MARK: Tests
        .testTarget(name: "GlimpseClockTests", dependencies: ["GlimpseClock"]),
        .testTarget(name: "TimelineEngineTests", dependencies: ["TimelineEngine"]),
        .testTarget(name: "IntentEngineTests", dependencies: ["IntentEngine"]),
        .testTarget(name: "ActivityEngineTests", dependencies: ["ActivityEngine"]),
        .testTarget(name: "AssetEngineTests", dependencies: ["AssetEngine"]),
    ],
    swiftLanguageModes: [.v6]
)
