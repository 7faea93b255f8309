import Foundation
import Testing
import TestSupport
@testable import MindAffect

@Suite("Noise codes (spec §3)")
struct NoiseCodeTests {
    @Test("m-sequence of taps [6,1], by hand: a[j] = a[j−6] XOR a[j−1] from six ones")
    func mSequence() {
        let m = GoldCodeFamily.mSequence(taps: [6, 1])
        #expect(Array(m.prefix(7)) == [0, 1, 0, 1, 0, 1, 1])
        #expect(m.count == 63)
        #expect(m.reduce(0) { $0 + Int($1) } == 32)  // every m-sequence of period 63 has 32 ones
    }

    @Test("65_6532: 65 codes; 63-bit weights 32 (49), 24 (10), 40 (6); ±1 correlations {−17, −1, 15}")
    func family65() {
        let all = GoldCodeFamily.mgold65_6532.allGoldCodes
        let weights = Dictionary(grouping: all.map { $0.reduce(0) { $0 + Int($1) } }, by: { $0 }).mapValues(\.count)
        #expect(weights == [32: 49, 24: 10, 40: 6])
        var correlations = Set<Int>()
        for i in 0..<65 { for j in (i + 1)..<65 {
            correlations.insert(zip(all[i], all[j]).reduce(0) { $0 + ($1.0 == $1.1 ? 1 : -1) })
        } }
        #expect(correlations == [-17, -1, 15])
        let table = GoldCodeFamily.mgold65_6532.table
        #expect(table.codes.count == 65 && table.frameCount == 126)
        #expect(table.codes.allSatisfy { $0.reduce(0) { $0 + Int($1) } == 63 })
    }

    @Test("61_6521: 47 balanced codes, all pairwise ±1 correlations −1; flip_balanced adds Q and P")
    func family61() {
        let all = GoldCodeFamily.mgold61_6521.allGoldCodes
        let indices = GoldCodeFamily.mgold61_6521.codeIndices
        #expect(indices.count == 47)
        for (a, i) in indices.enumerated() { for j in indices[(a + 1)...] {
            #expect(zip(all[i], all[j]).reduce(0) { $0 + ($1.0 == $1.1 ? 1 : -1) } == -1)
        } }
        #expect(GoldCodeFamily.flipBalanced61_6521.codeIndices == indices + [63, 64])
    }

    @Test("the PMB tables equal the regenerated families, frame times included",
          .enabled(if: TestSupport.hasRealData("mindaffect"), "../shared/realdata/mindaffect is absent"))
    func pmbTables() throws {
        for (name, family) in [("mgold_65_6532_psk_60hz.txt", GoldCodeFamily.mgold65_6532),
                               ("mgold_61_6521_psk_60hz.txt", .mgold61_6521)] {
            let text = try String(contentsOf: try #require(TestSupport.realData("mindaffect/\(name)")), encoding: .utf8)
            let table = try NoiseCodeTable.parsePMBText(text, sourceFile: name)
            #expect(table == family.table, "\(name)")
            let check = CodeTableCheck(table)
            #expect(check.exactFamily == family)
            #expect(check.matches.map(\.goldIndex) == family.codeIndices.map(Optional.some))
        }
    }

    @Test("check finds shifted and inverted rows, and rows of no family")
    func shiftedAndInverted() {
        let codes = GoldCodeFamily.mgold65_6532.table.codes
        let shifted = (0..<126).map { codes[10][($0 + 5) % 126] }
        let inverted = codes[3].map { 1 - $0 }
        let noise = [UInt8](repeating: 1, count: 126)
        let check = CodeTableCheck(NoiseCodeTable(frameTimesMs: [], codes: [shifted, inverted, noise]))
        #expect(check.matches[0] == CodeMatch(row: 0, generators: "65_6532", goldIndex: 10, shift: 5, inverted: false))
        #expect(check.matches[1].goldIndex == 3 && check.matches[1].inverted == true)
        #expect(check.matches[2].goldIndex == nil)
        #expect(check.exactFamily == nil)
    }

    @Test("malformed code tables name the line")
    func malformed() {
        let cases: [(String, Int)] = [("# c\n0 17 x\n", 2), ("0 17\n0 1\n1 0 1\n", 3), ("# only comments\n", 1), ("0 17 33\n0 1\n", 1)]
        for (text, line) in cases {
            do {
                _ = try NoiseCodeTable.parsePMBText(text, sourceFile: "c.txt")
                Issue.record("expected an error for \(text)")
            } catch {
                guard case .badCodeTable(let file, let found, let message) = error else { Issue.record("\(error)"); continue }
                #expect(file == "c.txt" && found == line, "\(message)")
                #expect(message.hasPrefix("expected"))
            }
        }
    }
}
