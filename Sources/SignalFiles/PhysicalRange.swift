import Foundation

/// How one channel's values become EDF/BDF digits: `physical = pmin + (digital − dmin) × resolution`, with
/// `resolution = (pmax − pmin) / (dmax − dmin)` as every reader computes it (docs/bids.md, "Quantisation").
///
/// Chosen from the channel's actual minimum and maximum once every sample is known, so that no value clips:
/// - `pmin` and `pmax` are whole numbers of the unit (an 8-character field holds them exactly, to ±9,999,999);
/// - the resolution is the finest of 1, 2, 2.5, 4, 5, 8 × 10^k that lets `(pmax − pmin) / resolution` digits fit
///   the format's 16 or 24 bits, and never finer than the channel's grid (the Brainiac's 1 nV);
/// - a value is stored as the nearest digit: the error is at most half the resolution, and none where the
///   values lie on a grid equal to the resolution (BDF holds the Brainiac's whole nV exactly while its span is
///   under 16.7 mV; a wider span takes 2 nV, still within 1 nV).
public struct PhysicalRange: Sendable, Equatable {
    public var physicalMinimum: Int
    public var physicalMaximum: Int
    public var digitalMinimum: Int
    public var digitalMaximum: Int
    /// Physical units per digit.
    public var resolution: Double

    /// The steps a resolution is chosen from, per decade.
    static let mantissas: [Double] = [1, 2, 2.5, 4, 5, 8]

    /// The range for values from `low` to `high` stored in `bits`-bit digits; `nil` when even the coarsest step
    /// cannot hold the span, or the physical limits do not fit 8 characters.
    public init?(low: Double, high: Double, bits: Int, grid: Double? = nil) {
        guard low.isFinite, high.isFinite, low <= high else { return nil }
        let pmin = low.rounded(.down), pmax0 = max(high.rounded(.up), pmin + 1)
        guard pmin >= -9_999_999, pmax0 <= 99_999_999 else { return nil }
        let digits = Double((1 << bits) - 1)
        for exponent in -9...6 {
            for mantissa in Self.mantissas {
                // 10^k as a literal power, so that 0.001 is the double nearest 1/1000.
                let step = exponent < 0 ? mantissa / pow(10, Double(-exponent)) : mantissa * pow(10, Double(exponent))
                if let grid, step < grid * (1 - 1e-9) { continue }
                // The span must be a whole number of steps: grow pmax one unit at a time (a few at most).
                var pmax = pmax0
                var count = ((pmax - pmin) / step).rounded()
                var tries = 0
                while abs(count * step - (pmax - pmin)) > 1e-9 * (pmax - pmin), tries < 10 {
                    pmax += 1
                    count = ((pmax - pmin) / step).rounded()
                    tries += 1
                }
                guard tries < 10, count <= digits, pmax <= 99_999_999 else { continue }
                let dmin = -(1 << (bits - 1))
                physicalMinimum = Int(pmin)
                physicalMaximum = Int(pmax)
                digitalMinimum = dmin
                digitalMaximum = dmin + Int(count)
                resolution = (pmax - pmin) / count
                return
            }
        }
        return nil
    }

    /// The digit that stores `value` (nearest, ties to even; `value` must lie within the range).
    ///
    /// Rounded by adding and subtracting 1.5 × 2^52 (exact for the at most 2^24 steps of a range): baseline x86-64
    /// has no rounding instruction, and libm's `round` is a call per sample.
    @inlinable @inline(__always)
    public func digital(_ value: Double) -> Int {
        let steps = (value - Double(physicalMinimum)) / resolution
        return Int((steps + 0x1.8p52) - 0x1.8p52) + digitalMinimum
    }

    /// `x` rounded to the nearest whole number, ties to even, as an Int32, for |x| < 2^31: the low bits of
    /// `x + 1.5 × 2^52`, which hold it in two's complement (no test per value, unlike a checked conversion).
    @inlinable @inline(__always)
    public static func nearestCount(_ x: Double) -> Int32 {
        Int32(truncatingIfNeeded: (x + 0x1.8p52).bitPattern)
    }

    /// The value a reader gets back for a digit.
    public func physical(_ digit: Int) -> Double {
        Double(physicalMinimum) + Double(digit - digitalMinimum) * resolution
    }
}
