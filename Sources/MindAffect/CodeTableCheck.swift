/// Identifies the rows of a code table as Gold codes of the known families (spec §3.3, `codes --check`):
/// each row's generator pair, index i, cyclic frame shift and inversion.
public struct CodeMatch: Sendable, Equatable {
    /// The row of the table, 0-based.
    public var row: Int
    /// The family whose generator pair makes the row (`61_6521` or `65_6532`), nil if none.
    public var generators: String?
    /// The Gold-code index i (0…62; 63 = Q, 64 = P).
    public var goldIndex: Int?
    /// The cyclic shift in frames: row[f] = code[(f + shift) mod frames].
    public var shift: Int?
    /// Whether the row is the inverted code.
    public var inverted: Bool?
}

/// The result of checking a code table against the regenerated families.
public struct CodeTableCheck: Sendable {
    /// One match per row.
    public var matches: [CodeMatch]
    /// The family the table reproduces exactly (every row unshifted, uninverted, in the family's order), if any.
    public var exactFamily: GoldCodeFamily?

    /// Checks every row of `table`.
    public init(_ table: NoiseCodeTable) {
        var lookup: [[UInt8]: (String, Int, Int, Bool)] = [:]
        for generators in [GoldCodeFamily.mgold61_6521, .mgold65_6532] {
            for (index, bits) in generators.allGoldCodes.enumerated() {
                let frames = GoldCodeFamily.modulate(bits)
                let count = frames.count
                for shift in 0..<count {
                    let rotated = (0..<count).map { frames[($0 + shift) % count] }
                    let name = generators == .mgold65_6532 ? "65_6532" : "61_6521"
                    if lookup[rotated] == nil { lookup[rotated] = (name, index, shift, false) }
                    let flipped = rotated.map { 1 - $0 }
                    if lookup[flipped] == nil { lookup[flipped] = (name, index, shift, true) }
                }
            }
        }
        matches = table.codes.enumerated().map { row, code in
            guard let (name, index, shift, inverted) = lookup[code] else {
                return CodeMatch(row: row, generators: nil, goldIndex: nil, shift: nil, inverted: nil)
            }
            return CodeMatch(row: row, generators: name, goldIndex: index, shift: shift, inverted: inverted)
        }
        exactFamily = GoldCodeFamily.allCases.first { $0.table.codes == table.codes }
    }
}

extension CodeTableCheck {
    /// One CSV row per code row, `row,generators,gold_index,shift_frames,inverted`, `NA` where a row matches no
    /// Gold code (what `nt-analyze codes --check` prints).
    public func csv() -> String {
        var text = "row,generators,gold_index,shift_frames,inverted\n"
        for match in matches {
            text += "\(match.row),\(match.generators ?? "NA"),\(match.goldIndex.map(String.init) ?? "NA"),"
                + "\(match.shift.map(String.init) ?? "NA"),\(match.inverted.map { $0 ? "true" : "false" } ?? "NA")\n"
        }
        return text
    }
}
