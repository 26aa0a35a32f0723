// swift-tools-version:6.2
import PackageDescription

// Glimpse: WidgetKit and ActivityKit's system side as gRPC-wire services.
// The map of the house is in README.md; Proto/ is the contract.

let collections = Target.Dependency.product(name: "Collections", package: "swift-collections")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioEmbedded = Target.Dependency.product(name: "NIOEmbedded", package: "swift-nio")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")

let package = Package(
    name: "Glimpse",
    platforms: [.macOS(.v15)],
    products: [
        // What a user's own Swift code links to talk to Glimpse: the messages, their JSON, the
        // gRPC layer and the generated clients. Everything else is `package`: the services'
        // insides are not an API.
        .library(name: "GlimpseMessages", targets: ["GlimpseMessages"]),
        .library(name: "GlimpseJSON", targets: ["GlimpseJSON"]),
        .library(name: "GlimpseRPC", targets: ["GlimpseRPC"]),
        .library(name: "RPCCore", targets: ["RPCCore"]),
        .library(name: "RPCNIO", targets: ["RPCNIO"]),
        // A widget extension's logic in WidgetKit's, App Intents' and ActivityKit's shapes.
        .library(name: "GlimpseKit", targets: ["GlimpseKit"]),
        .executable(name: "glimpse", targets: ["glimpse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // A service's journal and snapshots in PostgreSQL (`--store postgres://…`), leased by an advisory lock.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
    ],
    targets: [
        // Targets by area; each area is a folder (README.md has the map):
        //   Sources/System     the C libraries (Debian packages; the user's choice)
        //   Sources/Generated  C generated from Proto/ by Proto/generate.sh (never edited by hand)
        //   Sources/Wire       bytes on the wire: JSON, messages, gRPC over HTTP/2, plain HTTP/2
        //   Sources/Domain     the one vocabulary, its wire mapping, rendering (I/O-free)
        //   Sources/Hosting    the one engine host and the one service kit
        //   Services/<Name>    one service each: Engine (I/O-free), Service (handlers, store), Main
        //   Sources/Apps       the five seed apps as demos
        //   Sources/Tools      the `glimpse` command, contracts, gRPC interop client and server
        // Tests/ mirrors the areas; Tests/Peers holds the Python peers (pytest).

        // MARK: System: C libraries
        .systemLibrary(
            name: "CNghttp2", path: "Sources/System/CNghttp2", pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(
            name: "CProtobufC", path: "Sources/System/CProtobufC", pkgConfig: "libprotobuf-c",
            providers: [.apt(["libprotobuf-c-dev"])]),

        // MARK: Generated: protoc-c's C for Proto/ (and grpc.testing for interop)
        .target(name: "GlimpseProtoC", dependencies: ["CProtobufC"], path: "Sources/Generated/GlimpseProtoC"),
        .target(
            name: "GlimpseInteropProtoC", dependencies: ["CProtobufC"], path: "Sources/Generated/GlimpseInteropProtoC"),

        // MARK: Wire
        // JSON that keeps numbers as written, member order and exact bytes (the 4 KB rule).
        .target(name: "GlimpseJSON", path: "Sources/Wire/GlimpseJSON"),
        // The messages as Swift value types over protobuf-c (Generated/ from Proto/, Runtime/ by hand).
        .target(
            name: "GlimpseMessages", dependencies: ["GlimpseProtoC", "CProtobufC", "GlimpseJSON"],
            path: "Sources/Wire/GlimpseMessages"),
        // gRPC over HTTP/2: an I/O-free core, and nghttp2 under SwiftNIO behind it.
        .target(name: "RPCCore", path: "Sources/Wire/RPCCore"),
        // HTTP/1.1 (NIOHTTP1) only for the JSON face of a service on the gRPC port.
        // What a browser gets beside the JSON routes: static files with entity tags, the request
        // in a query string, server-sent events (I/O-free; RPCNIO's HTTP/1.1 connection serves it).
        .target(name: "Web", dependencies: ["RPCCore"], path: "Sources/Wire/Web"),
        .target(
            name: "RPCNIO",
            dependencies: [
                "RPCCore", "Web", "CNghttp2", nioCore, nioPosix, .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/Wire/RPCNIO"),
        // Generated messages on the wire: protobuf-c (de)serializers, service stubs, error details.
        .target(
            name: "GlimpseRPC", dependencies: ["GlimpseMessages", "GlimpseJSON", "RPCCore"],
            path: "Sources/Wire/GlimpseRPC"),
        // Plain HTTP/2 (not gRPC) on the same nghttp2 pieces, h2c and TLS: the APNs-style endpoint.
        .target(
            name: "HTTP2",
            dependencies: [
                "RPCNIO", "RPCCore", "CNghttp2", nioCore, nioPosix, crypto,
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/Wire/HTTP2"),
        .testTarget(name: "GlimpseJSONTests", dependencies: ["GlimpseJSON"], path: "Tests/Wire/GlimpseJSONTests"),
        .testTarget(
            name: "GlimpseMessagesTests",
            dependencies: [
                "GlimpseMessages", "GlimpseTestMessages", "CHeapProbe", "GlimpseJSON", "GlimpseRPC", "RPCCore",
            ],
            path: "Tests/Wire/GlimpseMessagesTests", exclude: ["Golden", "JSONGolden"]),
        .testTarget(
            name: "RPCCoreTests", dependencies: ["RPCCore", "RPCTestService"], path: "Tests/Wire/RPCCoreTests"),
        .testTarget(
            name: "RPCNIOTests",
            dependencies: ["RPCCore", "RPCNIO", "Web", "RPCTestService", "CNghttp2", nioCore, nioPosix, nioEmbedded],
            path: "Tests/Wire/RPCNIOTests"),
        .testTarget(name: "WebTests", dependencies: ["Web", "RPCCore"], path: "Tests/Wire/WebTests"),
        .testTarget(
            name: "HTTP2Tests",
            dependencies: [
                "HTTP2", "RPCNIO", nioCore, nioPosix,
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Wire/HTTP2Tests"),

        // MARK: Domain: one vocabulary (identifiers, families, the device, the engine shape, time)
        // Identifiers, families, the device screen, the engine shape, the clocks (Clock/), App
        // Intent parameters and values (IntentValues/, shared by configuration and action intents).
        .target(name: "GlimpseVocabulary", path: "Sources/Domain/GlimpseVocabulary"),
        // The wire's messages as the vocabulary's values, checked field by field.
        .target(
            name: "ProtoMapping", dependencies: ["GlimpseMessages", "GlimpseVocabulary", "RPCCore"],
            path: "Sources/Domain/ProtoMapping"),
        // View trees laid out at the device's real sizes; text, SVG and layout outputs (I/O-free).
        .target(
            name: "Rendering", dependencies: ["GlimpseMessages", "GlimpseVocabulary", "ProtoMapping"],
            path: "Sources/Domain/Rendering"),
        .testTarget(
            name: "GlimpseVocabularyTests", dependencies: ["GlimpseVocabulary", "EngineTesting"],
            path: "Tests/Domain/GlimpseVocabularyTests"),
        .testTarget(
            name: "ProtoMappingTests",
            dependencies: ["ProtoMapping", "GlimpseMessages", "GlimpseVocabulary", "RPCCore"],
            path: "Tests/Domain/ProtoMappingTests"),
        .testTarget(
            name: "RenderingTests", dependencies: ["Rendering", "GlimpseMessages", "GlimpseVocabulary", "GoldenFiles"],
            path: "Tests/Domain/RenderingTests", exclude: ["Golden"]),

        // MARK: Hosting: the one engine host (journal in SQLite via GRDB, replay, timer, manual
        // clock) and the one service kit (health, reflection, config, lifecycle, metrics)
        .target(
            name: "EngineHosting",
            dependencies: ["GlimpseVocabulary", grdb], path: "Sources/Hosting/EngineHosting"),
        .target(
            name: "ServiceKit",
            dependencies: [
                "GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO", "Web", "EngineHosting", "ProtoMapping",
                "GlimpseVocabulary",
                argumentParser, nioCore, nioPosix,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Sources/Hosting/ServiceKit"),
        // A journal in PostgreSQL (`--store postgres://…`), leased to one replica at a time: only
        // the services' executables link it (the engines, their tests and the fuzz build do not).
        .target(
            name: "PostgresStore",
            dependencies: [
                "EngineHosting", "ServiceKit", argumentParser, nioCore, nioPosix,
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Sources/Hosting/PostgresStore"),
        .testTarget(
            name: "PostgresStoreTests", dependencies: ["PostgresStore"], path: "Tests/Hosting/PostgresStoreTests"),
        .testTarget(
            name: "EngineHostingTests", dependencies: ["EngineHosting", "EngineHostToys", "GlimpseVocabulary", grdb],
            path: "Tests/Hosting/EngineHostingTests"),
        .testTarget(
            name: "ServiceKitTests",
            dependencies: [
                "ServiceKit", "EngineHosting", "EngineHostToys", "GlimpseInterop", "GlimpseMessages", "GlimpseRPC",
                "RPCCore", "RPCNIO", argumentParser,
                nioCore, nioPosix, .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Hosting/ServiceKitTests"),

        // MARK: Services: glimpse-timeline (timeline scheduling, reload budgets)
        .target(
            name: "TimelineEngine", dependencies: ["GlimpseVocabulary", collections],
            path: "Services/Timeline/Engine"),
        // The wire's fields as the engine's values, each bad field named (I/O-free; also what
        // `glimpse verify` checks an app with).
        .target(
            name: "TimelineMapping",
            dependencies: ["TimelineEngine", "ProtoMapping", "GlimpseMessages", "GlimpseVocabulary"],
            path: "Services/Timeline/Mapping"),
        .target(
            name: "TimelineService",
            dependencies: [
                "TimelineEngine", "TimelineMapping", "EngineHosting", "ServiceKit", "ProtoMapping", "GlimpseMessages",
                "GlimpseRPC",
                "GlimpseVocabulary", "RPCCore", "RPCNIO", collections,
            ],
            path: "Services/Timeline/Service"),
        .executableTarget(
            name: "glimpse-timeline",
            dependencies: [
                "TimelineService", "TimelineEngine", "EngineHosting", "ServiceKit", "PostgresStore", "GlimpseMessages",
                "GlimpseRPC", argumentParser,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/Timeline/Main"),
        .testTarget(
            name: "TimelineEngineTests",
            dependencies: [
                "TimelineEngine", "IntentEngine", "GlimpseVocabulary", "EngineTesting",
            ],
            path: "Tests/Services/Timeline/TimelineEngineTests"),
        .testTarget(
            name: "TimelineServiceTests",
            dependencies: [
                "TimelineService", "TimelineMapping", "TimelineEngine", "EngineHosting", "ProtoMapping",
                "GlimpseMessages", "GlimpseVocabulary", "RPCCore", "ServiceKit",
            ],
            path: "Tests/Services/Timeline/TimelineServiceTests"),

        // MARK: Services: glimpse-intent (taps, refusals, the App Group store)
        .target(
            name: "IntentEngine", dependencies: ["GlimpseVocabulary", collections],
            path: "Services/Intent/Engine"),
        .target(
            name: "IntentMapping",
            dependencies: ["IntentEngine", "ProtoMapping", "GlimpseMessages", "GlimpseVocabulary"],
            path: "Services/Intent/Mapping"),
        .target(
            name: "IntentService",
            dependencies: [
                "IntentEngine", "IntentMapping", "EngineHosting", "ServiceKit", "ProtoMapping", "GlimpseMessages",
                "GlimpseRPC",
                "GlimpseVocabulary", "RPCCore", "RPCNIO",
            ],
            path: "Services/Intent/Service"),
        .executableTarget(
            name: "glimpse-intent",
            dependencies: [
                "IntentService", "IntentEngine", "EngineHosting", "ServiceKit", "PostgresStore", "GlimpseMessages",
                "GlimpseRPC", argumentParser,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/Intent/Main"),
        .testTarget(
            name: "IntentEngineTests",
            dependencies: ["IntentEngine", "GlimpseVocabulary", "EngineTesting"],
            path: "Tests/Services/Intent/IntentEngineTests"),
        .testTarget(
            name: "IntentServiceTests",
            dependencies: [
                "IntentService", "IntentMapping", "IntentEngine", "EngineHosting", "ProtoMapping", "GlimpseMessages",
                "GlimpseVocabulary", "RPCCore", "ServiceKit",
            ],
            path: "Tests/Services/Intent/IntentServiceTests"),

        // MARK: Services: glimpse-activity (Live Activities, the APNs endpoint)
        .target(
            name: "ActivityEngine", dependencies: ["GlimpseVocabulary", "GlimpseJSON", collections],
            path: "Services/Activity/Engine"),
        .target(
            name: "ActivityMapping",
            dependencies: ["ActivityEngine", "ProtoMapping", "GlimpseMessages", "GlimpseVocabulary", "GlimpseJSON"],
            path: "Services/Activity/Mapping"),
        .target(
            name: "ActivityService",
            dependencies: [
                "ActivityEngine", "ActivityMapping", "EngineHosting", "GlimpseVocabulary", "GlimpseJSON",
                "GlimpseMessages", "GlimpseRPC",
                "HTTP2", "ProtoMapping", "RPCCore", "ServiceKit", collections, crypto, nioCore,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/Activity/Service"),
        .executableTarget(
            name: "glimpse-activity",
            dependencies: [
                "ActivityService", "ActivityEngine", "EngineHosting", "GlimpseMessages", "GlimpseRPC", "HTTP2",
                "ServiceKit", "PostgresStore", argumentParser, crypto, .product(name: "Logging", package: "swift-log"),
            ],
            path: "Services/Activity/Main"),
        .testTarget(
            name: "ActivityEngineTests",
            dependencies: ["ActivityEngine", "GlimpseJSON", "GlimpseVocabulary", "EngineTesting"],
            path: "Tests/Services/Activity/ActivityEngineTests"),
        .testTarget(
            name: "ActivityServiceTests",
            dependencies: [
                "ActivityService", "ActivityMapping", "ActivityEngine", "EngineHosting", "GlimpseVocabulary",
                "GlimpseJSON", "GlimpseMessages",
                "ServiceKit", crypto,
            ],
            path: "Tests/Services/Activity/ActivityServiceTests"),

        // MARK: Services: glimpse-asset (the apps' images, an LRU under a byte budget)
        .target(
            name: "AssetEngine", dependencies: ["GlimpseVocabulary", collections, crypto],
            path: "Services/Asset/Engine"),
        .target(
            name: "AssetMapping",
            dependencies: ["AssetEngine", "ProtoMapping", "GlimpseMessages", "GlimpseVocabulary", "RPCCore"],
            path: "Services/Asset/Mapping"),
        .target(
            name: "AssetService",
            dependencies: [
                "AssetEngine", "AssetMapping", "EngineHosting", "ServiceKit", "ProtoMapping", "GlimpseMessages",
                "GlimpseRPC",
                "GlimpseVocabulary", "RPCCore", crypto,
            ],
            path: "Services/Asset/Service"),
        .executableTarget(
            name: "glimpse-asset",
            dependencies: [
                "AssetService", "AssetEngine", "EngineHosting", "ServiceKit", "PostgresStore", "GlimpseMessages",
                "GlimpseRPC", argumentParser,
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Services/Asset/Main"),
        .testTarget(
            name: "AssetEngineTests", dependencies: ["AssetEngine", "GlimpseVocabulary", "EngineTesting"],
            path: "Tests/Services/Asset/AssetEngineTests"),
        .testTarget(
            name: "AssetServiceTests",
            dependencies: [
                "AssetService", "AssetMapping", "AssetEngine", "EngineHosting", "ServiceKit", "ProtoMapping",
                "GlimpseMessages", "GlimpseRPC",
                "GlimpseVocabulary", "RPCCore", crypto,
            ],
            path: "Tests/Services/Asset/AssetServiceTests"),

        // MARK: Services: glimpse-gateway, the device (apps, placements, taps, activities on
        // screen, the event log, the clock conductor) in front of the four services
        .target(
            name: "GatewayService",
            dependencies: [
                "ServiceKit", "ActivityEngine", "ProtoMapping", "GlimpseMessages", "GlimpseRPC", "GlimpseVocabulary",
                "Rendering", "RPCCore", "EngineHosting", crypto, grdb, collections,
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Services/Gateway/Service",
            // The device in a browser (`GET /`, `/web/<file>`): the page, built into the binary.
            resources: [.embedInCode("Web")]),
        .executableTarget(
            name: "glimpse-gateway",
            dependencies: [
                "GatewayService", "ServiceKit", "GlimpseMessages", "GlimpseVocabulary", "RPCCore", argumentParser,
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Services/Gateway/Main"),
        .testTarget(
            name: "GatewayServiceTests",
            dependencies: [
                "GatewayService", "GlimpseMessages", "GlimpseRPC", "RPCCore", "ProtoMapping",
                "TimelineService", "EngineHosting", "ServiceKit",  // the services wired in-process
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Services/Gateway/GatewayServiceTests"),

        // MARK: Apps: GlimpseKit, what an app is written with, and the five seed apps on it
        .target(
            name: "GlimpseKit",
            dependencies: ["GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO", nioCore, nioPosix],
            path: "Sources/Kit/GlimpseKit"),
        .target(
            name: "DemoApps",
            dependencies: [
                "GlimpseKit", "GlimpseMessages", "GlimpseRPC", "GlimpseJSON", "RPCCore", "RPCNIO", "ServiceKit",
                nioCore,
                nioPosix,
            ],
            path: "Sources/Apps/DemoApps"),
        .executableTarget(
            name: "glimpse-demo",
            dependencies: [
                "DemoApps", "GlimpseKit", "ServiceKit", argumentParser, .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Apps/glimpse-demo"),
        .testTarget(
            name: "DemoAppsTests",
            dependencies: [
                "DemoApps", "GlimpseKit", "Rendering", "GlimpseMessages", "GlimpseRPC", "RPCCore", "GoldenFiles",
            ],
            path: "Tests/Apps/DemoAppsTests", exclude: ["Golden"]),
        .testTarget(
            name: "GlimpseKitTests", dependencies: ["GlimpseKit", "GlimpseMessages", "GlimpseRPC", "RPCCore"],
            path: "Tests/Kit/GlimpseKitTests"),

        // MARK: Tools: `glimpse` drives glimpse-gateway (logic in a library the tests drive)
        .target(
            name: "GlimpseCLI",
            dependencies: [
                "GlimpseMessages", "GlimpseRPC", "GlimpseJSON", "ProtoMapping", "RPCCore", "RPCNIO", "HTTP2",
                "Contracts",
                "ServiceKit",  // the device key (`--device-key`), as the services read it
                // `glimpse verify` checks an app with the engines' own rules, through their mappings.
                "TimelineEngine", "TimelineMapping", "IntentEngine", "IntentMapping", "ActivityEngine", "AssetEngine",
                "AssetMapping",
                "GlimpseVocabulary",
                argumentParser, crypto, nioCore, nioPosix,
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Sources/Tools/GlimpseCLI"),
        .executableTarget(name: "glimpse", dependencies: ["GlimpseCLI"], path: "Sources/Tools/glimpse"),
        // Contracts between the services: each consumer's contract (Tests/Contracts, built in by
        // scripts/embed-contracts.py), stubs made from it, and its replay against a provider.
        .target(
            name: "Contracts",
            dependencies: ["GlimpseMessages", "GlimpseRPC", "GlimpseJSON", "RPCCore", "RPCNIO", nioCore],
            path: "Sources/Tools/Contracts"),
        // grpc.testing messages, and gRPC's interoperability server and client on them.
        .target(
            name: "GlimpseInterop",
            dependencies: ["GlimpseInteropProtoC", "GlimpseMessages", "GlimpseRPC", "RPCCore", "CProtobufC"],
            path: "Sources/Tools/GlimpseInterop"),
        .executableTarget(
            name: "glimpse-interop-server",
            dependencies: ["GlimpseInterop", "ServiceKit", "RPCCore", "RPCNIO", nioCore, nioPosix, argumentParser],
            path: "Sources/Tools/glimpse-interop-server"),
        .executableTarget(
            name: "glimpse-interop-client",
            dependencies: ["GlimpseInterop", "RPCCore", "RPCNIO", argumentParser],
            path: "Sources/Tools/glimpse-interop-client"),
        .testTarget(
            name: "GlimpseCLITests",
            dependencies: [
                "GlimpseCLI", "GlimpseMessages", "GlimpseJSON", "HTTP2", "RPCCore", "RPCNIO", "ServiceKit", crypto,
                nioCore,
                "DemoApps", "GlimpseRPC", "GlimpseVocabulary", "TimelineEngine",
            ],
            path: "Tests/Tools/GlimpseCLITests"),
        .testTarget(
            name: "ContractTests",
            dependencies: [
                "Contracts", "GatewayService", "TimelineService", "IntentService", "ActivityService", "AssetService",
                "EngineHosting", "ServiceKit", "GlimpseCLI", "GlimpseMessages", "GlimpseRPC", "GlimpseJSON", "RPCCore",
                "RPCNIO",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Tools/ContractTests"),

        // MARK: Test support: schemas, toys, probes and servers the tests start
        .target(name: "GlimpseTestProtoC", dependencies: ["CProtobufC"], path: "Tests/Support/GlimpseTestProtoC"),
        .target(
            name: "GlimpseTestMessages", dependencies: ["GlimpseTestProtoC", "GlimpseMessages", "CProtobufC"],
            path: "Tests/Support/GlimpseTestMessages"),
        .target(name: "CHeapProbe", path: "Tests/Support/CHeapProbe"),
        // Golden files for the rendering and seed-view tests (compare, or rewrite on request).
        .target(name: "GoldenFiles", path: "Tests/Support/GoldenFiles"),
        // Drives any engine through a VirtualClock (test code, not library API).
        .target(
            name: "EngineTesting", dependencies: ["GlimpseVocabulary"],
            path: "Tests/Support/EngineTesting"),
        // A toy counter engine shared by the host tests and the kill -9 probe.
        .target(
            name: "EngineHostToys", dependencies: ["EngineHosting", "GlimpseVocabulary"],
            path: "Tests/Support/EngineHostToys"),
        .executableTarget(
            name: "glimpse-host-probe", dependencies: ["EngineHosting", "EngineHostToys", "GlimpseVocabulary"],
            path: "Tests/HostProbe"),
        .target(name: "RPCTestService", dependencies: ["RPCCore"], path: "Tests/RPCTestService"),
        .executableTarget(
            name: "glimpse-rpc-testserver", dependencies: ["RPCCore", "RPCNIO", "RPCTestService", nioCore, nioPosix],
            path: "Tests/RPCTestServer"),

        // MARK: Benchmarks (release; apart from tests)
        .target(name: "BenchSupport", path: "Benchmarks/Support"),
        .executableTarget(
            name: "glimpse-bench-messages", dependencies: ["GlimpseMessages", "CProtobufC"],
            path: "Benchmarks/MessagesBench"),
        .executableTarget(
            name: "glimpse-bench-activity",
            dependencies: ["ActivityEngine", "GlimpseJSON", "GlimpseVocabulary"],
            path: "Benchmarks/ActivityScale"),
        .executableTarget(
            name: "glimpse-bench-timeline",
            dependencies: ["TimelineEngine", "GlimpseVocabulary"],
            path: "Benchmarks/TimelineScale"),
        .executableTarget(
            name: "glimpse-bench-timeline-service",
            dependencies: ["BenchSupport", "GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO"],
            path: "Benchmarks/TimelineService"),
        .executableTarget(
            name: "glimpse-bench-intent-service",
            dependencies: [
                "BenchSupport", "GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO",
                "IntentEngine", "GlimpseVocabulary",
            ],
            path: "Benchmarks/IntentService"),
        .executableTarget(
            name: "glimpse-bench-asset-service",
            dependencies: [
                "BenchSupport", "GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO", "AssetEngine",
                "GlimpseVocabulary", crypto,
            ],
            path: "Benchmarks/AssetService"),
        .executableTarget(
            name: "glimpse-bench-gateway",
            dependencies: [
                "BenchSupport", "GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO", "ProtoMapping", nioCore,
            ],
            path: "Benchmarks/Gateway"),
        // Instructions per operation of the hot paths, for callgrind (Benchmarks/instructions.sh).
        .executableTarget(
            name: "glimpse-bench-instructions",
            dependencies: [
                "ActivityEngine", "ActivityMapping", "ActivityService", "GlimpseJSON", "GlimpseMessages",
                "GlimpseVocabulary", "IntentEngine", "Rendering", "ServiceKit", "TimelineEngine",
            ],
            path: "Benchmarks/Instructions", exclude: ["baseline.json"]),
        .executableTarget(
            name: "glimpse-bench-render",
            dependencies: ["BenchSupport", "Rendering", "GlimpseMessages", "GlimpseRPC", "RPCCore", "RPCNIO"],
            path: "Benchmarks/Render"),

        // MARK: Fuzzing (Fuzz/): the targets' bodies, replayed over the corpora and crashers by
        // the ordinary tests; the libFuzzer executable comes in with GLIMPSE_FUZZ=1 (Fuzz/run.sh).
        .target(
            name: "FuzzTargets",
            dependencies: [
                "GlimpseJSON", "GlimpseMessages", "GlimpseRPC", "ProtoMapping", "GlimpseVocabulary", "TimelineEngine",
                "TimelineService", "TimelineMapping", "IntentService", "IntentMapping", "ActivityEngine",
                "ActivityService", "ActivityMapping",
                "RPCCore", "RPCNIO", "Web", "Rendering", "GlimpseCLI", "ServiceKit", nioCore, nioEmbedded, crypto,
            ],
            path: "Fuzz/Sources/FuzzTargets"),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets"], path: "Fuzz/Tests/FuzzReplayTests"),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer executable (`-sanitize=fuzzer` brings its own `main`): only when asked, so
// the ordinary build, the tests and the release image never link libFuzzer.
if Context.environment["GLIMPSE_FUZZ"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "glimpse-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/Sources/glimpse-fuzz",
            swiftSettings: [.unsafeFlags(["-parse-as-library", "-enable-experimental-feature", "Extern"])]))
}

// Async functions run where their caller runs (SE-0461) unless marked `@concurrent`: no
// hop to the global executor on entry to each one, which the unary path (a handful of
// nested async frames per call) paid for at every level.
// What a module imports stays its own business (InternalImportsByDefault: C modules never
// leak through a public import; MemberImportVisibility: members come from what a file
// imports), and existentials are spelled `any P`.
// Zero warnings: in our own targets a warning is an error (dependencies keep theirs).
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("ExistentialAny"),
            .treatAllWarnings(as: .error),
        ]
}
