import Foundation
import Testing
import TestSupport
import MindAffect
@testable import NoiseTagDecoding

/// `nt-analyze decode` on the SampleData file (whose decoder clock wraps at 2^24), on a synthetic save file with a
/// known brain response, and end to end through the tool.
@Suite("Decoder on SampleData and a synthetic recording")
struct DecodeFileTests {
    @Test("SampleData: all 4 trials decoded across the 2^24 clock wrap (I_DECODE_CLOCK_WRAP); no copy of objID 0 is lost")
    func clockWrap() throws {
        let decoded = try DecodeFixtures.sample.get()
        let r = decoded.recording
        #expect(r.clockWrapped)
        #expect(r.trialCount == 4)
        #expect(r.trialFrames == [253, 253, 150, 200])
        #expect(decoded.result.cuedOutput.compactMap { $0 }.map { r.objectIDs[$0] } == [3, 5, 2, 4])
        #expect(decoded.anomalies.contains { $0.code == "I_DECODE_CLOCK_WRAP" })
        #expect(r.fs == 100 && r.windowSamples > 0)
    }

    @Test("SampleData against PMB 0.9.24: PMB's loader keeps 3 trials, losing the first at the wrap; the other 3 start where ours do",
          .enabled(if: PMBReference.available, ".venv-pmb is absent: run scripts/setup.sh (make test does)"))
    func clockWrapAgainstPMB() throws {
        let pmb = try PMBReference.sample.get()
        let r = try DecodeFixtures.sample.get().recording
        #expect(pmb.summary.X_shape.first == 3)
        let ours = r.trialStartPMBMs.map { Int($0 % (1 << 24)) }
        #expect(Array(ours.dropFirst()) == pmb.summary.trial_ts)
    }

    /// A save file from `SampleData/mindaffect/generate.py` with the response of `impulse_response` to the cue's
    /// rising edges (10 µV, no falling-edge response), weak background and 5 µV noise.
    static let synthetic = Result { () throws -> DecodedFile in
        let script = TestSupport.packageRoot.appendingPathComponent("SampleData/mindaffect/generate.py").path
        let made = try TestSupport.run("/usr/bin/env", ["python3", script, "--prediction-trials", "20", "--response-uv", "10",
                                                        "--background-uv", "5", "--noise-uv", "5", "--fe-ratio", "0"])
        guard made.status == 0 else { throw PMBReference.Failure(description: made.stderr) }
        let file = try SaveFile.parse(Data(made.stdout.utf8), sourceFile: "synthetic.txt")
        var options = DecodeOptions()
        options.epoching.filters = []          // the generator adds no drift or line noise
        options.model.eventTypes = [.re]
        return try DecodedFile.decode(file, options: options)
    }

    /// The generator's response at t seconds (`impulse_response` in generate.py).
    static func response(_ t: Double) -> Double { t < 0 || t >= 0.45 ? 0 : sin(2 * .pi * 8 * t) * exp(-t / 0.08) }

    @Test("synthetic: the impulse response's shape is recovered (correlation ≥ 0.95) and ≥ 90 % of trials are decoded right")
    func synthetic() throws {
        let decoded = try Self.synthetic.get()
        let model = decoded.result.model
        #expect(decoded.recording.trialCount == 22)
        // An event lands on the last sample at or before it, so at lag k the response is seen 0–10 ms later than k·10 ms:
        // the expected shape is the response averaged over that landing delay.
        let expected = (0..<model.tau).map { k in (0..<10).map { Self.response(Double(k) / 100 - Double($0) / 1000) }.reduce(0, +) / 10 }
        let r = correlation(model.impulseResponses[0][0], expected)
        #expect(r >= 0.95, "correlation \(r)")
        let last = decoded.result.curve.lengths.count - 1
        let right = decoded.result.curve.predicted.filter { $0[last] == 0 }.count
        #expect(Double(right) >= 0.9 * Double(decoded.recording.trialCount), "\(right) of \(decoded.recording.trialCount) right")
    }

