/// One entry of an anomaly catalogue: a code of the shared vocabulary (conventions §3.2), the severity its prefix
/// says, and what it means in one sentence.
///
/// Each format library publishes the codes its tool can write to the `anomalies` table as a `catalogue`
/// (`BrainiacAnomalies`, `InteractLogAnomalies`, `BrainTrackerAnomalies`, `MYNDAnomalies`, `MindAffectAnomalies`),
/// and builds its rows with ``Anomaly/init(sourceFile:line:location:code:message:raw:)``, so that a row's severity is
/// always the one its code says. The tools' pages list the catalogues under "Anomaly codes".
public struct AnomalyCode: Sendable, Hashable, CustomStringConvertible {
    /// The code as written in the `code` column: `E_`, `W_` or `I_`, then UPPER_SNAKE, e.g. `W_RESYNC`.
    public let code: String
    /// The severity the prefix says: `E_` error, `W_` warning, `I_` info.
    public let severity: AnomalySeverity
    /// What the code means, in one sentence (the tools' pages quote it).
    public let meaning: String

    /// A catalogue entry. `code` must be well formed (``isWellFormed(_:)``): a catalogue is written once, in code,
    /// and a misspelt entry is a programming error.
    public init(_ code: String, meaning: String) {
        guard Self.isWellFormed(code), let severity = Self.severity(ofCode: code) else {
            preconditionFailure("anomaly code \(code) is not E_, W_ or I_ followed by UPPER_SNAKE")
        }
        self.code = code
        self.severity = severity
        self.meaning = meaning
    }

    public var description: String { code }

    /// The severity a code's prefix says (`E_` error, `W_` warning, `I_` info), or `nil` without one of them.
    public static func severity(ofCode code: some StringProtocol) -> AnomalySeverity? {
        if code.hasPrefix("E_") { return .error }
        if code.hasPrefix("W_") { return .warning }
        if code.hasPrefix("I_") { return .info }
        return nil
    }

    /// Whether a code is spelled as conventions §3.2 asks, `^[EWI]_[A-Z0-9_]+$`.
    public static func isWellFormed(_ code: some StringProtocol) -> Bool {
        let bytes = Array(code.utf8)
        guard bytes.count > 2, [UInt8(ascii: "E"), UInt8(ascii: "W"), UInt8(ascii: "I")].contains(bytes[0]),
              bytes[1] == UInt8(ascii: "_") else { return false }
        return bytes.dropFirst(2).allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}
