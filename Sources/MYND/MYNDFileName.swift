/// The fields of a MYND file name `(q|r)_<scenario>_<day>_<sessionID>_<runID>_<UUID>.(json|hdf)[.asc]` (spec §1.1).
public struct MYNDFileName: Sendable, Equatable, Hashable, Codable {
    /// Questionnaire result or EEG recording.
    public enum Kind: String, Sendable, Codable {
        case questionnaire = "q"
        case recording = "r"
    }

    public var kind: Kind
    /// Scenario raw value (`initial`, `rest`, …).
    public var scenario: String
    /// Study day, 1-based.
    public var day: Int
    /// Index of the scenario in the study's list (not a visit counter).
    public var sessionID: Int
    /// The app's global run counter.
    public var runID: Int
    /// Subject UUID, upper-cased.
    public var subjectID: String
    /// Whether the name ends in `.asc` (an OpenPGP-encrypted file).
    public var encrypted: Bool

    public init(kind: Kind, scenario: String, day: Int, sessionID: Int, runID: Int, subjectID: String,
                encrypted: Bool) {
        self.kind = kind
        self.scenario = scenario
        self.day = day
        self.sessionID = sessionID
        self.runID = runID
        self.subjectID = subjectID
        self.encrypted = encrypted
    }

    /// Parses the last path component of `path`; `nil` when it does not follow the grammar.
    public init?(path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        var rest = Substring(name)
        var encrypted = false
        if rest.hasSuffix(".asc") { encrypted = true; rest = rest.dropLast(4) }
        let kind: Kind
        if rest.hasPrefix("q_"), rest.hasSuffix(".json") {
            kind = .questionnaire; rest = rest.dropFirst(2).dropLast(5)
        } else if rest.hasPrefix("r_"), rest.hasSuffix(".hdf") {
            kind = .recording; rest = rest.dropFirst(2).dropLast(4)
        } else {
            return nil
        }
        let parts = rest.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 5 else { return nil }
        let scenario = parts[0]
        guard !scenario.isEmpty, scenario.allSatisfy({ $0.isASCII && $0.isLetter }),
              let day = MYNDFileName.number(parts[1]), let session = MYNDFileName.number(parts[2]),
              let run = MYNDFileName.number(parts[3]), MYNDFileName.isUUID(parts[4]) else { return nil }
        self.init(kind: kind, scenario: String(scenario), day: day, sessionID: session, runID: run,
                  subjectID: parts[4].uppercased(), encrypted: encrypted)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// Whether `text` is `8-4-4-4-12` hexadecimal digits (either case).
    public static func isUUID<S: StringProtocol>(_ text: S) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
