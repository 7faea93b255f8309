import Foundation

/// One second-order section `b0 b1 b2 a0 a1 a2` (a0 = 1) of a cascade.
public struct SecondOrderSection: Sendable, Equatable {
    public var b: (Double, Double, Double)
    public var a: (Double, Double, Double)

    public init(b: (Double, Double, Double), a: (Double, Double, Double)) {
        self.b = b
        self.a = a
    }

    /// The six coefficients in scipy's `sos` row order.
    public var coefficients: [Double] { [b.0, b.1, b.2, a.0, a.1, a.2] }

    public static func == (l: SecondOrderSection, r: SecondOrderSection) -> Bool { l.coefficients == r.coefficients }
}

/// The kind of a Butterworth filter and its normalised edge frequencies (1 = Nyquist).
public enum FilterBand: Sendable, Equatable {
    case lowPass(Double)
    case highPass(Double)
    case bandPass(Double, Double)
    case bandStop(Double, Double)
}

/// Digital Butterworth filters as second-order sections, designed the way `scipy.signal.butter(…, output='sos')`
/// designs them: the analog prototype's poles, the band transform (low-pass to low/high/band-pass or band-stop,
/// around the pre-warped edges), the bilinear transform at fs = 2, then pole–zero pairing into sections by
/// nearness ('nearest': the pole closest to the unit circle first, with the zero closest to it), the last section
/// designed first, the gain in the first section.
public enum ButterworthDesign {
    /// How the pre-warped edge frequencies are computed: in double precision, or in single precision as
    /// pymindaffectBCI's design does (it passes float32 edges to scipy, whose warping then runs in float32).
    public enum EdgePrecision: Sendable { case double, single }

    /// The sections of an `order`-th order Butterworth filter for `band` (band-pass and band-stop filters have
    /// 2·order poles, so `order` sections).
    public static func sections(order: Int, band: FilterBand, edgePrecision: EdgePrecision = .double) -> [SecondOrderSection] {
        precondition(order >= 1, "Butterworth order must be at least 1")
        // Analog prototype: poles −exp(iπm/(2N)), m = −N+1, −N+3, …, N−1; no zeros; gain 1.
        let prototype: [ComplexNumber] = stride(from: -order + 1, to: order, by: 2).map { m in
            let angle = (Double.pi * Double(m)) / Double(2 * order)
            return ComplexNumber(-cos(angle), -sin(angle))
        }
        func warp(_ edges: [Double]) -> [Double] {
            switch edgePrecision {
            case .double: return edges.map { 4 * tan(Double.pi * $0 / 2) }
            case .single: return edges.map { Double(Float(4) * tan(Float.pi * Float($0) / 2)) }
            }
        }
        var zeros: [ComplexNumber] = []
        var poles: [ComplexNumber]
        var gain = 1.0
        let degree = prototype.count
        switch band {
        case .lowPass(let edge):
            let wo = warp([edge])[0]
            poles = prototype.map { $0 * wo }
            gain = pow(wo, Double(degree))
        case .highPass(let edge):
            let wo = warp([edge])[0]
            poles = prototype.map { ComplexNumber(wo) / $0 }
            zeros = Array(repeating: ComplexNumber(0), count: degree)
            gain = (ComplexNumber(1) / product(prototype.map { -$0 })).re
        case .bandPass(let low, let high):
            let (bw, wo) = bandwidthAndCentre(warp([low, high]), edgePrecision)
            let scaled = prototype.map { $0 * bw * 0.5 }
            let roots = scaled.map { ($0 * $0 - ComplexNumber(wo * wo)).squareRoot }
            poles = zip(scaled, roots).map { $0 + $1 } + zip(scaled, roots).map { $0 - $1 }
            zeros = Array(repeating: ComplexNumber(0), count: degree)
            gain = pow(bw, Double(degree))
        case .bandStop(let low, let high):
            let (bw, wo) = bandwidthAndCentre(warp([low, high]), edgePrecision)
            let inverted = prototype.map { ComplexNumber(bw / 2) / $0 }
            let roots = inverted.map { ($0 * $0 - ComplexNumber(wo * wo)).squareRoot }
            poles = zip(inverted, roots).map { $0 + $1 } + zip(inverted, roots).map { $0 - $1 }
            zeros = Array(repeating: ComplexNumber(0, wo), count: degree) + Array(repeating: ComplexNumber(0, -wo), count: degree)
            gain = (ComplexNumber(1) / product(prototype.map { -$0 })).re
        }
        // Bilinear transform at fs = 2 (2·fs = 4).
        let fs2 = ComplexNumber(4)
        let extra = poles.count - zeros.count
        let digitalZeros = zeros.map { (fs2 + $0) / (fs2 - $0) } + Array(repeating: ComplexNumber(-1), count: extra)
        let digitalPoles = poles.map { (fs2 + $0) / (fs2 - $0) }
        gain *= (product(zeros.map { fs2 - $0 }) / product(poles.map { fs2 - $0 })).re
        return pairSections(zeros: digitalZeros, poles: digitalPoles, gain: gain)
    }

