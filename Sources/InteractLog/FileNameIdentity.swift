/// What a log's file name says (spec §6): `<name> (Trial <n>) <yyyy-MM-dd - HH-mm-ss>[_strokes|_keys].txt`.
public struct FileNameIdentity: Sendable, Equatable {
    public var participant: String
    public var trial: Int
    /// `yyyy-MM-dd - HH-mm-ss`.
    public var stamp: String
    /// `_strokes` or `_keys` for the Java program's companion files.
    public var suffix: String?

    /// Matches the last path component against the name pattern (the name part greedy).
    public static func parse(path: String) -> FileNameIdentity? {
        let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard fileName.hasSuffix(".txt") else { return nil }
        var stem = Substring(fileName.dropLast(4))
        var suffix: String?
        for candidate in ["_strokes", "_keys"] where stem.hasSuffix(candidate) {
            suffix = candidate
            stem = stem.dropLast(candidate.count)
        }
        // stamp: 21 characters `yyyy-MM-dd - HH-mm-ss`
        guard stem.count > 21 else { return nil }
        let stamp = stem.suffix(21)
        let pattern = Array("0000-00-00 - 00-00-00")
        for (character, expected) in zip(stamp, pattern) {
            if expected == "0" ? !(character.isASCII && character.isNumber) : character != expected { return nil }
        }
        let beforeStamp = stem.dropLast(21)
        guard beforeStamp.hasSuffix(") "), let open = beforeStamp.range(of: " (Trial ", options: .backwards) else { return nil }
        let digits = beforeStamp[open.upperBound..<beforeStamp.index(beforeStamp.endIndex, offsetBy: -2)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let trial = Int(digits) else { return nil }
        return FileNameIdentity(participant: String(beforeStamp[..<open.lowerBound]), trial: trial, stamp: String(stamp),
                                suffix: suffix)
    }

    /// Whether a path names a Java `_strokes.txt` / `_keys.txt` companion file, which is skipped (`I_COMPANION`).
    public static func isCompanion(path: String) -> Bool {
        path.hasSuffix("_strokes.txt") || path.hasSuffix("_keys.txt")
    }
}
