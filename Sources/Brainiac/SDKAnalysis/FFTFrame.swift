/// One of the SDK's 1-s FFT frames (spec §3): per channel and band, the dominant bin and the band mean.
public struct FFTFrame: Sendable, Equatable {
    /// The frame number k within the segment (0-based): computed at counter 250·(k + 1).
    public var index: Int
    /// The received-sample count at which the SDK computed it, 250·(k + 1).
    public var counter: Int
    /// `t_s`: (sample_index of the window's last sample + 1) / 250, the window's end on the device clock.
    public var endSeconds: Double
    /// Whether lost samples lie inside the window (or it holds samples filled by `--gaps fill`).
    public var spansGap: Bool
    /// T3, O1, T4, O2.
    public var channels: [Channel]

    /// One channel of a frame.
    public struct Channel: Sendable, Equatable {
        /// theta, alpha, beta (``SDKBand`` order).
        public var bands: [Band]
        /// The quality rule's own result (before any bypass).
        public var clearRule: Bool
        /// What the SDK stored: the rule's result, or `true` while the baseline bypass is on.
        public var clear: Bool

        public init(bands: [Band], clearRule: Bool, clear: Bool) {
            self.bands = bands
            self.clearRule = clearRule
            self.clear = clear
        }

        /// The band's values.
        public subscript(band: SDKBand) -> Band { bands[band.rawValue] }
    }

    /// One band of one channel.
    public struct Band: Sendable, Equatable {
        /// `dataN`: the dominant bin (lowest bin on ties).
        public var dominantBin: Int
        /// The dominant bin refined by parabolic interpolation, in Hz.
        public var peakHz: Double
        /// `dataN_`: the mean SDK magnitude (2·|DFT| of nV samples) over the band's bins.
        public var mean: Double

        public init(dominantBin: Int, peakHz: Double, mean: Double) {
            self.dominantBin = dominantBin
            self.peakHz = peakHz
            self.mean = mean
        }

        /// `dominant_bin · 250/256` in Hz.
        public var dominantHz: Double { Double(dominantBin) * FrameEngine.binWidth }
    }

    public init(index: Int, counter: Int, endSeconds: Double, spansGap: Bool, channels: [Channel]) {
        self.index = index
        self.counter = counter
        self.endSeconds = endSeconds
        self.spansGap = spansGap
        self.channels = channels
    }
}
