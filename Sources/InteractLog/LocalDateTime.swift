import Tables
/// Header dates `dd/MM/yyyy - HH:mm:ss` (24-hour, local time of the writing computer, no zone; spec §1.1).
public enum LocalDateTime {
    /// Seconds since 1970-01-01T00:00:00 on the writer's wall clock, or `nil` if the text is not such a date.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        let digits = Array(text.utf8)
        // dd/MM/yyyy - HH:mm:ss
        guard digits.count == 21, digits[2] == 47, digits[5] == 47, digits[10] == 32, digits[11] == 45,
              digits[12] == 32, digits[15] == 58, digits[18] == 58 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = digits[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let day = number(0..<2), let month = number(3..<5), let year = number(6..<10),
              let hour = number(13..<15), let minute = number(16..<18), let second = number(19..<21),
              (1...12).contains(month), (1...CivilTime.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        return Double(CivilTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// The file-name stamp `yyyy-MM-dd - HH-mm-ss` of a time (spec §6).
    public static func fileStamp(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let (year, month, day) = CivilTime.date(days: days)
        let rest = total - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) - \(two(rest / 3600))-\(two(rest % 3600 / 60))-\(two(rest % 60))"
    }
}
