/// Proleptic Gregorian calendar arithmetic on seconds since 1970, without time zones or Foundation formatters:
/// the one piece of calendar code shared by the parsers that read wall-clock dates (BrainTracker, MYND,
/// InteractLog).
public enum CivilTime {
    /// Days since 1970-01-01 of a calendar date (Howard Hinnant's `days_from_civil`).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The calendar date of a day count since 1970-01-01.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The number of days in a month.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds since 1970 of a wall-clock time read as UTC.
    public static func seconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Double {
        Double(days(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second)
    }

    /// Seconds since 1970 of a UTC time written `YYYY-MM-DDTHH:MM:SSZ`; `nil` for any other text or an
    /// impossible date.
    public static func seconds(utcText text: String) -> Double? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        guard text.hasSuffix("Z"), text.count == 20, parts.count == 6, (1...12).contains(parts[1]),
              (1...daysInMonth(year: parts[0], month: parts[1])).contains(parts[2]),
              parts[3] < 24, parts[4] < 60, parts[5] <= 60 else { return nil }
        return seconds(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
    }

    /// ISO 8601 text of a time: `2014-12-12T14:52:03-08:00` with an offset in minutes, without one when `nil`.
    /// `seconds` is the wall-clock time already shifted to that offset.
    public static func iso8601(wallSeconds seconds: Double, offsetMinutes: Int?) -> String {
        let whole = Int(seconds.rounded(.down))
        let dayCount = whole >= 0 ? whole / 86400 : (whole - 86399) / 86400
        let secondOfDay = whole - dayCount * 86400
        let (y, m, d) = date(days: dayCount)
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if let offset = offsetMinutes {
            let magnitude = abs(offset)
            text += (offset < 0 ? "-" : "+") + "\(pad(magnitude / 60, 2)):\(pad(magnitude % 60, 2))"
        }
        return text
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
