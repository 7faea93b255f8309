import Foundation
import Spectral

/// The options of the SDK re-computation and the band power (spec §4.2, §4.3); recorded in the provenance.
public struct BrainiacAnalysisOptions: Sendable, Codable, Equatable {
    /// S, the baseline start in received samples (even, ≥ 2750); `nil` disables the baseline and indicators.
    public var baselineStart: Int?
    /// D, the baseline delay in received samples (default 2500 = 10 s): the baseline is taken at E = S + D.
    public var baselineDelay: Int
    /// `sdk` (X4m quirk) or `corrected`.
    public var indicatorRules: IndicatorRuleSet
    /// The `band_power` bands.
    public var bands: [FrequencyBand]
    /// The `band_power` window length in seconds (default 10).
    public var windowSeconds: Double
    /// The Welch parameters of `band_power` (scipy defaults at 250 Hz).
    public var welch: WelchParameters

    enum CodingKeys: String, CodingKey {
        case baselineStart = "baseline_start_sample", baselineDelay = "baseline_delay"
        case indicatorRules = "indicator_rules", bands, windowSeconds = "window_s", welch
    }

    /// The earliest start the SDK accepts: `counter / 250 > 10`.
    public static let earliestBaselineStart = 2750

    public init(baselineStart: Int? = BrainiacAnalysisOptions.earliestBaselineStart, baselineDelay: Int = 2500,
                indicatorRules: IndicatorRuleSet = .sdk, bands: [FrequencyBand] = FrequencyBand.defaults,
                windowSeconds: Double = 10, welch: WelchParameters = WelchParameters(samplingRate: BrainiacHeadband.samplingRate)) {
        self.baselineStart = baselineStart
        self.baselineDelay = baselineDelay
        self.indicatorRules = indicatorRules
        self.bands = bands
        self.windowSeconds = windowSeconds
        self.welch = welch
    }

    /// Encodes every option, a disabled baseline as `null`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(baselineStart, forKey: .baselineStart)
        try container.encode(baselineDelay, forKey: .baselineDelay)
        try container.encode(indicatorRules, forKey: .indicatorRules)
        try container.encode(bands, forKey: .bands)
        try container.encode(windowSeconds, forKey: .windowSeconds)
        try container.encode(welch, forKey: .welch)
    }

    /// S from the text of `--baseline-start-s`: `none` (disabled, `nil`) or seconds; `nil` result for `none`,
    /// throws for anything else that is not a finite number ≥ 0.
    public static func baselineStart(parsingSeconds text: String) throws(AnalysisOptionsError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "none" { return nil }
        guard let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 else {
            throw .baselineStartText(text)
        }
        guard seconds * BrainiacHeadband.samplingRate <= Double(BrainiacHeadband.largestSampleNumber) else {
            throw .beyondAnyCapture(option: "--baseline-start-s", value: trimmed)
        }
        return baselineStart(seconds: seconds)
    }

    /// S from `--baseline-start-s`: `ceil(seconds·250)`, rounded up to an even number.
    public static func baselineStart(seconds: Double) -> Int {
        baselineStart(sample: Int((seconds * BrainiacHeadband.samplingRate).rounded(.up)))
    }

    /// S from `--baseline-start-sample`: rounded up to an even number.
    public static func baselineStart(sample: Int) -> Int {
        // Int.max (odd) stays as it is, for validate() to refuse.
        let (even, overflow) = sample.addingReportingOverflow(sample & 1)
        return overflow ? sample : even
    }

    /// E = S + D, or `nil` when the baseline is disabled.
    public var baselineEnd: Int? { baselineStart.map { $0 + baselineDelay } }

    /// Samples per `band_power` window: `round(windowSeconds·250)`.
    public var windowSampleCount: Int { Int((windowSeconds * BrainiacHeadband.samplingRate).rounded()) }

    /// Checks the options; the tool reports a failure as a usage error (exit 64).
    public func validate() throws(AnalysisOptionsError) {
        if let start = baselineStart, start < BrainiacAnalysisOptions.earliestBaselineStart {
            throw .baselineTooEarly(start)
        }
        guard baselineDelay >= 0 else { throw .negativeDelay(baselineDelay) }
        // Sample numbers past any capture (their sum could not even be formed) are refused before they are used.
        let largest = BrainiacHeadband.largestSampleNumber
        guard baselineDelay <= largest else { throw .beyondAnyCapture(option: "--baseline-delay", value: "\(baselineDelay)") }
        if let start = baselineStart, start > largest - baselineDelay {
            throw .beyondAnyCapture(option: "--baseline-start", value: "\(start) + \(baselineDelay)")
        }
        guard windowSeconds.isFinite, windowSeconds > 0 else { throw .window(windowSeconds) }
        guard windowSeconds * BrainiacHeadband.samplingRate <= Double(largest) else {
            throw .beyondAnyCapture(option: "--window-s", value: "\(windowSeconds)")
        }
        guard windowSampleCount >= 1 else { throw .window(windowSeconds) }
        guard !bands.isEmpty else { throw .noBands }
        do { try welch.validate() } catch { throw .welch(error) }
    }
}

/// Analysis options that cannot work (usage errors).
public enum AnalysisOptionsError: Error, Equatable, CustomStringConvertible {
    case baselineTooEarly(Int)
    case baselineStartText(String)
    case negativeDelay(Int)
    case window(Double)
    /// A sample number or a duration beyond the largest the tables hold (``BrainiacHeadband/largestSampleNumber``).
    case beyondAnyCapture(option: String, value: String)
    case noBands
    case welch(WelchParameterError)

    public var description: String {
        switch self {
        case .baselineTooEarly(let s):
            "--baseline-start: expected at least 2750 samples (11 s), the earliest the SDK accepts, found \(s)"
        case .baselineStartText(let text):
            "--baseline-start-s: expected a number of seconds or none, found \"\(text)\""
        case .negativeDelay(let d): "--baseline-delay: expected a number of samples ≥ 0, found \(d)"
        case .window(let w): "--window-s: expected a positive number of seconds, found \(w)"
        case .beyondAnyCapture(let option, let value):
            "\(option): \(value) lies beyond any capture (at most \(BrainiacHeadband.largestSampleNumber) samples, 99 days at 250 Hz)"
        case .noBands: "--bands: expected at least one band"
        case .welch(let error): error.description
        }
    }
}
