// swift-tools-version:6.0
// Seed apps' widget extensions as their articles write them, on GlimpseKit: the articles'
// Swift with only the imports changed (`#if canImport(WidgetKit)`). Built and run by the
// test command (Tests/Peers/test_glimpsekit_examples.py); see docs/swift-app.md.
//
//     swift build
//     GLIMPSE_PORT=7721 GLIMPSE_TOKEN_FILE=token .build/debug/MoviePlanner
//     .build/debug/MoviePlanner manifest --bundle-id com.example.movies --endpoint 127.0.0.1:7721
import PackageDescription

let package = Package(
    name: "SeedWidgets",
    dependencies: [.package(name: "glimpse", path: "../..")],
    targets: [
        // Seed 000: the Pixar film tracker's widget, its intent and its Live Activity.
        .executableTarget(
            name: "PixarTracker", dependencies: [.product(name: "GlimpseKit", package: "glimpse")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Seed 001: a StaticConfiguration with a TimelineProvider.
        .executableTarget(
            name: "MoviePlanner", dependencies: [.product(name: "GlimpseKit", package: "glimpse")],
            swiftSettings: [.swiftLanguageMode(.v5)]),  // the articles' Swift predates Swift 6
        // docs/swift-app.md's app, as the page shows it (Tests/Peers checks they stay alike).
        .executableTarget(
            name: "Counter", dependencies: [.product(name: "GlimpseKit", package: "glimpse")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Seed 003: Lock Screen widgets in the three accessory families.
        .executableTarget(
            name: "DailySteps", dependencies: [.product(name: "GlimpseKit", package: "glimpse")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Seed 004: interactive widgets, Button(intent:) and the App Group's UserDefaults.
        .executableTarget(
            name: "RTLAir", dependencies: [.product(name: "GlimpseKit", package: "glimpse")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Seed 002: a Live Activity with its Dynamic Island, and the app's ActivityKit calls.
        .executableTarget(
            name: "PizzaDelivery", dependencies: [.product(name: "GlimpseKit", package: "glimpse")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
