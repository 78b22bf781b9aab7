// swift-tools-version:6.2
// lprojd: a Linux localization daemon serving Apple .lproj tables.
//
// The targets are layered and dependencies point down; docs/architecture.md
// says what each owns, what it may import and what must not go in it.
import PackageDescription

// A warning fails the build (our targets' only: SwiftPM applies no warning
// setting to other packages), so that a clean build stays silent.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "lprojd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lprojd", targets: ["lprojd"]),
        .executable(name: "lprojctl", targets: ["lprojctl"]),
        // The table formats, for lproj-extract (Extract/, a package of its own).
        .library(name: "LprojTables", targets: ["LprojTables"]),
        // The JSON tree (JSONValue, JSONParser, JSONWriter), for lproj-extract's String Catalogs.
        .library(name: "JSONText", targets: ["JSONText"]),
        // For lproj-extract: the source references (SourceReferences, the
        // module's only public type) it writes for `lprojctl po export`.
        .library(name: "LprojExchange", targets: ["LprojExchange"]),
        // The client on the wire alone: Varlink and NIO, no engine, no ICU.
        .library(name: "LprojClient", targets: ["LprojClient"]),
        // The live localizer built on it (clients/README.md): the engine and
        // ICU (opened at run time) come with it.
        .library(name: "LprojLocalizer", targets: ["LprojLocalizer"]),
        // The version, for lproj-extract (Extract/) to report the same.
        .library(name: "LprojVersion", targets: ["LprojVersion"]),
        // The progress bar long runs draw on a terminal, lproj-extract's too.
        .library(name: "TerminalProgress", targets: ["TerminalProgress"]),
        // For the fuzzers in Fuzz/ (a package of their own, built with
        // -sanitize=fuzzer and -enable-testing): the modules they drive,
        // and the oracles. What is not API is `package`, which they see
        // through `@testable import` (docs/architecture.md, "What is API").
        .library(
            name: "LprojFuzzing",
            targets: [
                "LprojTables", "LprojTablesOracle", "LprojFormatStrings", "LprojLocales", "VarlinkProtocol", "LprojInterface",
                "LprojConfiguration", "LprojEngine", "LprojFiles", "LprojService", "LprojVarlink", "LprojStore", "VarlinkNIO",
                "ClientBudget", "LprojLimits", "LprojExchange", "LprojSnapshot",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // ICU is opened on first use, not linked (Sources/CLprojICU/icu_common.h).
        .target(name: "CLprojICU", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "LprojFormatStrings", swiftSettings: strictSwift),
        // JSON text as tokens, for the Varlink wire and String Catalogs alike.
        .target(name: "JSONText", swiftSettings: strictSwift),
        .target(name: "LprojTables", dependencies: ["LprojFormatStrings", "JSONText"], swiftSettings: strictSwift),
        .target(name: "LprojLocales", dependencies: ["CLprojICU", "LprojFormatStrings"], swiftSettings: strictSwift),
        .target(name: "LprojEngine", dependencies: ["LprojTables", "LprojLocales", "LprojFormatStrings"], swiftSettings: strictSwift),
        .target(name: "LprojFormatting", dependencies: ["CLprojICU", "LprojLocales", "LprojFormatStrings"], swiftSettings: strictSwift),
        .target(name: "ClientBudget", swiftSettings: strictSwift),
        // Every limit of the server and the service, as values: the configuration sets them, each component reads its own.
        .target(name: "LprojLimits", swiftSettings: strictSwift),
        // Threads at a lower CPU priority, for work that must leave the loops and Swift's shared pool alone.
        .target(name: "BackgroundThreads", swiftSettings: strictSwift),
        // The version every program and the Varlink service report.
        .target(name: "LprojVersion", swiftSettings: strictSwift),
        // A progress bar on a terminal, and none elsewhere.
        .target(name: "TerminalProgress", swiftSettings: strictSwift),
        // openat2(2), which glibc 2.36 does not wrap, for reading beneath a bundle's directory.
        .target(name: "CLinuxFiles"),
        .target(name: "LprojFiles", dependencies: ["LprojEngine", "CLinuxFiles"], swiftSettings: strictSwift),
        // One bundle's strings for one locale in a file apps map and share (docs/snapshot-format.md).
        .target(name: "LprojSnapshot", dependencies: ["LprojEngine", "LprojFormatStrings", "LprojLocales"], swiftSettings: strictSwift),
        .target(
            name: "LprojLint", dependencies: ["LprojEngine", "LprojFormatStrings", "LprojLocales", "LprojTables"],
            swiftSettings: strictSwift),
        // Translators' coverage of a bundle directory: offline, for lprojctl.
        .target(
            name: "LprojCoverage", dependencies: ["LprojEngine", "LprojLint", "LprojTables", "LprojFormatStrings", "LprojLocales"],
            swiftSettings: strictSwift),
        // Translations in and out: XLIFF (.xcloc) as Xcode exchanges it; offline, for lprojctl.
        .target(
            name: "LprojExchange", dependencies: ["LprojTables", "LprojFormatStrings", "LprojLocales", "JSONText"],
            swiftSettings: strictSwift),
        .target(name: "VarlinkProtocol", dependencies: ["JSONText"], swiftSettings: strictSwift),
        .target(name: "VarlinkCodegen", dependencies: ["VarlinkProtocol"], swiftSettings: strictSwift),
        .executableTarget(name: "varlink-codegen", dependencies: ["VarlinkCodegen", "VarlinkProtocol"], swiftSettings: strictSwift),
        .target(
            name: "LprojInterface",
            dependencies: ["VarlinkProtocol"],
            resources: [.embedInCode("org.lprojd.Localization.varlink")],
            swiftSettings: strictSwift
        ),
        .target(
            name: "LprojStore", dependencies: ["ClientBudget", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strictSwift),
        .target(name: "LprojWatch", swiftSettings: strictSwift),
        .target(
            name: "LprojConfiguration",
            dependencies: [
                "LprojEngine", "LprojLocales", "LprojWatch", "ClientBudget", "LprojLimits", "Yams",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift),
        .target(
            name: "LprojService",
            dependencies: [
                "LprojEngine", "LprojFiles", "LprojLocales", "LprojFormatStrings", "LprojFormatting", "LprojTables", "LprojStore",
                "LprojWatch",
                "LprojInterface", "LprojVersion", "ClientBudget", "LprojLimits", "LprojSnapshot", "BackgroundThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "LprojVarlink",
            dependencies: [
                "LprojService", "LprojInterface", "LprojLocales", "LprojFormatting", "LprojStore", "VarlinkProtocol", "VarlinkNIO",
                "ClientBudget",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "VarlinkNIO",
            dependencies: [
                "VarlinkProtocol", "ClientBudget", "LprojLimits", "BackgroundThreads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "LprojSystemd",
            dependencies: [
                "CSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "VarlinkClient",
            dependencies: [
                "VarlinkProtocol", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .target(name: "LprojClient", dependencies: ["LprojInterface", "VarlinkClient", "VarlinkProtocol"], swiftSettings: strictSwift),
        .target(
            name: "LprojLocalizer",
            dependencies: [
                "LprojClient", "LprojInterface", "LprojEngine", "LprojFiles", "LprojFormatStrings", "LprojFormatting", "LprojLocales",
                "LprojSnapshot", "LprojTables",
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "lprojd",
            dependencies: [
                "LprojService", "LprojVarlink", "LprojInterface", "LprojConfiguration", "LprojEngine", "LprojFiles", "LprojLocales",
                "LprojStore", "LprojSystemd", "LprojVersion",
                "VarlinkNIO", "VarlinkProtocol", "ClientBudget",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "lprojctl",
            dependencies: [
                "LprojEngine", "LprojFiles", "LprojLint", "LprojCoverage", "LprojExchange", "LprojClient", "LprojInterface", "LprojLocales",
                "LprojTables", "LprojSnapshot", "LprojVersion", "TerminalProgress", "VarlinkProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // A terminal app on the Swift localizer (make test drives it).
        .executableTarget(
            name: "lproj-swift-demo", dependencies: ["LprojClient", "LprojLocalizer"], path: "Examples/SwiftDemo",
            swiftSettings: strictSwift),
        .target(name: "CBenchSupport", path: "Benchmarks/CBenchSupport"),
        .executableTarget(
            name: "lproj-bench",
            dependencies: [
                "LprojEngine", "LprojFiles", "LprojLocales", "LprojLocalizer", "LprojService", "LprojStore", "LprojInterface",
                "LprojLimits", "LprojSnapshot",
                "LprojTables", "CBenchSupport", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/LprojBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "lproj-soak", path: "Benchmarks/Soak", swiftSettings: [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]),
        .target(name: "LprojTablesOracle", dependencies: ["LprojTables"], path: "Tests/LprojTablesOracle", swiftSettings: strictSwift),
        .testTarget(
            name: "LprojTablesTests", dependencies: ["LprojTables", "LprojFormatStrings", "LprojTablesOracle"], swiftSettings: strictSwift),
        .testTarget(name: "LprojLocalesTests", dependencies: ["LprojLocales", "LprojFormatStrings"], swiftSettings: strictSwift),
        .testTarget(name: "LprojFormatStringsTests", dependencies: ["LprojFormatStrings", "LprojLocales"], swiftSettings: strictSwift),
        .testTarget(
            name: "LprojEngineTests",
            dependencies: ["LprojEngine", "LprojFiles", "LprojTables", "LprojLocales", "LprojFormatStrings", "LprojTablesOracle"],
            swiftSettings: strictSwift),
        .testTarget(name: "LprojLocalizerTests", dependencies: ["LprojLocalizer"], swiftSettings: strictSwift),
        .testTarget(
            name: "LprojCoverageTests", dependencies: ["LprojCoverage", "LprojEngine", "LprojLocales"], swiftSettings: strictSwift),
        .testTarget(
            name: "LprojExchangeTests", dependencies: ["LprojExchange", "LprojTables", "LprojFormatStrings"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSwift),
        .testTarget(name: "LprojFilesTests", dependencies: ["LprojFiles", "LprojEngine"], swiftSettings: strictSwift),
        .testTarget(
            name: "LprojLintTests",
            dependencies: ["LprojLint", "LprojFiles", "LprojEngine", "LprojTables", "LprojFormatStrings", "LprojLocales"],
            swiftSettings: strictSwift),
        .target(
            name: "CICUOracle",
            path: "Tests/CICUOracle",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        .testTarget(
            name: "LprojFormattingTests", dependencies: ["LprojFormatting", "LprojLocales", "CICUOracle"], swiftSettings: strictSwift),
        .testTarget(name: "JSONTextTests", dependencies: ["JSONText"], swiftSettings: strictSwift),
        .testTarget(name: "VarlinkProtocolTests", dependencies: ["VarlinkProtocol"], swiftSettings: strictSwift),
        .testTarget(
            name: "VarlinkClientTests",
            dependencies: [
                "VarlinkClient", "VarlinkProtocol", "LprojTestSupport", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "VarlinkCodegenTests", dependencies: ["VarlinkCodegen", "VarlinkProtocol", "LprojInterface"], swiftSettings: strictSwift),
        .testTarget(name: "ClientBudgetTests", dependencies: ["ClientBudget"], swiftSettings: strictSwift),
        .testTarget(
            name: "LprojSnapshotTests", dependencies: ["LprojSnapshot", "LprojEngine", "LprojFiles", "LprojFormatStrings", "LprojLocales"],
            swiftSettings: strictSwift),
        // The test process's set-up (SIGPIPE ignored before any test runs).
        .target(name: "CTestProcess", path: "Tests/CTestProcess"),
        .target(
            name: "LprojTestSupport",
            dependencies: [
                "CTestProcess", "LprojService", "LprojEngine", "LprojLocales", "LprojStore", "ClientBudget", "LprojLimits",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/LprojTestSupport",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "VarlinkNIOTests",
            dependencies: [
                "VarlinkNIO", "VarlinkProtocol", "ClientBudget", "LprojTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "LprojStoreTests", dependencies: ["LprojStore", "ClientBudget", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift),
        .testTarget(name: "LprojWatchTests", dependencies: ["LprojWatch"], swiftSettings: strictSwift),
        .testTarget(
            name: "LprojConfigurationTests",
            dependencies: ["LprojConfiguration", "LprojEngine", "LprojInterface", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift),
        .testTarget(
            name: "LprojdIntegrationTests",
            dependencies: [
                "LprojClient", "LprojLocalizer", "LprojInterface", "LprojFormatStrings", "VarlinkClient", "VarlinkProtocol",
                "LprojTestSupport", "LprojEngine", "LprojFiles", "LprojLocales", "LprojSnapshot",
                "lprojd", "lprojctl", "lproj-soak",
            ],
            resources: [.copy("Python")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "LprojServiceTests",
            dependencies: [
                "LprojService", "LprojInterface", "LprojEngine", "LprojFiles", "LprojFormatStrings", "LprojLocales", "LprojFormatting",
                "LprojStore",
                "LprojWatch", "VarlinkProtocol",
                "ClientBudget", "LprojLimits", "LprojSnapshot", "LprojTablesOracle", "LprojTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "LprojVarlinkTests",
            dependencies: [
                "LprojVarlink", "LprojService", "LprojInterface", "LprojStore", "LprojTestSupport", "VarlinkProtocol", "ClientBudget",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "LprojSystemdTests",
            dependencies: [
                "LprojSystemd", "LprojTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(name: "LprojCtlTests", dependencies: ["lprojctl"], swiftSettings: strictSwift),
        .testTarget(name: "TerminalProgressTests", dependencies: ["TerminalProgress"], swiftSettings: strictSwift),
    ]
)
