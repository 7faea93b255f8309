/// The modulated Gold-code families of PMB, regenerated from their generator polynomials (spec §3.2–3.3).
public enum GoldCodeFamily: String, Sendable, Codable, CaseIterable {
    /// `mgold_61_6521_psk_60hz`: the 47 balanced codes of Q = m[6,1], P = m[6,5,2,1].
    case mgold61_6521 = "61_6521"
    /// `mgold_65_6532_psk_60hz`: all 65 codes of Q = m[6,5], P = m[6,5,3,2].
    case mgold65_6532 = "65_6532"
    /// IOS `mgold_61_6521_flip_balanced`: the 47 balanced codes, then Q and P (49 codes).
    case flipBalanced61_6521 = "61_6521_flip_balanced"

    /// The m-sequence period.
    public static let period = 63

    /// The m-sequence of tap set `taps`: a[0…5] = 1, a[j] = XOR of a[j−t]; m[n] = a[n+6], n = 0…62.
    public static func mSequence(taps: [Int]) -> [UInt8] {
        var register = [UInt8](repeating: 1, count: 6)
        for j in 6..<(6 + period) {
            var bit: UInt8 = 0
            for tap in taps { bit ^= register[j - tap] }
            register.append(bit)
        }
        return Array(register[6...])
    }

    /// The generator pair (Q, P) of the family.
    public var generators: (q: [UInt8], p: [UInt8]) {
        switch self {
        case .mgold61_6521, .flipBalanced61_6521:
            (Self.mSequence(taps: [6, 1]), Self.mSequence(taps: [6, 5, 2, 1]))
        case .mgold65_6532:
            (Self.mSequence(taps: [6, 5]), Self.mSequence(taps: [6, 5, 3, 2]))
        }
    }

    /// g_i for i = 0…64: g_i[n] = P[n] XOR Q[(n−i) mod 63] for i ≤ 62; g_63 = Q; g_64 = P.
    public var allGoldCodes: [[UInt8]] {
        let (q, p) = generators
        let n = Self.period
        var codes = (0..<n).map { i in (0..<n).map { p[$0] ^ q[(($0 - i) % n + n) % n] } }
        codes.append(q)
        codes.append(p)
        return codes
    }

    /// The indices i of the family's codes, in the file's order.
    public var codeIndices: [Int] {
        let all = allGoldCodes
        let balanced = (0..<Self.period).filter { i in all[i].reduce(0) { $0 + Int($1) } == 32 }
        switch self {
        case .mgold65_6532: return Array(0...64)
        case .mgold61_6521: return balanced
        case .flipBalanced61_6521: return balanced + [63, 64]
        }
    }

    /// The bits modulated into frames: frame 2n = b[n], frame 2n+1 = 1 − b[n] (126 frames).
    public static func modulate(_ bits: [UInt8]) -> [UInt8] { bits.flatMap { [$0, 1 - $0] } }

    /// The family as a code table (126 frames per code, frame times as in the PMB files: round(f·1000/60)).
    public var table: NoiseCodeTable {
        let all = allGoldCodes
        let codes = codeIndices.map { Self.modulate(all[$0]) }
        let times = (0..<(2 * Self.period)).map { (Double($0) * 1000 / 60).rounded() }
        return NoiseCodeTable(frameTimesMs: times, codes: codes)
    }
}
