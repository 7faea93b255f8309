import Foundation
import MindAffect
import NoiseTagDecoding
import TestSupport

/// pymindaffectBCI 0.9.24 run on a save file by `scripts/pmb_decode.py` in the pinned `.venv-pmb` (made by
/// `scripts/setup.sh`, which `make test` runs first): its arrays and numbers stage by stage, once per file per test run.
struct PMBReference: Sendable {
    /// summary.json.
    struct Summary: Decodable, Sendable {
        var X_shape: [Int]
        var Y_shape: [Int]
        var fs: Double
        var tau: Int
        var trial_ts: [Int]
        var W: [Double]
        var R: [Double]
        var A: [Double]
        var sigma0: Double
        var softmaxscale: Double
        var fold_scores: [Double]
        var audc_score: Double
        var integration_lengths: [Int]
        var perr: [Double]
        var perr_est: [Double]
        var trial_wrong: [[Int]]
        var trial_perr: [[Double]]
    }
    var summary: Summary
    /// trials × samples × channels.
    var x: [Float]
    /// trials × samples × outputs.
    var y: [Int32]
    /// The cross-validated scores, trials × samples × outputs.
    var fy: [Float]
    /// The loader's per-sample times (ms, before decimation).
    var sampleTimes: [Double]

    /// The interpreter of the pinned environment.
    static let python = TestSupport.packageRoot.appendingPathComponent(".venv-pmb/bin/python").path
    /// Whether `.venv-pmb` exists (tests that need it are skipped with that reason otherwise).
    static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// Runs the reference on `path` (a fresh temporary output folder).
    static func run(_ path: String) throws -> PMBReference {
        let out = TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/pmb_decode.py").path
        let result = try TestSupport.run(python, [script, path, out.path])
        guard result.status == 0 else { throw Failure(description: "pmb_decode.py failed: \(result.stderr.suffix(2000))") }
        let summaryData = try Data(contentsOf: out.appendingPathComponent("summary.json"))
        let summary = try JSONDecoder().decode(Summary.self, from: summaryData)
        func read<T>(_ name: String, as: T.Type) throws -> [T] {
            let data = try Data(contentsOf: out.appendingPathComponent(name))
            return data.withUnsafeBytes { Array($0.bindMemory(to: T.self)) }
        }
        return PMBReference(summary: summary, x: try read("X.f32", as: Float.self), y: try read("Y.i32", as: Int32.self),
                            fy: try read("Fy.f32", as: Float.self), sampleTimes: try read("ts.f64", as: Double.self))
    }


    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The example save file, the SampleData one, each run once (about 4 s each).
    static let example = Result { try run(TestSupport.realDataRoot.appendingPathComponent("mindaffect/mindaffectBCI_exampledata.txt").path) }
    static let sample = Result { try run(DecodeFixtures.samplePath) }
}

/// The files the decoder tests read, each decoded once.
enum DecodeFixtures {
    static let samplePath = TestSupport.packageRoot.appendingPathComponent("SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt").path
    static let examplePath = TestSupport.realDataRoot.appendingPathComponent("mindaffect/mindaffectBCI_exampledata.txt").path

    static func decode(_ path: String, options: DecodeOptions = DecodeOptions()) throws -> DecodedFile {
        let file = try SaveFile.parse(try Data(contentsOf: URL(fileURLWithPath: path)), sourceFile: path)
        return try DecodedFile.decode(file, options: options)
    }

    static let example = Result { try decode(examplePath) }
    static let exampleAnalysis = Result { () throws -> SaveFileAnalysis in
        let file = try SaveFile.parse(try Data(contentsOf: URL(fileURLWithPath: examplePath)), sourceFile: examplePath)
        return SaveFileAnalysis(file, options: SaveFileAnalysisOptions(timestampRule: .pymindaffect), codes: nil)
    }
    static let sample = Result { try decode(samplePath) }
}

/// Pearson correlation.
func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    var sab = 0.0, saa = 0.0, sbb = 0.0
    for (x, y) in zip(a, b) { sab += (x - ma) * (y - mb); saa += (x - ma) * (x - ma); sbb += (y - mb) * (y - mb) }
    return sab / (saa * sbb).squareRoot()
}
