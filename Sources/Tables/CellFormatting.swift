import Foundation

/// How single values are spelled in CSV cells and HDF5 string columns (conventions §2).
public enum CellFormatting {
    /// The CSV spelling of a missing value, read as missing by pandas and R.
    public static let missing = "NA"
    /// The CSV spelling of true: R's `read.csv` reads only `TRUE`/`FALSE` (and `T`/`F`) as logical, pandas reads
    /// `TRUE`/`FALSE` as bool.
    public static let `true` = "TRUE"
    /// The CSV spelling of false.
    public static let `false` = "FALSE"

    /// The shortest text that reads back to the same double; NaN is missing.
    public static func float(_ value: Double) -> String? {
        guard !value.isNaN else { return nil }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        return value.description
    }

    /// Seconds since 1970 from the start of the year 1 to the end of 9999 (less its last second, which rounding to
    /// milliseconds could carry into the year 10000): the times ``timestamp(_:)`` spells in at most
    /// ``longestTimestampInRange`` characters, so a column of such times can be stored at a fixed width.
    public static let timestampRange = -62_135_596_800.0 ... 253_402_300_798.0
    /// The length of `9999-12-31T23:59:59.999Z`.
    public static let longestTimestampInRange = 24

    /// Whether ``timestamp(_:)`` spells this time in at most ``longestTimestampInRange`` characters: a time in
    /// ``timestampRange``, or a missing one (NaN, `NA`).
    public static func spellsTimestampAtFixedWidth(_ secondsSince1970: Double) -> Bool {
        !secondsSince1970.isFinite || timestampRange.contains(secondsSince1970)
    }

    /// An absolute UTC time as ISO 8601 with `Z` (milliseconds shown when not whole seconds); NaN is missing.
    public static func timestamp(_ secondsSince1970: Double) -> String? {
        guard secondsSince1970.isFinite else { return nil }
        return iso8601(secondsSince1970) + "Z"
    }

    /// A wall-clock time of unknown zone as ISO 8601 without an offset; NaN is missing.
    public static func localTimestamp(_ secondsSince1970: Double) -> String? {
        guard secondsSince1970.isFinite else { return nil }
        return iso8601(secondsSince1970)
    }

    /// Seconds since 1970 of the years 1900 to 9999, which ``iso8601(_:)`` spells with ``CivilTime``'s arithmetic
    /// (`Date.ISO8601FormatStyle`, a calendar and a formatter per value, made a tenth of a 100 MB `rt-stats` run to
    /// CSV); Foundation's formatter spells the rest as before, its calendar's handling of early dates included.
    private static let spelledByArithmetic = -2_208_988_800.0 ..< 253_402_300_799.0

    private static func iso8601(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000).rounded()
        let whole = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - whole * 1000)
        var text: String
        if spelledByArithmetic.contains(whole) {
            text = CivilTime.iso8601(wallSeconds: whole, offsetMinutes: nil)
        } else {
            let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
                .year().month().day().dateTimeSeparator(.standard).time(includingFractionalSeconds: false)
            text = Date(timeIntervalSince1970: whole).formatted(style)
            if text.hasSuffix("Z") { text.removeLast() }
        }
        if fraction != 0 { text += "." + String(String(fraction + 1000).dropFirst()) }
        return text
    }
}
