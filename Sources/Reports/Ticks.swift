import Foundation
import Tables

/// Axis ticks at "nice" values (1, 2, 2.5 or 5 times a power of ten; decades on log axes; whole days, months or
/// years on date axes), with their labels.
public struct Ticks: Equatable, Sendable {
    /// Tick positions in data units, ascending.
    public var values: [Double]
    /// One label per tick.
    public var labels: [String]
    /// The domain the ticks cover: the data's range widened to the outer ticks when the axis asks for it.
    public var domain: ClosedRange<Double>

    public init(values: [Double], labels: [String], domain: ClosedRange<Double>) {
        self.values = values
        self.labels = labels
        self.domain = domain
    }

    /// The nice step for a range split into about `count` intervals: 1, 2, 2.5 or 5 × 10ⁿ.
    public static func niceStep(range: Double, count: Int) -> Double {
        guard range > 0, range.isFinite else { return 1 }
        let raw = range / Double(max(1, count))
        let power = Markup.pow10(Int(Foundation.log10(raw).rounded(.down)))
        let fraction = raw / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10
        return nice * power
    }

    /// Linear ticks over `domain`, about `count` intervals. With `expand`, the domain grows to the nearest ticks
    /// outside it; otherwise only ticks inside it are kept. A zero-width domain is widened around its value.
    public static func linear(_ domain: ClosedRange<Double>, count: Int = 5, expand: Bool = true,
                              integer: Bool = false) -> Ticks {
        var lo = domain.lowerBound, hi = domain.upperBound
        if hi - lo <= abs(hi) * 1e-12 || hi - lo == 0 {
            // One value: 0 gives 0…1 (counts that are all zero), anything else ±10 %.
            if lo == 0 {
                hi = 1
            } else {
                let pad = abs(lo) * 0.1
                lo -= pad
                hi += pad
            }
        }
        var step = niceStep(range: hi - lo, count: count)
        if integer { step = max(1, step.rounded(.up)) }
        let first = (lo / step).rounded(.down), last = (hi / step).rounded(.up)
        var values: [Double] = []
        var k = first
        while k <= last + 0.5 {
            let value = k * step
            // Snap values within rounding error of zero.
            values.append(abs(value) < step * 1e-9 ? 0 : value)
            k += 1
        }
        if expand {
            lo = min(lo, values.first ?? lo)
            hi = max(hi, values.last ?? hi)
        } else {
            let tolerance = step * 1e-9
            values = values.filter { $0 >= lo - tolerance && $0 <= hi + tolerance }
        }
        let decimals = decimalsFor(step: step)
        return Ticks(values: values, labels: values.map { label($0, decimals: decimals, step: step) }, domain: lo...hi)
    }

