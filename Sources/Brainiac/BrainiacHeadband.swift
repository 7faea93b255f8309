/// The Brainiac 4-channel EEG headband: capture decoding, the SDK's FFT frames, baseline and indicators, and
/// the SDK test-sequence synthesizer.
public enum BrainiacHeadband {
    /// The sampling rate the SDK hard-codes: 250 samples = 1 s.
    public static let samplingRate = 250.0
    /// The channel names, in packet order: ch1 = T3, ch2 = O1, ch3 = T4, ch4 = O2.
    public static let channelNames = ["T3", "O1", "T4", "O2"]
}