    @Test("nt-analyze decode: re-runs are byte-identical; the provenance records every parameter and the PMB version")
    func endToEnd() throws {
        let out = TestSupport.temporaryFolder()
        let h5 = out.appendingPathComponent("decoded.h5").path
        let tool = TestSupport.executable("nt-analyze")
        var bytes: [Data] = []
        for _ in 0..<2 {
            let run = try TestSupport.run(tool, ["decode", DecodeFixtures.samplePath, "-o", h5, "-q"])
            try #require(run.status == 0, "\(run.stderr)")
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: h5)))
        }
        #expect(bytes[0] == bytes[1])
        let csv = out.appendingPathComponent("csv").path
        let run = try TestSupport.run(tool, ["decode", DecodeFixtures.samplePath, "-o", csv, "-q", "--tau-ms", "300"])
        try #require(run.status == 0, "\(run.stderr)")
        let provenance = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: csv + "/provenance.json"))) as? [String: Any]
        let parameters = try #require(provenance?["parameters"] as? [String: Any])
        let epoching = try #require(parameters["epoching"] as? [String: Any])
        let model = try #require(parameters["model"] as? [String: Any])
        let evaluation = try #require(parameters["evaluation"] as? [String: Any])
        #expect(parameters["follows"] as? String == "pymindaffectBCI 0.9.24")
        #expect(model["tau_ms"] as? Double == 300)
        #expect(model["evtlabs"] as? [String] == ["re", "fe"])
        #expect(model["rank"] as? Int == 1 && model["bad_ep_thresh"] as? Double == 6 && model["center"] as? Bool == true)
        #expect(model["reg"] as? Double == 1e-8 && model["rcond_x"] as? Double == 1e-4 && model["rcond_y"] as? Double == 1e-8)
        #expect(epoching["stopband"] as? [String] == ["45,65", "5.5,25,bandpass"])
        #expect(epoching["fs_out"] as? Double == 100 && epoching["filter_order"] as? Int == 6 && epoching["iti_ms"] as? Double == 1000)
        #expect(epoching["offset_before_ms"] as? Double == -500 && epoching["offset_after_ms"] as? Double == 500)
        #expect(epoching["trlen_percentile"] as? Double == 90 && epoching["min_trial_fraction"] as? Double == 0.2)
        #expect(evaluation["cv_folds"] as? Int == 5 && evaluation["curve_points"] as? Int == 30)
        let tables = try FileManager.default.contentsOfDirectory(atPath: csv).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(tables == ["anomalies.csv", "decode_summary.csv", "decode_trials.csv", "decoding_curve.csv", "impulse_response.csv", "model.csv"])
    }

    @Test("--report: the decoding curve and the impulse responses, the same bytes on a re-run")
    func report() throws {
        let out = TestSupport.temporaryFolder()
        let page = out.appendingPathComponent("decode.html")
        var pages: [Data] = []
        for _ in 0..<2 {
            let run = try TestSupport.run(TestSupport.executable("nt-analyze"),
                                          ["decode", DecodeFixtures.samplePath, "-o", out.appendingPathComponent("d.h5").path, "--report", page.path, "-q"])
            try #require(run.status == 0, "\(run.stderr)")
            pages.append(try Data(contentsOf: page))
        }
        #expect(pages[0] == pages[1])
        let text = String(decoding: pages[0], as: UTF8.self)
        #expect(text.contains("plot-decoding-curve") && text.contains("plot-impulse-response"))
    }

    @Test("a file without trials is one error line naming the file (exit 65)")
    func noTrials() throws {
        let out = TestSupport.temporaryFolder()
        let input = out.appendingPathComponent("empty_session.txt")
        let packet = (0..<1200).map { i in "rts:\(1000 + i * 5) sts:\(1000 + i * 5)  t:DATAPACKET ts:\(i) v[1x1]:[\(Float(i % 7)),] <-/1.2.3.4:5" }
        try Data((packet.joined(separator: "\n") + "\n").utf8).write(to: input)
        let run = try TestSupport.run(TestSupport.executable("nt-analyze"), ["decode", input.path, "-o", out.appendingPathComponent("o.h5").path])
        #expect(run.status == 65)
        #expect(run.stderr.contains("empty_session.txt: error E_DECODE: no STIMULUSEVENT"), "\(run.stderr)")
    }
}
