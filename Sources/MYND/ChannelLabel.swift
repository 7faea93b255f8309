/// The 10-20 names of the Muse 2016 channels as LibMuse orders them (spec §3.2); MYND never stores them.
public enum ChannelLabel {
    /// `Left Ear` → TP9, `Left Front` → AF7, `Right Front` → AF8, `Right Ear` → TP10, `AUX` stays `AUX`.
    public static let tenTwenty: [String: String] = [
        "Left Ear": "TP9", "Left Front": "AF7", "Right Front": "AF8", "Right Ear": "TP10", "AUX": "AUX",
    ]

    /// The 10-20 name of a stored channel name; `nil` for others (the oscillator's `Channel1`…).
    public static func tenTwenty(_ stored: String) -> String? { tenTwenty[stored] }
}
