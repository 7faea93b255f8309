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
              (1...12).contains(month), (1...daysInMonth(month, year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        return Double(daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// The file-name stamp `yyyy-MM-dd - HH-mm-ss` of a time (spec §6).
    public static func fileStamp(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let (year, month, day) = civil(daysSince1970: days)
        let rest = total - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) - \(two(rest / 3600))-\(two(rest % 3600 / 60))-\(two(rest % 60))"
    }

    static func daysInMonth(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day count from 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
