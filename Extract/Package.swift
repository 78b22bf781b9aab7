// swift-tools-version:6.1
// lproj-extract: the keys in an app's code, for `lprojctl extract`. A package
// of its own, so that lprojd and lprojctl never build swift-syntax (minutes,
// and megabytes of binary); lprojctl runs `lproj-extract` when asked.
//
//   swift build -c release --package-path Extract     (make extract)
//   swift test --package-path Extract                 (part of make test)
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "lproj-extract",
    products: [.executable(name: "lproj-extract", targets: ["lproj-extract"])],
    dependencies: [
        .package(name: "lprojd", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "LprojExtract",
            dependencies: [
                .product(name: "LprojTables", package: "lprojd"),
                .product(name: "LprojExchange", package: "lprojd"),
                .product(name: "JSONText", package: "lprojd"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strictSwift),
        .executableTarget(
            name: "lproj-extract",
            dependencies: [
                "LprojExtract", .product(name: "LprojVersion", package: "lprojd"), .product(name: "TerminalProgress", package: "lprojd"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift),
        .testTarget(
            name: "LprojExtractTests",
            dependencies: [
                "LprojExtract", .product(name: "LprojExchange", package: "lprojd"), .product(name: "JSONText", package: "lprojd"),
            ],
            swiftSettings: strictSwift),
    ]
)
