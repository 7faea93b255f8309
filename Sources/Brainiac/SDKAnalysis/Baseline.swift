/// X (alpha of O1/O2) and Y (beta of T3/T4) over a run of frames, as the SDK averaged them (spec §4.1): per
/// channel, the mean of its band mean over the frames where that channel is clear (summed in frame order, then
/// divided); then (m_a + m_b)/2 when both channels have one, the one that exists otherwise, else empty.
public enum ActivityAverages {
    /// X over `frames`: `data2_` of O1 (ch2) and O2 (ch4).
    public static func x<Frames: Collection<FFTFrame>>(_ frames: Frames) -> Double? {
        pair(frames, band: .alpha, channels: (1, 3))
    }

    /// Y over `frames`: `data3_` of T3 (ch1) and T4 (ch3).
    public static func y<Frames: Collection<FFTFrame>>(_ frames: Frames) -> Double? {
        pair(frames, band: .beta, channels: (0, 2))
    }

    private static func pair<Frames: Collection<FFTFrame>>(_ frames: Frames, band: SDKBand,
                                                           channels: (Int, Int)) -> Double? {
        switch (mean(frames, band: band, channel: channels.0), mean(frames, band: band, channel: channels.1)) {
        case let (a?, b?): (a + b) / 2
        case let (a?, nil): a
        case let (nil, b?): b
        case (nil, nil): nil
        }
    }

    private static func mean<Frames: Collection<FFTFrame>>(_ frames: Frames, band: SDKBand, channel: Int) -> Double? {
        var sum = 0.0, count = 0
        for frame in frames where frame.channels[channel].clear {
            sum += frame.channels[channel][band].mean
            count += 1
        }
        return count > 0 ? sum / Double(count) : nil
    }
}

/// The baseline of one segment (spec §4.1–4.2): when it was taken and what came of it.
public struct Baseline: Sendable, Equatable {
    /// How the baseline ended.
    public enum Status: String, Sendable, Codable {
        /// X0 and Y0 were found; indicators run.
        case ok
        /// X or Y was empty (no clear channel in the 10 frames): no indicators, the bypass stays on.
        case failedEmpty = "failed_empty"
        /// The segment ended before E.
        case notStarted = "not_started"
    }

    /// S, the baseline start in received samples.
    public var startCounter: Int
    /// E = S + D, when the baseline is taken.
    public var endCounter: Int
    /// Device time at E; `nil` if not started.
    public var endSeconds: Double?
    /// The first and last of the 10 frames used; `nil` if not started.
    public var frames: ClosedRange<Int>?
    /// X0, Y0 and the thresholds when ``status`` is `ok`.
    public var thresholds: IndicatorThresholds?
    public var rules: IndicatorRuleSet
    public var status: Status

    public init(startCounter: Int, endCounter: Int, endSeconds: Double?, frames: ClosedRange<Int>?,
                thresholds: IndicatorThresholds?, rules: IndicatorRuleSet, status: Status) {
        self.startCounter = startCounter
        self.endCounter = endCounter
        self.endSeconds = endSeconds
        self.frames = frames
        self.thresholds = thresholds
        self.rules = rules
        self.status = status
    }

    /// Frames in the baseline: the last 10 before E.
    public static let frameCount = 10
    /// Frames in each indicator: the last 5.
    public static let indicatorFrameCount = 5
    /// Received samples between indicators (5 s).
    public static let indicatorInterval = 1250
}
