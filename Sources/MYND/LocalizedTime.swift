import Tables
/// The order of day, month and year in a localized date.
public enum DateOrder: String, Sendable, Codable, CaseIterable {
    case mdy, dmy, ymd
}

/// A wall-clock string of the app's `MM dd yyyy, hh:mm:ss ZZZZ` template as some device region printed it, e.g.
/// `05/02/2020, 5:09:05 PM GMT+02:00` (spec §4). The raw text is kept; the fields are read where they can be.
public struct LocalizedTime: Sendable, Equatable, Codable {
    /// The string as stored.
    public var raw: String
    /// The year (the 4-digit group), or `nil` when the date could not be read.
    public var year: Int?
    /// The two other date numbers, in the order they appear.
    public var first: Int?
    public var second: Int?
    /// Whether the year comes first (`ymd`); otherwise it comes last.
    public var yearFirst: Bool
    /// Time of day on a 24-hour clock, or `nil` when it could not be read.
    public var secondsOfDay: Int?
    /// Offset from UTC in minutes (`GMT+02:00` → 120, bare `GMT`/`UTC` → 0); `nil` when no zone is written.
    public var offsetMinutes: Int?
    /// Why part of the string could not be read (for a `time-unparsed` warning); `nil` when all of it was.
    public var problem: String?

