// swift-tools-version:6.0
// libFuzzer targets, one per parser of BrainBatch (README, "Fuzzing"). A package of its own, so that the main
// package's `swift build` stays as it is; `make fuzz` builds it with
//   swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address
import PackageDescription

/// One fuzz target: an executable whose `LLVMFuzzerTestOneInput` feeds one parser. `-parse-as-library`: the
/// entry point is libFuzzer's driver (``Fuzz/main(_:_:_:)``), not top-level code.
func fuzzTarget(_ name: String, _ libraries: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + libraries.map { .product(name: $0, package: "BrainBatch") },
        path: "Sources/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "BrainBatchFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "BrainBatch", path: ".."),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Tables", package: "BrainBatch")]),
        fuzzTarget("FuzzBrainiac", ["Brainiac", "Tables"]),
        fuzzTarget("FuzzBrainiacDecoder", ["Brainiac"]),
        fuzzTarget("FuzzInteractLog", ["InteractLog", "Tables"]),
        fuzzTarget("FuzzInteractLogParser", ["InteractLog"]),
        fuzzTarget("FuzzBrainTracker", ["BrainTracker", "Tables"]),
        fuzzTarget("FuzzBrainTrackerParser", ["BrainTracker"]),
        fuzzTarget("FuzzMYNDJSON", ["MYND", "Tables"]),
        fuzzTarget("FuzzMYNDHDF5", ["MYND", "Tables", "FileSystem"]),
        fuzzTarget("FuzzMindAffect", ["MindAffect", "Tables"]),
        fuzzTarget("FuzzMindAffectParser", ["MindAffect"]),
    ]
)
