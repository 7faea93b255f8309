// swift-tools-version:6.0
// BrainBatch: consumer-EEG and behavioural-experiment files into analysis-ready tables.
import PackageDescription

/// One executable per tool: a thin `main` over the library modules.
func tool(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: dependencies + ["ToolSupport", "Tables", "TableWriters", .product(name: "ArgumentParser", package: "swift-argument-parser")],
        path: "Sources/\(name)"
    )
}

let package = Package(
    name: "BrainBatch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bt-decode", targets: ["bt-decode"]),
        .executable(name: "bt-synth", targets: ["bt-synth"]),
        .executable(name: "ilog-parse", targets: ["ilog-parse"]),
        .executable(name: "rt-stats", targets: ["rt-stats"]),
        .executable(name: "mynd-parse", targets: ["mynd-parse"]),
        .executable(name: "nt-analyze", targets: ["nt-analyze"]),
        .library(name: "Tables", targets: ["Tables"]),
        .library(name: "TableWriters", targets: ["TableWriters"]),
        .library(name: "Brainiac", targets: ["Brainiac"]),
        // The other format libraries, for the fuzz targets of Fuzz/ (a package of its own).
        .library(name: "InteractLog", targets: ["InteractLog"]),
        .library(name: "BrainTracker", targets: ["BrainTracker"]),
        .library(name: "MYND", targets: ["MYND"]),
        .library(name: "MindAffect", targets: ["MindAffect"]),
        .library(name: "Spectral", targets: ["Spectral"]),
        .library(name: "ToolSupport", targets: ["ToolSupport"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "SignalFiles", targets: ["SignalFiles"]),
        .library(name: "LinearAlgebra", targets: ["LinearAlgebra"]),
        .library(name: "FileSystem", targets: ["FileSystem"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // C libraries, reached only through the `FFTW` and `HDF5` modules (libdeflate too, for HDF5's
        // deflate filter), and glibc's allocator settings only through ToolSupport's `AllocatorTuning`.
        .systemLibrary(name: "CFFTW", path: "Sources/CFFTW", pkgConfig: "fftw3",
                       providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CHDF5", path: "Sources/CHDF5", pkgConfig: "hdf5",
                       providers: [.apt(["libhdf5-dev"])]),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CRename", path: "Sources/CRename"),
        // The signal handler that removes a run's temporaries (async-signal-safe, so in C), used only by FileSystem.
        .target(name: "CSignalCleanup", path: "Sources/CSignalCleanup"),
        .systemLibrary(name: "CLibDeflate", path: "Sources/CLibDeflate", pkgConfig: "libdeflate",
                       providers: [.apt(["libdeflate-dev"])]),
        // LAPACK and BLAS (reference netlib builds), reached only through the `LinearAlgebra` module.
        .systemLibrary(name: "CLAPACK", path: "Sources/CLAPACK", pkgConfig: "lapacke",
                       providers: [.apt(["liblapacke-dev", "libblas-dev"])]),
        .target(name: "FFTW", dependencies: ["CFFTW"]),
        .target(name: "LinearAlgebra", dependencies: ["CLAPACK"]),
        .target(name: "HDF5", dependencies: ["CHDF5", "CLibDeflate"]),

        // Shared core.
        .target(name: "FileSystem", dependencies: ["CSignalCleanup", .product(name: "SystemPackage", package: "swift-system")]),
        // The table model: no dependencies, so that a format library links no writer (and no libhdf5).
        .target(name: "Tables"),
        // SHA-256 on a second thread as bytes pass through, and digests as hex: inputs read, outputs written.
        .target(name: "Hashing", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // The output side: CSV and HDF5 writers, provenance hashing, atomic output, for ToolSupport and the tools.
        .target(name: "TableWriters", dependencies: ["Tables", "FileSystem", "HDF5", "CRename", "Hashing",
                                                     .product(name: "Crypto", package: "swift-crypto"),
                                                     .product(name: "SystemPackage", package: "swift-system")]),
        // BDF/EDF/BrainVision writers (`-o rec.bdf|.edf|.vhdr`), written by hand (README, design notes).
        .target(name: "SignalFiles", dependencies: ["Tables", "FileSystem", "Hashing",
                                                    .product(name: "Crypto", package: "swift-crypto"),
                                                    .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Spectral", dependencies: ["FFTW", "Tables"]),
        // HTML reports (`--report`): the SVG plots and the page, written by hand (README, design notes).
        .target(name: "Reports", dependencies: ["Tables"]),
        .target(name: "ToolSupport", dependencies: ["Tables", "TableWriters", "FileSystem", "Reports", "CMalloc", "CSignalCleanup", "SignalFiles", "Hashing",
                                                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                    .product(name: "SystemPackage", package: "swift-system")]),

        // One library per input format.
        .target(name: "Brainiac", dependencies: ["Tables", "Spectral", "Reports"]),
        .target(name: "InteractLog", dependencies: ["Tables", "Reports"]),
        .target(name: "BrainTracker", dependencies: ["Tables", "Reports"]),
        .target(name: "MYND", dependencies: ["Tables", "Spectral", "HDF5", "Reports"]),
        .target(name: "MindAffect", dependencies: ["Tables", "Reports"]),
        // The offline noise-tagging decoder (`nt-analyze decode`), after pymindaffectBCI 0.9.24.
        .target(name: "NoiseTagDecoding", dependencies: ["MindAffect", "LinearAlgebra", "Tables", "Reports"]),

        // Executables.
        tool("bt-decode", ["Brainiac"]),
        tool("bt-synth", ["Brainiac", .product(name: "SystemPackage", package: "swift-system")]),
        tool("ilog-parse", ["InteractLog"]),
        tool("rt-stats", ["BrainTracker"]),
        tool("mynd-parse", ["MYND"]),
        tool("nt-analyze", ["MindAffect", "NoiseTagDecoding"]),

        // Tests (Swift Testing).
        // TestSupport: Brainiac for its seeded generator (SplitMix64), the one behind every seeded test too.
        .target(name: "TestSupport", dependencies: ["Tables", "Brainiac", "FileSystem", .product(name: "Crypto", package: "swift-crypto")],
                path: "Tests/TestSupport"),
        .testTarget(name: "FileSystemTests", dependencies: ["FileSystem", "TestSupport",
                                                          .product(name: "SystemPackage", package: "swift-system")]),
        // TablesTests also reads each format library's anomaly catalogue (conventions §3.2).
        .testTarget(name: "TablesTests", dependencies: ["Tables", "TableWriters", "HDF5", "TestSupport", "Brainiac",
                                                        "InteractLog", "BrainTracker", "MYND", "MindAffect"]),
        .testTarget(name: "ToolSupportTests", dependencies: ["ToolSupport", "Tables", "TableWriters", "Reports", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Tables", "TableWriters", "TestSupport"]),
        .testTarget(name: "SignalFilesTests", dependencies: ["SignalFiles", "Tables", "TestSupport"]),
        .testTarget(name: "HashingTests", dependencies: ["Hashing", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "SpectralTests", dependencies: ["Spectral", "TestSupport"]),
        .testTarget(name: "BrainiacTests", dependencies: ["Brainiac", "TableWriters", "TestSupport"]),
        .testTarget(name: "InteractLogTests", dependencies: ["InteractLog", "FileSystem", "TestSupport"]),
        .testTarget(name: "BrainTrackerTests", dependencies: ["BrainTracker", "TestSupport"]),
        // Regressions/: inputs the fuzz targets of Fuzz/ found faults with, read by path.
        .testTarget(name: "MYNDTests", dependencies: ["MYND", "TestSupport"], exclude: ["Regressions"]),
        .testTarget(name: "MindAffectTests", dependencies: ["MindAffect", "NoiseTagDecoding", "LinearAlgebra", "TestSupport"]),
        .testTarget(name: "PipelineTests", dependencies: ["TestSupport"]),
    ]
)
