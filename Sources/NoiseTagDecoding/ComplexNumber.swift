import Foundation

/// A complex number, for the poles and zeros of the filter design (hand-written: the standard library has none).
struct ComplexNumber: Equatable {
    var re: Double
    var im: Double

    init(_ re: Double, _ im: Double = 0) {
        self.re = re
        self.im = im
    }

    static func + (a: ComplexNumber, b: ComplexNumber) -> ComplexNumber { ComplexNumber(a.re + b.re, a.im + b.im) }
    static func - (a: ComplexNumber, b: ComplexNumber) -> ComplexNumber { ComplexNumber(a.re - b.re, a.im - b.im) }
    static prefix func - (a: ComplexNumber) -> ComplexNumber { ComplexNumber(-a.re, -a.im) }
    static func * (a: ComplexNumber, b: ComplexNumber) -> ComplexNumber {
        ComplexNumber(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }
    static func * (a: ComplexNumber, s: Double) -> ComplexNumber { ComplexNumber(a.re * s, a.im * s) }
    /// Smith's algorithm, as C99's complex division does it for finite operands.
    static func / (a: ComplexNumber, b: ComplexNumber) -> ComplexNumber {
        if abs(b.re) >= abs(b.im) {
            let ratio = b.im / b.re, denominator = b.re + b.im * ratio
            return ComplexNumber((a.re + a.im * ratio) / denominator, (a.im - a.re * ratio) / denominator)
        } else {
            let ratio = b.re / b.im, denominator = b.re * ratio + b.im
            return ComplexNumber((a.re * ratio + a.im) / denominator, (a.im * ratio - a.re) / denominator)
        }
    }

    var conjugate: ComplexNumber { ComplexNumber(re, -im) }
    /// |z|.
    var magnitude: Double { hypot(re, im) }
    var isReal: Bool { im == 0 }

    /// The principal square root.
    var squareRoot: ComplexNumber {
        if re == 0 && im == 0 { return ComplexNumber(0, 0) }
        let r = magnitude
        let t = (0.5 * (r + abs(re))).squareRoot()
        if re >= 0 { return ComplexNumber(t, im / (2 * t)) }
        return ComplexNumber(abs(im) / (2 * t), im >= 0 ? t : -t)
    }
}