    /// Band width and geometric centre of two warped edges, in the precision the edges were warped in.
    static func bandwidthAndCentre(_ warped: [Double], _ precision: EdgePrecision) -> (Double, Double) {
        switch precision {
        case .double: return (warped[1] - warped[0], (warped[0] * warped[1]).squareRoot())
        case .single:
            let low = Float(warped[0]), high = Float(warped[1])
            return (Double(high - low), Double((low * high).squareRoot()))
        }
    }

    static func product(_ values: [ComplexNumber]) -> ComplexNumber { values.reduce(ComplexNumber(1)) { $0 * $1 } }

    /// Complex values sorted by real part then |imaginary part|, split into the conjugate pairs (the upper member,
    /// averaged with its partner) and the real values (scipy's `_cplxreal`).
    static func splitConjugatePairs(_ values: [ComplexNumber]) -> (pairs: [ComplexNumber], reals: [Double]) {
        if values.isEmpty { return ([], []) }
        let tolerance = 100 * Double.ulpOfOne
        let sorted = values.enumerated().sorted { x, y in
            if x.element.re != y.element.re { return x.element.re < y.element.re }
            if abs(x.element.im) != abs(y.element.im) { return abs(x.element.im) < abs(y.element.im) }
            return x.offset < y.offset
        }.map(\.element)
        let reals = sorted.filter { abs($0.im) <= tolerance * $0.magnitude }.map(\.re)
        let complex = sorted.filter { !(abs($0.im) <= tolerance * $0.magnitude) }
        var upper = complex.filter { $0.im > 0 }
        var lower = complex.filter { $0.im < 0 }
        precondition(upper.count == lower.count, "unpaired complex value in a filter design")
        // Runs of (nearly) equal real parts are ordered by |imaginary part|.
        var start = 0
        while start < upper.count {
            var stop = start + 1
            while stop < upper.count, upper[stop].re - upper[stop - 1].re <= tolerance * upper[stop - 1].magnitude { stop += 1 }
            if stop - start > 1 {
                upper[start..<stop].sort { abs($0.im) < abs($1.im) }
                lower[start..<stop].sort { abs($0.im) < abs($1.im) }
            }
            start = stop
        }
        let pairs = zip(upper, lower).map { ($0 + $1.conjugate) * 0.5 }
        return (pairs, reals)
    }

