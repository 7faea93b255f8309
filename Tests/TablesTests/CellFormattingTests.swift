import Foundation
import Tables
import Testing

@Suite("Cells spelled as text")
struct CellFormattingTests {
    /// The spelling before ``CivilTime`` took over the years 1900–9999: Foundation's ISO 8601 format style.
    private static func foundationTimestamp(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000).rounded()
        let whole = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - whole * 1000)
        let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
            .year().month().day().dateTimeSeparator(.standard).time(includingFractionalSeconds: false)
        var text = Date(timeIntervalSince1970: whole).formatted(style)
        if text.hasSuffix("Z") { text.removeLast() }
        if fraction != 0 { text += "." + String(String(fraction + 1000).dropFirst()) }
        return text + "Z"
    }

    @Test("Timestamps from 1900 to 9999 are spelled as Foundation's ISO 8601 style spells them, to the millisecond")
    func timestampsAsFoundation() {
        var generator = SystemRandomNumberGenerator()
        let edges: [Double] = [
            -2_208_988_800, -2_208_988_800.0004, -1, -0.001, 0, 0.0004, 0.0005, 0.9995, 59.9995, 86_399.9996,
            951_782_400, 951_868_799.999, 4_107_542_400, 253_402_300_798, 253_402_300_798.999, 1_700_000_000.123,
        ]
        let random = (0..<20_000).map { _ in Double.random(in: -2_208_988_800 ..< 253_402_300_799, using: &generator) }
        for seconds in edges + random {
            #expect(CellFormatting.timestamp(seconds) == Self.foundationTimestamp(seconds), "\(seconds)")
        }
        // Outside those years Foundation's calendar still decides (its Julian dates before 1582 included).
        #expect(CellFormatting.timestamp(-62_135_596_800) == "0001-01-03T00:00:00Z")
        #expect(CellFormatting.timestamp(-3_000_000_000) == Self.foundationTimestamp(-3_000_000_000))
    }
}
