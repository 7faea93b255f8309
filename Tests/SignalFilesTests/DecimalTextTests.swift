import Foundation
import Testing
import TestSupport
@testable import SignalFiles

/// EDF text fields and annotation lists against C's `printf("%.Nf")`, trailing zeros dropped: the spelling the
/// files had before numbers were spelled by integer arithmetic.
@Suite("Decimal text")
struct DecimalTextTests {
    /// `printf`'s digits, then without trailing zeros, a trailing point, or a minus sign on zero.
    static func printfSpelling(_ value: Double, _ digits: Int) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    @Test("Sample times, random values of every magnitude and exact ties are spelled as printf rounds them",
          arguments: [6, 9, 0, 3])
    func asPrintf(digits: Int) {
        var random = SeededGenerator(seed: UInt64(digits))
        var values: [Double] = (0..<20_000).map { Double($0) / 250 } + (0..<2_000).map { -Double($0) / 512 }
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double(random.next() % 16) - 9)
            let value = (Double(random.next() % 1_000_000_007) / 1_000_000_007) * magnitude
            values.append(random.next() % 2 == 0 ? value : -value)
        }
        // Ties of the 7th and 10th decimal (n / 2^7, n / 2^10), half-steps just off them, and the edges.
        values += (0..<1_000).map { Double($0) / 128 } + (0..<1_000).map { Double($0) / 1024 }
        values += [0.0078125, 0.0078125.nextUp, 0.0078125.nextDown, 5e-7, 4.9999999e-7, 1e-7, -1e-7, 0.5, 2.5, 1e-9,
                   12_345.678_9, 0x1p42 / 1e6, 0x1p42 / 1e9, 1e15 - 0.5, 4_398_046.511_104]
        for value in values {
            #expect(formatNumber(value, maxFractionDigits: digits) == Self.printfSpelling(value, digits),
                    "\(value) to \(digits) decimals")
        }
    }
}
