import Foundation

/// A number in plain decimal notation, shortest form (no exponent), for EDF text fields and summaries: rounded to
/// `maxFractionDigits` decimals as `printf`'s `%.Nf` rounds (the exact binary value, ties to even), then without
/// trailing zeros, a trailing point or a minus sign on zero.
func formatNumber(_ value: Double, maxFractionDigits: Int = 9) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    if let text = fixedPoint(value, fractionDigits: maxFractionDigits) { return text }
    var text = String(format: "%.\(maxFractionDigits)f", value)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
}

/// ``formatNumber(_:maxFractionDigits:)`` by integer arithmetic, where it gives `printf`'s digits for certain;
/// `nil` elsewhere. An EDF+ annotation list spells two numbers per annotation, and `String(format:)` took about
/// 3 ms of a 1-hour capture's conversion to BDF (1,143 annotations).
///
/// `value × 10^digits` is computed with an error under 2^-10 while it stays under 2^42; when its fraction is more
/// than 0.01 away from a half, the exact product lies on the same side of the half, so rounding the computed one
/// to the nearest whole number gives the digits `printf` rounds the exact value to (and no tie to break).
private func fixedPoint(_ value: Double, fractionDigits digits: Int) -> String? {
    guard digits >= 0, digits <= 9 else { return nil }
    var scale = 1
    for _ in 0..<digits { scale *= 10 }
    let product = abs(value) * Double(scale)
    guard product < 0x1p42 else { return nil }
    let floor = product.rounded(.down)
    guard abs(product - floor - 0.5) > 0.01 else { return nil }
    let count = Int(product - floor > 0.5 ? floor + 1 : floor)
    if count == 0 { return "0" }
    var fraction = count % scale, fractionDigits = digits
    while fractionDigits > 0, fraction % 10 == 0 {
        fraction /= 10
        fractionDigits -= 1
    }
    var text = value < 0 ? "-" : ""
    text += String(count / scale)
    if fractionDigits > 0 {
        let digitsText = String(fraction)
        text += "." + String(repeating: "0", count: fractionDigits - digitsText.count) + digitsText
    }
    return text
}