    /// Decimals needed to write multiples of `step` exactly (at most 9).
    static func decimalsFor(step: Double) -> Int {
        var decimals = 0
        var scaled = step
        while decimals < 9 && abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)) {
            scaled *= 10
            decimals += 1
        }
        return decimals
    }

    static func label(_ value: Double, decimals: Int, step: Double) -> String {
        if value != 0 && (abs(value) >= 1e6 || step < 1e-4) { return Markup.value(value, significant: 3) }
        let text = Markup.number(value, decimals: decimals)
        return text.hasPrefix("-") ? "−" + text.dropFirst() : text
    }

    /// Log-10 ticks: every decade in `domain` (every 2nd, 3rd… when there are more than `count` + 2); within less
    /// than two decades, also 2× and 5×. With `expand`, the domain grows to whole decades.
    public static func log10(_ domain: ClosedRange<Double>, count: Int = 5, expand: Bool = true) -> Ticks {
        var lo = max(domain.lowerBound, Double.leastNormalMagnitude)
        var hi = max(domain.upperBound, lo)
        if hi <= lo { lo /= 10; hi *= 10 }
        let firstDecade = Int(Foundation.log10(lo).rounded(.down))
        let lastDecade = Int(Foundation.log10(hi).rounded(.up))
        if expand {
            lo = min(lo, Markup.pow10(firstDecade))
            hi = max(hi, Markup.pow10(lastDecade))
        }
        let decades = lastDecade - firstDecade
        let every = max(1, Int((Double(decades) / Double(max(1, count + 2))).rounded(.up)))
        var values: [Double] = []
        for decade in stride(from: firstDecade, through: lastDecade, by: 1) {
            let base = Markup.pow10(decade)
            if decade % every == 0 || every == 1 { values.append(base) }
            if decades <= 2 { values += [2 * base, 5 * base] }
        }
        let tolerance = 1e-9
        values = values.filter { $0 >= lo * (1 - tolerance) && $0 <= hi * (1 + tolerance) }.sorted()
        let labels = values.map { value -> String in
            let exponent = Int(Foundation.log10(value).rounded(.down))
            let mantissa = (value / Markup.pow10(exponent)).rounded()
            if exponent >= -3 && exponent <= 4 { return Markup.number(value, decimals: max(0, -exponent)) }
            return (mantissa == 1 ? "" : Markup.number(mantissa, decimals: 0) + "×") + "10" + Markup.superscript(exponent)
        }
        return Ticks(values: values, labels: labels, domain: lo...hi)
    }

    /// Date ticks for a domain of seconds since 1970 (UTC): whole days (1, 2, 7, 14), months (1, 2, 3, 6) or years
    /// (1, 2, 5, 10…), the smallest step giving at most `count` + 1 ticks; labels `2024-03-05`, `2024-03` or
    /// `2024`. The domain is kept.
    public static func dates(_ domain: ClosedRange<Double>, count: Int = 5) -> Ticks {
        let day = 86_400.0
        let lo = domain.lowerBound, hi = max(domain.upperBound, domain.lowerBound + day)
        let span = (hi - lo) / day
        let limit = Double(max(1, count) + 1)
        for step in [1.0, 2, 7, 14] where span / step <= limit {
            var values: [Double] = []
            var d = (lo / day / step).rounded(.up) * step
            while d * day <= hi { values.append(d * day); d += step }
            return Ticks(values: values, labels: values.map { CivilDate(seconds: $0).dayText }, domain: lo...hi)
        }
        let months = span / 30.44
        for step in [1, 2, 3, 6] where months / Double(step) <= limit {
            var values: [Double] = []
            var month = CivilDate(seconds: lo).monthIndex
            month = (month + step - 1) / step * step
            while true {
                let seconds = CivilDate.seconds(monthIndex: month)
                if seconds > hi { break }
                if seconds >= lo { values.append(seconds) }
                month += step
            }
            return Ticks(values: values, labels: values.map { CivilDate(seconds: $0).monthText }, domain: lo...hi)
        }
        let years = span / 365.25
        let step = max(1, Int(niceStep(range: years, count: count).rounded(.up)))
        var values: [Double] = []
        var year = (CivilDate(seconds: lo).year + step - 1) / step * step
        while true {
            let seconds = CivilDate.seconds(monthIndex: year * 12)
            if seconds > hi { break }
            if seconds >= lo { values.append(seconds) }
            year += step
        }
        return Ticks(values: values, labels: values.map { String(CivilDate(seconds: $0).year) }, domain: lo...hi)
    }
}

/// A UTC calendar date, from seconds since 1970 (``CivilTime`` does the arithmetic).
struct CivilDate {
    var year: Int, month: Int, day: Int

    init(seconds: Double) {
        (year, month, day) = CivilTime.date(days: Int((seconds / 86_400).rounded(.down)))
    }

    /// Months since year 0 (January of year y is 12·y).
    var monthIndex: Int { year * 12 + month - 1 }

    /// The first second of a month given as ``monthIndex``.
    static func seconds(monthIndex: Int) -> Double {
        let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        return Double(CivilTime.days(year: year, month: monthIndex - year * 12 + 1, day: 1)) * 86_400
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    var dayText: String { "\(year)-\(Self.two(month))-\(Self.two(day))" }
    var monthText: String { "\(year)-\(Self.two(month))" }
}
