import Tables
/// One line of a results file read by the date-anchored grammar of spec §2: `[A,]DATE,LABEL,NUMBER[,E]`.
public struct AnchoredRow: Sendable, Equatable {
    /// Field A: the text before the date without its final comma; `nil` when the date starts the line.
    public var idField: String?
    /// Field B in UTC seconds since 1970.
    public var time: Double
    /// Whether B had the `(timestamp=DATE)` form (§6, September 2014).
    public var timestampParen: Bool
    /// Field C: the label, `Session` for a session row.
    public var label: String
    /// Field D: the number.
    public var value: Double
    /// Field E: everything after the comma that follows D; `nil` in 4-field rows without it.
    public var trailing: String?

    /// Whether C marks a session row.
    public var isSessionRow: Bool { label == "Session" }
}

/// The date-anchored row grammar (spec §2). Comments are free text with unquoted commas, so the row is found by
/// the left-most `DATE` (or `(timestamp=DATE)`) at a field start that is followed by `,LABEL,NUMBER` and then
/// the end of the line or a comma.
public enum RowGrammar {
    /// What reading one line gave.
    public enum Outcome: Sendable, Equatable {
        case row(AnchoredRow)
        /// No anchor anywhere in the line.
        case noAnchor
        /// The left-most anchor's date has calendar values out of range.
        case dateOutOfRange
    }

    /// Reads one line (without its terminator).
    public static func parse(_ line: Substring) -> Outcome {
        // A line of a native string is read where it lies; any other from a copy of its bytes.
        if let outcome = line.utf8.withContiguousStorageIfAvailable(parse) { return outcome }
        return Array(line.utf8).withUnsafeBufferPointer(parse)
    }

    /// Reads one line's UTF-8 bytes.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        var position = 0
        while position < bytes.count {
            if let match = matchAnchor(bytes, at: position) {
                guard let time = match.time else { return .dateOutOfRange }
                let idField = position == 0 ? nil : decode(bytes, 0..<(position - 1))
                let label = decode(bytes, match.labelRange)
                let trailing = match.numberEnd < bytes.count ? decode(bytes, (match.numberEnd + 1)..<bytes.count) : nil
                return .row(AnchoredRow(idField: idField, time: time, timestampParen: match.paren, label: label,
                                        value: match.value, trailing: trailing))
            }
            // Next field start: after the next comma.
            guard let comma = bytes[position...].firstIndex(of: UInt8(ascii: ",")) else { break }
            position = comma + 1
        }
        return .noAnchor
    }

    private struct Match {
        var time: Double?
        var paren: Bool
        var labelRange: Range<Int>
        var value: Double
        var numberEnd: Int
    }

    private static let parenPrefix = Array("(timestamp=".utf8)
    /// The date's shape: `d` a digit, `s` a sign, anything else itself.
    private static let dateShape = Array("dddd-dd-dd dd:dd:dd sdddd".utf8)

    private static func matchAnchor(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Match? {
        var p = start
        var paren = false
        if b.count - p >= parenPrefix.count, b[p..<(p + parenPrefix.count)].elementsEqual(parenPrefix) {
            paren = true
            p += parenPrefix.count
        }
        guard let (time, dateEnd) = matchDate(b, at: p) else { return nil }
        p = dateEnd
        if paren {
            guard p < b.count, b[p] == UInt8(ascii: ")") else { return nil }
            p += 1
        }
        guard p < b.count, b[p] == UInt8(ascii: ",") else { return nil }
        p += 1
        let labelStart = p
        while p < b.count, b[p] != UInt8(ascii: ",") { p += 1 }
        guard p > labelStart, p < b.count else { return nil }
        let labelRange = labelStart..<p
        p += 1
        guard let (value, numberEnd) = matchNumber(b, at: p) else { return nil }
        guard numberEnd == b.count || b[numberEnd] == UInt8(ascii: ",") else { return nil }
        return Match(time: time, paren: paren, labelRange: labelRange, value: value, numberEnd: numberEnd)
    }

    /// `\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}`; the time is `nil` when a value is out of range.
    static func matchDate(_ b: UnsafeBufferPointer<UInt8>, at p: Int) -> (Double?, Int)? {
        let shape = dateShape
        guard b.count - p >= shape.count else { return nil }
        for (offset, expected) in shape.enumerated() {
            let c = b[p + offset]
            switch expected {
            case UInt8(ascii: "d"): guard c >= 48 && c <= 57 else { return nil }
            case UInt8(ascii: "s"): guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return nil }
            default: guard c == expected else { return nil }
            }
        }
        func number(_ from: Int, _ count: Int) -> Int {
            var value = 0
            for i in 0..<count { value = value * 10 + Int(b[p + from + i] - 48) }
            return value
        }
        let (year, month, day) = (number(0, 4), number(5, 2), number(8, 2))
        let (hour, minute, second) = (number(11, 2), number(14, 2), number(17, 2))
        let zoneHours = number(21, 2), zoneMinutes = number(23, 2)
        let end = p + shape.count
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 60, zoneHours <= 23, zoneMinutes <= 59 else { return (nil, end) }
        let sign: Double = b[p + 20] == UInt8(ascii: "-") ? -1 : 1
        let local = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return (local - sign * Double(zoneHours * 3600 + zoneMinutes * 60), end)
    }

    /// `[0-9]+(\.[0-9]*)?|\.[0-9]+` with an optional exponent, read without a locale.
    static func matchNumber(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> (Double, Int)? {
        var p = start
        func digits() -> Int {
            let from = p
            while p < b.count, b[p] >= 48, b[p] <= 57 { p += 1 }
            return p - from
        }
        let integerDigits = digits()
        var fractionDigits = 0
        if p < b.count, b[p] == UInt8(ascii: ".") {
            p += 1
            fractionDigits = digits()
        }
        guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        if p < b.count, b[p] == UInt8(ascii: "e") || b[p] == UInt8(ascii: "E") {
            let save = p
            p += 1
            if p < b.count, b[p] == UInt8(ascii: "+") || b[p] == UInt8(ascii: "-") { p += 1 }
            if digits() == 0 { p = save }
        }
        guard let value = Double(decode(b, start..<p)) else { return nil }
        return (value, p)
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