    /// scipy's `zpk2sos` with `pairing='nearest'` for a digital filter.
    static func pairSections(zeros: [ComplexNumber], poles: [ComplexNumber], gain: Double) -> [SecondOrderSection] {
        var z = zeros, p = poles
        if p.count < z.count { p += Array(repeating: ComplexNumber(0), count: z.count - p.count) }
        if z.count < p.count { z += Array(repeating: ComplexNumber(0), count: p.count - z.count) }
        let count = (max(p.count, z.count) + 1) / 2
        if p.count % 2 == 1 {
            p.append(ComplexNumber(0))
            z.append(ComplexNumber(0))
        }
        let splitZ = splitConjugatePairs(z), splitP = splitConjugatePairs(p)
        z = splitZ.pairs + splitZ.reals.map { ComplexNumber($0) }
        p = splitP.pairs + splitP.reals.map { ComplexNumber($0) }

        /// The index of the value closest to the unit circle (the first of equals).
        func worst(_ values: [ComplexNumber]) -> Int {
            var best = 0
            for index in values.indices where abs(1 - values[index].magnitude) < abs(1 - values[best].magnitude) { best = index }
            return best
        }
        /// The index of the value of `from` nearest to `to`, among the real ones, the complex ones or any.
        func nearest(_ from: [ComplexNumber], _ to: ComplexNumber, _ which: String) -> Int {
            let order = from.indices.sorted { x, y in
                let dx = (from[x] - to).magnitude, dy = (from[y] - to).magnitude
                return dx != dy ? dx < dy : x < y
            }
            switch which {
            case "real": return order.first { from[$0].isReal }!
            case "complex": return order.first { !from[$0].isReal }!
            default: return order[0]
            }
        }
        /// The section of up to two zeros and two poles (gain 1).
        func section(_ zs: [ComplexNumber], _ ps: [ComplexNumber]) -> SecondOrderSection {
            func poly(_ roots: [ComplexNumber]) -> [Double] {
                var c: [ComplexNumber] = [ComplexNumber(1)]
                for root in roots {
                    var next = Array(repeating: ComplexNumber(0), count: c.count + 1)
                    for (i, value) in c.enumerated() {
                        next[i] = next[i] + value
                        next[i + 1] = next[i + 1] + value * (-root)
                    }
                    c = next
                }
                return c.map(\.re)
            }
            let b = poly(zs), a = poly(ps)
            var row = [Double](repeating: 0, count: 6)
            for (i, value) in b.enumerated() { row[3 - b.count + i] = value }
            for (i, value) in a.enumerated() { row[6 - a.count + i] = value }
            return SecondOrderSection(b: (row[0], row[1], row[2]), a: (row[3], row[4], row[5]))
        }

        var sections = [SecondOrderSection](repeating: SecondOrderSection(b: (0, 0, 0), a: (0, 0, 0)), count: count)
        for si in stride(from: count - 1, through: 0, by: -1) {
            let p1 = p.remove(at: worst(p))
            let realPoles = p.filter(\.isReal).count
            if p1.isReal && realPoles == 0 {
                let z1 = z.remove(at: nearest(z, p1, "real"))
                sections[si] = section([z1, ComplexNumber(0)], [p1, ComplexNumber(0)])
            } else if p.count + 1 == z.count && !p1.isReal && realPoles == 1 && z.filter(\.isReal).count == 1 {
                let z1 = z.remove(at: nearest(z, p1, "complex"))
                sections[si] = section([z1, z1.conjugate], [p1, p1.conjugate])
            } else {
                let p2: ComplexNumber
                if p1.isReal {
                    let realIndices = p.indices.filter { p[$0].isReal }
                    let pick = realIndices[worst(realIndices.map { p[$0] })]
                    p2 = p.remove(at: pick)
                } else {
                    p2 = p1.conjugate
                }
                if !z.isEmpty {
                    let z1 = z.remove(at: nearest(z, p1, "any"))
                    if !z1.isReal {
                        sections[si] = section([z1, z1.conjugate], [p1, p2])
                    } else if !z.isEmpty {
                        let z2 = z.remove(at: nearest(z, p1, "real"))
                        sections[si] = section([z1, z2], [p1, p2])
                    } else {
                        sections[si] = section([z1], [p1, p2])
                    }
                } else {
                    sections[si] = section([], [p1, p2])
                }
            }
        }
        if !sections.isEmpty {
            sections[0].b = (sections[0].b.0 * gain, sections[0].b.1 * gain, sections[0].b.2 * gain)
        }
        return sections
    }
}
