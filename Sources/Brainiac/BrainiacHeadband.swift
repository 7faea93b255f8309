/// The Brainiac 4-channel EEG headband: capture decoding, the SDK's FFT frames, baseline and indicators, and
/// the SDK test-sequence synthesizer.
public enum BrainiacHeadband {
    /// The sampling rate the SDK hard-codes: 250 samples = 1 s.
    public static let samplingRate = 250.0
    /// The largest sample number the tables hold (they store sample numbers as 32-bit integers): 99 days at 250 Hz.
    /// Options that name a sample or a duration beyond it are refused (exit 64), as no capture is that long.
    public static let largestSampleNumber = Int(Int32.max)
    /// The channel names, in packet order: ch1 = T3, ch2 = O1, ch3 = T4, ch4 = O2.
    public static let channelNames = ["T3", "O1", "T4", "O2"]
}
