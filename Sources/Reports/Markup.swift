/// Text and numbers as they go into a report's markup: escaped, and written the same way on every run.
public enum Markup {
    /// `text` escaped for XML/HTML text and quoted attribute values: `&`, `<`, `>`, `"` and `'` as entities, and
    /// characters XML does not allow (C0 controls but tab and line feed, U+FFFE, U+FFFF) as U+FFFD.
    public static func escape(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                    || (0x7F...0x9F).contains(scalar.value) {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A number with at most `decimals` decimals, trailing zeros dropped, no exponent, `-0` as `0`; non-finite
    /// values as `0` (callers leave them out before). Locale-independent, so pages are the same bytes everywhere.
    public static func number(_ value: Double, decimals: Int = 1) -> String {
        guard value.isFinite else { return "0" }
        let decimals = max(0, min(decimals, 12))
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled > 0 else { return "0" }
        guard scaled < 9e15 else {
            // Beyond exact integers: the integral part only.
            return (value < 0 ? "-" : "") + String(format: "%.0f", abs(value).rounded())
        }
        let integer = UInt64(scaled)
        let unit = UInt64(scale)
        var text = String(integer / unit)
        var fraction = integer % unit
        if decimals > 0 && fraction != 0 {
            var digits = decimals
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return value < 0 ? "-" + text : text
    }

    /// A value for a table cell or tooltip: up to `significant` significant digits, no exponent between 10⁻⁴ and
    /// 10⁹, otherwise `m×10ⁿ`.
    public static func value(_ value: Double, significant: Int = 4) -> String {
        guard value.isFinite else { return value.isNaN ? "NA" : (value > 0 ? "∞" : "−∞") }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        let exponent = Int(log10(magnitude).rounded(.down))
        if exponent >= -4 && exponent < 9 {
            return number(value, decimals: max(0, significant - 1 - exponent))
        }
        let mantissa = value / pow10(exponent)
        let text = number(mantissa, decimals: max(0, significant - 1))
        return (text == "1" ? "" : text + "×") + "10" + superscript(exponent)
    }

    /// `n` in superscript digits (`⁻³`).
    public static func superscript(_ n: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return (n < 0 ? "⁻" : "") + String(abs(n)).map { digits[Int(String($0))!] }
    }

    static func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(n) { result *= 10 }
        return n < 0 ? 1 / result : result
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