    /// Parses `raw`; never fails, but leaves unreadable parts `nil` and says why in ``problem``.
    public init(_ raw: String) {
        self.raw = raw
        yearFirst = false
        var text = Substring(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        // 1. Zone: trailing (GMT|UTC)([+-]h[h][[:]mm])?
        if let zone = LocalizedTime.trailingZone(text) {
            offsetMinutes = zone.minutes
            text = text[..<zone.start]
        }
        // 2. Time: h[h][:.]mm[:.]ss with an optional AM/PM word.
        let scalars = Array(text.unicodeScalars)
        var timeRange: Range<Int>?
        var index = 0
        while index < scalars.count, timeRange == nil {
            if LocalizedTime.isDigit(scalars[index]), index == 0 || !LocalizedTime.isDigit(scalars[index - 1]) {
                timeRange = LocalizedTime.matchTime(scalars, at: index)
            }
            index += 1
        }
        var words: [String] = []
        var groups: [String] = []
        var position = 0
        while position < scalars.count {
            if let range = timeRange, range.contains(position) { position = range.upperBound; continue }
            let scalar = scalars[position]
            if LocalizedTime.isDigit(scalar) {
                var end = position
                while end < scalars.count, LocalizedTime.isDigit(scalars[end]), timeRange?.contains(end) != true { end += 1 }
                groups.append(String(String.UnicodeScalarView(scalars[position..<end])))
                position = end
            } else if scalar.properties.isAlphabetic {
                var end = position
                while end < scalars.count, scalars[end].properties.isAlphabetic { end += 1 }
                words.append(String(String.UnicodeScalarView(scalars[position..<end])))
                position = end
            } else {
                position += 1
            }
        }
        var problems: [String] = []
        var pm: Bool?
        for word in words {
            switch word.uppercased() {
            case "AM": pm = false
            case "PM": pm = true
            default: problems.append("unknown word \"\(word)\"")
            }
        }
        if let range = timeRange, problems.isEmpty {
            let parts = String(String.UnicodeScalarView(scalars[range]))
                .split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Int($0) }
            var hour = parts[0]
            if let pm {
                if hour == 12 { hour = 0 }
                if pm { hour += 12 }
            }
            if parts.count == 3, hour < 24, parts[1] < 60, parts[2] < 61, !(pm != nil && parts[0] > 12) {
                secondsOfDay = hour * 3600 + parts[1] * 60 + parts[2]
            } else {
                problems.append("time out of range")
            }
        } else if timeRange == nil {
            problems.append("no h:mm:ss time")
        }
        // 3. Date: three digit groups, the 4-digit one the year (first or last).
        if groups.count == 3, let a = Int(groups[0]), let b = Int(groups[1]), let c = Int(groups[2]) {
            if groups[0].count == 4 {
                yearFirst = true; year = a; first = b; second = c
            } else if groups[2].count == 4 {
                year = c; first = a; second = b
            } else {
                problems.append("no 4-digit year")
            }
        } else {
            problems.append("expected three date numbers, found \(groups.count)")
        }
        if offsetMinutes == nil { problems.append("no GMT/UTC zone") }
        problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The date orders the numbers allow: `ymd` when the year comes first, else those of `mdy`/`dmy` whose
    /// month is 1…12 and day 1…31.
    public var possibleOrders: [DateOrder] {
        guard year != nil, let first, let second else { return [] }
        if yearFirst { return (1...12).contains(first) && (1...31).contains(second) ? [.ymd] : [] }
        var orders: [DateOrder] = []
        if (1...12).contains(first), (1...31).contains(second) { orders.append(.mdy) }
        if (1...12).contains(second), (1...31).contains(first) { orders.append(.dmy) }
        return orders
    }

    /// Whether the day/month order cannot be told from the numbers alone.
    public var isAmbiguous: Bool { possibleOrders.count > 1 && first != second }

    /// The wall-clock time as seconds since 1970 on that clock (no zone applied), for a date order.
    public func localSeconds(order: DateOrder) -> Double? {
        guard let year, let first, let second, let secondsOfDay, possibleOrders.contains(order) else { return nil }
        let (month, day) = order == .dmy ? (second, first) : (first, second)
        return Double(CivilTime.days(year: year, month: month, day: day) * 86_400 + secondsOfDay)
    }

    /// The UTC instant as seconds since 1970 for a date order; `nil` without a zone or an unreadable part.
    public func utcSeconds(order: DateOrder) -> Double? {
        guard let offsetMinutes, let local = localSeconds(order: order) else { return nil }
        return local - Double(offsetMinutes * 60)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    /// `h[h][:.]mm[:.]ss` starting at `start`, not followed by another digit.
    private static func matchTime(_ s: [Unicode.Scalar], at start: Int) -> Range<Int>? {
        var i = start
        func digits(_ min: Int, _ max: Int) -> Bool {
            var n = 0
            while i < s.count, isDigit(s[i]), n < max { i += 1; n += 1 }
            return n >= min
        }
        func separator() -> Bool {
            guard i < s.count, s[i] == ":" || s[i] == "." else { return false }
            i += 1
            return true
        }
        guard digits(1, 2), separator(), digits(2, 2), separator(), digits(2, 2) else { return nil }
        if i < s.count, isDigit(s[i]) { return nil }
        return start..<i
    }

    /// The trailing `GMT…`/`UTC…` zone: where it starts and its offset in minutes.
    private static func trailingZone(_ text: Substring) -> (start: Substring.Index, minutes: Int)? {
        let candidates = [text.range(of: "GMT", options: .backwards), text.range(of: "UTC", options: .backwards)]
            .compactMap { $0 }
        guard let zone = candidates.max(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
        let suffix = text[zone.upperBound...].trimmingCharacters(in: .whitespaces)
        if suffix.isEmpty { return (zone.lowerBound, 0) }
        guard let sign = suffix.first, sign == "+" || sign == "-" || sign == "\u{2212}" else { return nil }
        let body = suffix.dropFirst()
        let hours: Int, minutes: Int
        if let colon = body.firstIndex(of: ":") {
            guard let h = Int(body[..<colon]), body[..<colon].count <= 2,
                  let m = Int(body[body.index(after: colon)...]), body[body.index(after: colon)...].count == 2
            else { return nil }
            hours = h; minutes = m
        } else if body.count <= 2, let h = Int(body) {
            hours = h; minutes = 0
        } else if body.count == 4, let hm = Int(body) {
            hours = hm / 100; minutes = hm % 100
        } else {
            return nil
        }
        guard body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }), minutes < 60 else { return nil }
        let total = hours * 60 + minutes
        return (zone.lowerBound, sign == "+" ? total : -total)
    }
}
