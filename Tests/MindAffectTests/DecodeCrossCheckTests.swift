import Foundation
import Testing
import TestSupport
import MindAffect
@testable import NoiseTagDecoding

/// `nt-analyze decode` stage by stage against pymindaffectBCI 0.9.24 on PMB's own example file (spec §4.4, §5).
@Suite("Decoder against pymindaffectBCI 0.9.24 (example file)",
       .enabled(if: TestSupport.hasRealData("mindaffect"), "../shared/realdata/mindaffect is absent"),
       .enabled(if: PMBReference.available, ".venv-pmb is absent: run scripts/setup.sh (make test does)"))
struct DecodeCrossCheckTests {
    @Test("the per-sample times (lower-bound tracker) equal PMB's for all 44,406 samples")
    func sampleTimes() throws {
        let pmb = try PMBReference.example.get()
        let analysis = try DecodeFixtures.exampleAnalysis.get()
        let ours = try #require(analysis.pymindaffect).sampleTs.map(Double.init)
        #expect(ours.count == 44_406 && pmb.sampleTimes.count == 44_406)
        let differing = zip(ours, pmb.sampleTimes).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) sample times differ")
    }

    @Test("X (20, 673, 4) at 100 Hz within 1e-4 of PMB's float32 X; Y and the trial starts identical")
    func loader() throws {
        let pmb = try PMBReference.example.get()
        let ours = try DecodeFixtures.example.get().recording
        #expect(pmb.summary.X_shape == [20, 673, 4])
        #expect([ours.trialCount, ours.windowSamples, ours.channelCount] == pmb.summary.X_shape)
        #expect([ours.trialCount, ours.windowSamples, ours.outputCount] == pmb.summary.Y_shape)
        #expect(ours.fs == 100 && pmb.summary.fs == 100)
        #expect(ours.trialStartPMBMs.map { Int($0) } == pmb.summary.trial_ts)
        let differing = zip(ours.y, pmb.y).enumerated().filter { Int32($0.element.0) != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "\(differing.count) Y values differ, first at (trial, sample, output) \(differing.first.map { ($0 / (673 * 26), $0 / 26 % 673, $0 % 26) }.map { "\($0)" } ?? "")")
        let scale = pmb.x.map { abs(Double($0)) }.max()!
        let worst = zip(ours.x, pmb.x).map { abs(Double($0) - Double($1)) }.max()!
        #expect(worst / scale < 1e-4, "largest |ΔX| \(worst) µV of \(scale)")
    }

    @Test("tau 45 samples; W, R and A equal PMB's up to sign (correlation above 0.999)")
    func model() throws {
        let pmb = try PMBReference.example.get()
        let model = try DecodeFixtures.example.get().result.model
        #expect(model.tau == 45 && pmb.summary.tau == 45)
        let w = model.spatialFilters[0], r = model.impulseResponses[0].flatMap { $0 }, a = model.spatialPatterns[0]
        #expect(abs(correlation(w, pmb.summary.W)) > 0.999, "W \(w) vs \(pmb.summary.W)")
        #expect(abs(correlation(r, pmb.summary.R)) > 0.999)
        #expect(abs(correlation(a, pmb.summary.A)) > 0.999)
    }

    @Test("audc_score 0.7425 as PMB reports it; the cross-validated scores follow PMB's")
    func audcScore() throws {
        let pmb = try PMBReference.example.get()
        let result = try DecodeFixtures.example.get().result
        #expect((pmb.summary.audc_score * 10_000).rounded() == 7425)
        #expect((result.audcScore * 10_000).rounded() == (pmb.summary.audc_score * 10_000).rounded(),
                "ours \(result.audcScore), PMB \(pmb.summary.audc_score)")
        let ours = result.scores.values
        let scale = pmb.fy.map { abs(Double($0)) }.max()!
        let worst = zip(ours, pmb.fy).map { abs($0 - Double($1)) }.max()!
        #expect(worst / scale < 1e-3, "largest |ΔFy| \(worst) of \(scale)")
        #expect(result.foldScores.map { ($0 * 1e9).rounded() } == pmb.summary.fold_scores.map { ($0 * 1e9).rounded() })
        #expect(abs(result.sigma0 - pmb.summary.sigma0) < 1e-4 * pmb.summary.sigma0)
        #expect(result.softmaxScale == pmb.summary.softmaxscale)
    }

    @Test("per-trial decisions at full length: trials 5, 11, 17, 18 wrong (error rate 0.20), as PMB with tie-breaking off")
    func decisions() throws {
        let pmb = try PMBReference.example.get()
        let curve = try DecodeFixtures.example.get().result.curve
        let pmbWrong = pmb.summary.trial_wrong.enumerated().filter { $0.element.last == 1 }.map(\.offset)
        let ourWrong = curve.predicted.enumerated().filter { $0.element.last! != 0 }.map(\.offset)
        #expect(pmbWrong == [5, 11, 17, 18])
        #expect(ourWrong == pmbWrong)
        #expect(curve.errorRate.last == 0.2)
    }

    @Test("per trial and integration length from 100 samples on: the same decisions as PMB, estimated errors within 1e-3")
    func perTrialCurve() throws {
        let pmb = try PMBReference.example.get()
        let curve = try DecodeFixtures.example.get().result.curve
        var decisions = 0, errors = 0
        for (i, length) in curve.lengths.enumerated() where length >= ScoreNormalisation.minDecisionLength {
            for trial in 0..<curve.predicted.count {
                let ourWrong = curve.predicted[trial][i] != 0
                if ourWrong != (pmb.summary.trial_wrong[trial][i] == 1) { decisions += 1 }
                if abs(curve.estimatedError[trial][i] - pmb.summary.trial_perr[trial][i]) >= 1e-3 { errors += 1 }
            }
        }
        #expect(decisions == 0, "\(decisions) (trial, length) decisions differ")
        #expect(errors == 0, "\(errors) (trial, length) estimated errors differ by 1e-3 or more")
    }

    @Test("decoding curve: the 30 integration lengths; error rates equal PMB's from 100 samples on, estimated ones within 0.02")
    func curve() throws {
        let pmb = try PMBReference.example.get()
        let curve = try DecodeFixtures.example.get().result.curve
        #expect(curve.lengths == pmb.summary.integration_lengths)
        let pmbRate = pmb.summary.perr, pmbEst = pmb.summary.perr_est
        for (i, length) in curve.lengths.enumerated() where length >= ScoreNormalisation.minDecisionLength {
            #expect(abs(curve.errorRate[i] - pmbRate[i]) < 1e-9, "error rate at \(length): ours \(curve.errorRate[i]), PMB \(pmbRate[i])")
            #expect(abs(curve.estimatedErrorRate[i] - pmbEst[i]) < 0.02, "estimated at \(length): ours \(curve.estimatedErrorRate[i]), PMB \(pmbEst[i])")
        }
    }
}
