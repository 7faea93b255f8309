import Benchmark
import Brainiac
import Foundation
import Tables
import TableWriters
import ToolSupport

/// A 1-hour capture with noise, lost packets and byte loss, made once.
private let oneHour: [UInt8] = {
    var settings = CaptureSynthesizer.Settings()
    settings.samples = 900_000
    settings.noiseMicrovolts = 10
    settings.dropRate = 0.005
    settings.byteLossRate = 0.0005
    settings.seed = 1
    return (try? CaptureSynthesizer(settings).synthesize().bytes) ?? []
}()

let benchmarks: @Sendable () -> Void = {
    AllocatorTuning.reuseFreedMemory()  // as every tool runs
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
                                           maxDuration: .seconds(5), maxIterations: 20)

    /// bt-decode's chunk: whole packets.
    let chunk = 13_107 * BrainiacPacket.size

    Benchmark("Decode a 1-hour capture (resynchronising, 256 KB chunks)") { benchmark in
        var stream = try CaptureStream(fileSize: oneHour.count, byteOrder: .auto, options: .init())
        var count = 0
        benchmark.startMeasurement()
        var offset = 0
        while offset < oneHour.count {
            let end = min(oneHour.count, offset + chunk)
            count += try oneHour[offset..<end].withUnsafeBytes { try stream.feed($0) }.count
            offset = end
        }
        count += try stream.finish().count
        blackHole(count)
    }

    Benchmark("Decode and write a 1-hour capture to uncompressed HDF5 (a RAM folder, writing in the background)") { benchmark in
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm")
            : FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("bb-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        benchmark.startMeasurement()
        let output = try TableOutput(destination: .hdf5(path: folder.appendingPathComponent("x.h5").path),
                                     tableNames: CaptureTables.names, compression: 0, inBackground: true)
        var stream = try CaptureStream(fileSize: oneHour.count, byteOrder: .auto, options: .init())
        var samples = SampleTableBuilder(sourceFile: "x.bin")
        var offset = 0
        while offset < oneHour.count {
            let end = min(oneHour.count, offset + chunk)
            let batch = try oneHour[offset..<end].withUnsafeBytes { try stream.feed($0) }
            for table in samples.add(batch) { try output.write(table) }
            offset = end
        }
        for table in samples.add(try stream.finish()) { try output.write(table) }
        if let last = samples.finish() { try output.write(last) }
        try output.commit(provenance: Provenance(tool: "bench", version: "0", commandLine: "", inputs: [],
                                                 parametersJSON: "{}"))
    }
}
