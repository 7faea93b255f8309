import Tables
/// What a session ID says (spec §5.1): the comment and the local start time written with the Unicode pattern
/// `YYYYMMDDHHmm` (week-based year, month, **day of year**, hour, minute) in the device's zone.
public struct SessionIDStamp: Sendable, Equatable {
    /// The text between `ID` and the last `|`.
    public var comment: String
    /// The digits after the last `|`.
    public var stamp: String

    /// Splits an ID of the form `ID<comment>|<stamp>`; `nil` when there is no `|` (legacy hand-made IDs).
    public init?(id: String) {
        guard let bar = id.lastIndex(of: "|") else { return nil }
        var comment = id[..<bar]
        if comment.hasPrefix("ID") { comment = comment.dropFirst(2) }
        self.comment = String(comment)
        stamp = String(id[id.index(after: bar)...])
    }

    /// How decoding the stamp against a UTC anchor went.
    public enum Decoded: Sendable, Equatable {
        /// The UTC offset in minutes (local − UTC) and the local start read from the stamp (seconds since 1970
        /// on the local wall clock).
        case offset(minutes: Int, localStart: Double)
        /// The stamp is not 12–13 digits, or its values are out of range, or no calendar year fits.
        case unparsed(reason: String)
    }

    /// Decodes the stamp against `anchor` (UTC seconds). The offset is exact against a session row's start;
    /// `roundToQuarterHour` rounds it to 15 min (anchor = first trial time).
    public func decode(anchor: Double, roundToQuarterHour: Bool) -> Decoded {
        let digits = Array(stamp.utf8)
        guard (12...13).contains(digits.count), digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            return .unparsed(reason: "stamp \"\(stamp)\" is not 12–13 digits")
        }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(digits[$1] - 48) } }
        let weekYear = number(0..<4), month = number(4..<6)
        let dayOfYear = number(6..<(digits.count - 4))
        let hour = number((digits.count - 4)..<(digits.count - 2)), minute = number((digits.count - 2)..<digits.count)
        guard (1...12).contains(month), (1...366).contains(dayOfYear), hour <= 23, minute <= 59 else {
            return .unparsed(reason: "stamp \"\(stamp)\" has values out of range")
        }
        let anchorMinute = (anchor / 60).rounded(.down) * 60
        for year in [weekYear, weekYear - 1, weekYear + 1] {
            guard dayOfYear <= (CivilTime.isLeap(year) ? 366 : 365) else { continue }
            let dayCount = CivilTime.days(year: year, month: 1, day: 1) + dayOfYear - 1
            guard CivilTime.date(days: dayCount).month == month else { continue }
            let local = Double(dayCount * 86400 + hour * 3600 + minute * 60)
            let difference = local - anchorMinute
            guard abs(difference) <= 14 * 3600 else { continue }
            var minutes = Int((difference / 60).rounded())
            if roundToQuarterHour { minutes = Int((Double(minutes) / 15).rounded()) * 15 }
            return .offset(minutes: minutes, localStart: local)
        }
        return .unparsed(reason: "no calendar year near \(weekYear) puts day \(dayOfYear) in month \(month) within 14 h of the UTC time")
    }

    /// Whether an offset is implausible: outside −720…+840 min or not a multiple of 15 (warning `offset-odd`).
    public static func isOdd(offsetMinutes: Int) -> Bool {
        !(-720...840).contains(offsetMinutes) || offsetMinutes % 15 != 0
    }
}
