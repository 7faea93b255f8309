// swift-tools-version:6.1
// Benchmarks of BrainBatch's core (ordo-one/benchmark), kept in their own package so that the benchmark
// framework's dependencies stay out of the main build. Run: `cd Benchmarks && swift package benchmark`.
import PackageDescription

let package = Package(
    name: "BrainBatchBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "BrainBatch", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Decode",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Brainiac", package: "BrainBatch"),
                .product(name: "Tables", package: "BrainBatch"),
                .product(name: "TableWriters", package: "BrainBatch"),
                .product(name: "ToolSupport", package: "BrainBatch"),
            ],
            path: "Benchmarks/Decode",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Welch",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Spectral", package: "BrainBatch"),
                .product(name: "Brainiac", package: "BrainBatch"),
            ],
            path: "Benchmarks/Welch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A plain timing program for bench/welch.sh (Welch against scipy in the same run).
        .executableTarget(
            name: "WelchTiming",
            dependencies: [.product(name: "Spectral", package: "BrainBatch")],
            path: "Benchmarks/WelchTiming"
        ),
    ]
)
