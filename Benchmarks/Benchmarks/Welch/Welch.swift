import Benchmark
import Brainiac
import Foundation
import Spectral

/// Four channels of one hour at 250 Hz (900,000 samples each): noise plus a 10-Hz line, made once.
private let oneHour: [[Double]] = (0..<4).map { c in
    var state = UInt64(c + 1)
    var values: [Double] = []
    values.reserveCapacity(900_000)
    for n in 0..<900_000 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let noise: Double = Double(Int64(bitPattern: state) >> 11) / 4_503_599_627_370_496.0
        let phase: Double = 2 * Double.pi * 10 * Double(n) / 250
        values.append(10 * noise + 20 * sin(phase))
    }
    return values
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(5),
                                           maxIterations: 50)

    Benchmark("Welch PSD (scipy defaults), 4 channels × 1 hour at 250 Hz") { benchmark in
        let welch = try Welch(WelchParameters(samplingRate: 250))
        benchmark.startMeasurement()
        for channel in oneHour { blackHole(welch.spectrum(of: channel)) }
    }

    Benchmark("Streaming Welch accumulator, 4 channels × 1 hour, in 4096-sample batches") { benchmark in
        let welch = try Welch(WelchParameters(samplingRate: 250))
        let accumulators = (0..<4).map { _ in welch.makeAccumulator() }
        benchmark.startMeasurement()
        for (channel, accumulator) in zip(oneHour, accumulators) {
            var start = 0
            while start < channel.count {
                let end = min(channel.count, start + 4096)
                channel[start..<end].withUnsafeBufferPointer { accumulator.append(contentsOf: $0) }
                start = end
            }
            blackHole(accumulator.spectrum)
        }
    }

    Benchmark("SDK analysis of a 1-hour recording: frames, baseline, indicators, band power (1000-sample batches)") {
        benchmark in
        let samples = (0..<900_000).map { n in
            BrainiacSample(segment: 0, sampleIndex: n, counter: n, orderNumber: UInt16(truncatingIfNeeded: n),
                           byte2: 0, byte11: 0,
                           nanovolts: SIMD4(oneHour[0][n], oneHour[1][n], oneHour[2][n], oneHour[3][n]) * 1000)
        }
        benchmark.startMeasurement()
        let analysis = BrainiacAnalysis(sourceFile: "x.bin", options: BrainiacAnalysisOptions())
        var start = 0
        while start < samples.count {
            analysis.consume(Array(samples[start..<min(samples.count, start + 1000)]))
            start += 1000
        }
        analysis.finish()
        blackHole(analysis.tables)
    }
}
