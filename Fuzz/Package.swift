// swift-tools-version:5.4
// lprojd's fuzzers (libFuzzer). A package of its own, because they are
// built with `-sanitize=fuzzer,address -parse-as-library`, which the normal
// build must not see; 5.4 because from 5.5 on SwiftPM renames an
// executable's entry point, which libFuzzer's main then cannot find. What
// is not lprojd's API is `package`: the fuzzers reach it through
// `@testable import`, built with -enable-testing (the Makefile's fuzz-build).
//
//   make fuzz                 builds them and runs each for a million inputs
//   make fuzz-smoke           30 seconds each (CI)
import PackageDescription

let fuzzer: [Target.Dependency] = ["FuzzSupport", .product(name: "LprojFuzzing", package: "lprojd")]

let package = Package(
    name: "lprojd-fuzz",
    dependencies: [
        .package(name: "lprojd", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "LprojFuzzing", package: "lprojd")]),
        .executableTarget(name: "FuzzStrings", dependencies: fuzzer),
        .executableTarget(name: "FuzzStringsdict", dependencies: fuzzer),
        .executableTarget(name: "FuzzFormat", dependencies: fuzzer),
        .executableTarget(name: "FuzzJSON", dependencies: fuzzer),
        .executableTarget(name: "FuzzCatalog", dependencies: fuzzer),
        .executableTarget(name: "FuzzConfiguration", dependencies: fuzzer),
        .executableTarget(name: "FuzzXLIFF", dependencies: fuzzer),
        .executableTarget(name: "FuzzPO", dependencies: fuzzer),
        .executableTarget(name: "FuzzPluralForms", dependencies: fuzzer),
        .executableTarget(name: "FuzzSnapshot", dependencies: fuzzer),
        .executableTarget(
            name: "FuzzService",
            dependencies: fuzzer + [.product(name: "Logging", package: "swift-log"), .product(name: "NIOPosix", package: "swift-nio")]),
    ]
)
