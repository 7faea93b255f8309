import Foundation
import LinearAlgebra
import Testing
import TestSupport
@testable import NoiseTagDecoding

/// The decoder's pieces on hand-computed vectors, and the filter design and cascade against scipy.
@Suite("Decoder pieces")
struct DecodePiecesTests {
    @Test("Butterworth by hand: order 1 and 2 low-pass at half Nyquist")
    func butterworthByHand() {
        let first = ButterworthDesign.sections(order: 1, band: .lowPass(0.5))
        #expect(first.count == 1)
        // Pre-warped edge 4·tan(π/4) = 4: the analog pole −4 maps to 0, the zero to −1, gain ½.
        for (got, want) in zip(first[0].coefficients, [0.5, 0.5, 0, 1, 0, 0]) { #expect(abs(got - want) < 1e-15) }
        let second = ButterworthDesign.sections(order: 2, band: .lowPass(0.5))
        // Poles ±i·tan(π/8), so a = [1, 0, 3 − 2√2]; zeros at −1 twice; unit DC gain: b = (1 + a₂)/4 · [1, 2, 1].
        let a2 = 3 - 2 * 2.0.squareRoot(), k = (1 + a2) / 4
        for (got, want) in zip(second[0].coefficients, [k, 2 * k, k, 1, 0, a2]) { #expect(abs(got - want) < 1e-14) }
    }

    /// scipy's design of `band` as a JSON array of rows; `single` passes float32 edges, as PMB does.
    static func scipySOS(order: Int, kind: String, edges: [Double], single: Bool) throws -> [[Double]] {
        let script = """
        import json, sys, numpy as np
        from scipy.signal import butter
        order, kind, single = int(sys.argv[1]), sys.argv[2], sys.argv[4] == '1'
        edges = np.array(json.loads(sys.argv[3]), dtype=np.float32 if single else np.float64)
        wn = edges[0] if len(edges) == 1 else edges
        print(json.dumps(butter(order, wn, btype=kind, output='sos').tolist()))
        """
        let arguments = [String(order), kind, "\(edges)", single ? "1" : "0"]
        // Float32 edges: the warping runs in float32 only in the scipy PMB runs with (1.11; newer ones warp in double).
        let run = try TestSupport.run(single ? PMBReference.python : "/usr/bin/env", (single ? [] : ["python3"]) + ["-c", script] + arguments)
        guard run.status == 0 else { throw PMBReference.Failure(description: run.stderr) }
        return try JSONDecoder().decode([[Double]].self, from: Data(run.stdout.utf8))
    }

    @Test("Butterworth sections equal scipy.signal.butter(…, output='sos'), section by section (double-precision edges)",
          arguments: [
            (4, "lowpass", [0.3]), (3, "highpass", [0.1]), (5, "bandpass", [0.1, 0.4]), (3, "bandstop", [0.2, 0.3]),
            (6, "bandstop", [0.45, 0.65]), (6, "bandpass", [0.055, 0.25]),
          ])
    func butterworthMatchesScipy(order: Int, kind: String, edges: [Double]) throws {
        try compareWithScipy(order: order, kind: kind, edges: edges, single: false)
    }

    @Test("Butterworth sections with float32 edges (PMB's design) equal PMB's scipy 1.11 to an ulp of float32",
          .enabled(if: PMBReference.available, ".venv-pmb is absent: run scripts/setup.sh (make test does)"),
          arguments: [(6, "bandstop", [0.45, 0.65]), (6, "bandpass", [0.055, 0.25]), (1, "highpass", [0.05])])
    func butterworthSingleMatchesPMBScipy(order: Int, kind: String, edges: [Double]) throws {
        try compareWithScipy(order: order, kind: kind, edges: edges, single: true)
    }

    func compareWithScipy(order: Int, kind: String, edges: [Double], single: Bool) throws {
        let tolerance = single ? 3e-7 : 1e-9
        let band: FilterBand = switch kind {
        case "lowpass": .lowPass(edges[0])
        case "highpass": .highPass(edges[0])
        case "bandpass": .bandPass(edges[0], edges[1])
        default: .bandStop(edges[0], edges[1])
        }
        // Float32 edges as PMB gives them: the values scipy sees.
        let given = single ? edges.map { Double(Float($0)) } : edges
        let ours = ButterworthDesign.sections(order: order, band: single ? Self.band(band, given) : band,
                                              edgePrecision: single ? .single : .double)
        let scipy = try Self.scipySOS(order: order, kind: kind, edges: given, single: single)
        #expect(ours.count == scipy.count)
        for (section, (mine, theirs)) in zip(ours, scipy).enumerated() {
            for (a, b) in zip(mine.coefficients, theirs) {
                #expect(abs(a - b) <= tolerance * max(1, abs(b)), "section \(section): \(mine.coefficients) vs \(theirs)")
            }
        }
    }

    static func band(_ band: FilterBand, _ edges: [Double]) -> FilterBand {
        switch band {
        case .lowPass: .lowPass(edges[0])
        case .highPass: .highPass(edges[0])
        case .bandPass: .bandPass(edges[0], edges[1])
        case .bandStop: .bandStop(edges[0], edges[1])
        }
    }

    @Test("The float32 cascade with its steady state equals scipy.signal.sosfilt(sos, x, zi=sosfilt_zi(sos)·x₀) in float32")
    func cascadeMatchesSosfilt() throws {
        let sections = FilterSpec.pmbDefault.flatMap {
            ButterworthDesign.sections(order: 6, band: $0.band(fs: 200)!, edgePrecision: .single)
        }
        let cascade = SectionCascade(sections)
        let signal: [Float] = (0..<600).map { n in
            let t = Double(n) / 200
            return Float(40 * sin(2 * .pi * 10 * t) + 15 * sin(2 * .pi * 50 * t) + 5 * cos(2 * .pi * 3 * t) - 120)
        }
        var data = signal
        var state = cascade.steadyState.map { $0 * signal[0] }
        cascade.run(&data, channels: 1, state: &state)
        let rows = sections.map(\.coefficients)
        let script = """
        import json, sys, numpy as np
        from scipy.signal import sosfilt, sosfilt_zi
        sos = np.array(json.loads(sys.argv[1]), dtype=np.float32)
        x = np.array(json.loads(sys.argv[2]), dtype=np.float32)
        zi = (sosfilt_zi(sos) * x[0]).astype(np.float32)
        y, _ = sosfilt(sos, x, zi=zi)
        print(json.dumps([float(v) for v in y.astype(np.float32)]))
        """
        let json = try TestSupport.python(script, ["\(rows)", "\(signal.map(Double.init))"])
        let scipy = try JSONDecoder().decode([Double].self, from: Data(json.utf8))
        #expect(scipy.count == data.count)
        let scale = scipy.map(abs).max()!
        let worst = zip(data, scipy).map { abs(Double($0) - $1) }.max()!
        // Single precision both sides; the initial states differ in their last bits (scipy solves for them in float32).
        #expect(worst / scale < 5e-5, "largest difference \(worst) of \(scale)")
    }

    @Test("A constant input stays constant through a band-stop cascade started from its steady state")
    func steadyState() {
        let cascade = SectionCascade(ButterworthDesign.sections(order: 6, band: .bandStop(0.45, 0.65)))
        var data = [Float](repeating: 7.5, count: 50)
        var state = cascade.steadyState.map { $0 * 7.5 }
        cascade.run(&data, channels: 1, state: &state)
        #expect(data.allSatisfy { abs($0 - 7.5) < 1e-4 })
    }

    @Test("PMB band notation: stop, pass, edges at 0 and beyond Nyquist, negative edges")
    func filterSpec() {
        #expect(FilterSpec(argument: "45,65") == FilterSpec(low: 45, high: 65, pass: false))
        #expect(FilterSpec(argument: "5.5,25,bandpass") == FilterSpec(low: 5.5, high: 25, pass: true))
        #expect(FilterSpec(argument: "5.5") == nil)
        #expect(FilterSpec(low: 0, high: 5, pass: false).band(fs: 200) == .highPass(Double(Float(5) / 100)))
        #expect(FilterSpec(low: 0, high: 5, pass: true).band(fs: 200) == .lowPass(Double(Float(5) / 100)))
        #expect(FilterSpec(low: 30, high: 200, pass: false).band(fs: 200) == .lowPass(Double(Float(30) / 100)))
        // −1 counts back from Nyquist: 100 − 1 + 1 = 100 Hz, so the band reaches Nyquist.
        #expect(FilterSpec(low: 5, high: -1, pass: false).band(fs: 200) == .lowPass(Double(Float(5) / 100)))
        #expect(FilterSpec(low: 120, high: 150, pass: false).band(fs: 200) == nil)
    }

    @Test("numpy's median and linear percentile (interpolating down from the upper neighbour past one half)")
    func statistics() {
        #expect(Statistics.median([3, 1, 2]) == 2)
        #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
        let upper: Double = 4 - (1 - 0.7000000000000002)
        #expect(Statistics.percentile([1, 2, 3, 4], 90) == upper)
        #expect(Statistics.percentile([10, 20], 25) == 12.5)
        #expect(Statistics.percentile([5], 90) == 5)
    }

    @Test("contiguous folds, the first ones a trial longer; the curve's integration lengths")
    func foldsAndLengths() {
        let twenty: [[Int]] = (0..<5).map { Array(($0 * 4)..<($0 * 4 + 4)) }
        #expect(NoiseTagDecoder.folds(trials: 20, count: 5) == twenty)
        #expect(NoiseTagDecoder.folds(trials: 7, count: 5).map(\.count) == [2, 2, 1, 1, 1])
        #expect(NoiseTagDecoder.folds(trials: 3, count: 5) == [[0], [1], [2]])
        #expect(NoiseTagDecoder.folds(trials: 1, count: 5) == [[0]])
        let lengths = NoiseTagDecoder.integrationLengths(samples: 673, points: 30)
        #expect(lengths.count == 30)
        #expect(Array(lengths.prefix(5)) == [22, 44, 67, 89, 112])
        #expect(lengths.last == 673)
        #expect(NoiseTagDecoder.integrationLengths(samples: 5, points: 30) == [1, 2, 3, 4, 5])
        #expect(NoiseTagDecoder.tau(ms: 450, fs: 100) == 45)
        #expect(NoiseTagDecoder.tau(ms: 300, fs: 128) == 38)
    }

    @Test("rising and falling edges; the copy of output 0 is found and zeroed")
    func events() {
        // One trial, 6 samples, outputs 0, 1, 2: output 2 copies output 0.
        let states: [UInt8] = [0, 1, 0, /**/ 1, 1, 1, /**/ 1, 0, 1, /**/ 0, 0, 0, /**/ 1, 1, 1, /**/ 1, 1, 1]
        var coding = EventCoding(states: states, trials: 1, samples: 6, outputs: 3, types: [.re, .fe])
        let re = (0..<6).map { coding.value(trial: 0, sample: $0, output: 0, type: 0) }
        let fe = (0..<6).map { coding.value(trial: 0, sample: $0, output: 0, type: 1) }
        #expect(re == [0, 1, 0, 0, 1, 0])
        #expect(fe == [0, 0, 0, 1, 0, 0])
        #expect(coding.zeroCopiesOfOutputZero() == [2])
        #expect((0..<6).allSatisfy { coding.value(trial: 0, sample: $0, output: 2, type: 0) == 0 })
        #expect(coding.value(trial: 0, sample: 1, output: 0, type: 0) == 1)
    }

    @Test("c4 start-up correction and the softmax over valid outputs")
    func normalisation() {
        #expect(ScoreNormalisation.c4(1) == 1 - 0.25 - 7.0 / 32 - 19.0 / 128)
        #expect(ScoreNormalisation.c4(0.5) == ScoreNormalisation.c4(1))
        let p = ScoreNormalisation.probabilities([[1, 0, 5]], valid: [true, true, false], scale: 1, marginaliseDecisions: false)[0]
        #expect(abs(p[0] - exp(1) / (exp(1) + 1)) < 1e-12)
        #expect(p[2] == 0)
    }

    @Test("LAPACK through LinearAlgebra: symmetric eigendecomposition, SVD and products")
    func linearAlgebra() throws {
        let eigen = try SymmetricEigen(Matrix(rows: 2, columns: 2, values: [2, 1, 1, 2]))
        #expect(zip(eigen.values, [1.0, 3.0]).allSatisfy { abs($0 - $1) < 1e-12 })
        let v = eigen.vectors.column(1)
        #expect(abs(abs(v[0]) - 0.5.squareRoot()) < 1e-12 && abs(v[0] - v[1]) < 1e-12)
        let m = Matrix(rows: 3, columns: 2, values: [3, 0, 0, -2, 0, 0])
        let svd = try SingularValueDecomposition(m)
        #expect(zip(svd.singularValues, [3.0, 2.0]).allSatisfy { abs($0 - $1) < 1e-12 })
        let rebuilt = svd.u * Matrix(rows: 2, columns: 2, values: [3, 0, 0, 2]) * svd.vt
        #expect(zip(rebuilt.values, m.values).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(Matrix.product(m, m, transposeA: true) == Matrix(rows: 2, columns: 2, values: [9, 0, 0, 4]))
    }
}
