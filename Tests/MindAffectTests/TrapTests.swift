import Foundation
import Testing
import TestSupport
@testable import MindAffect

@Suite("Traps T2–T7 and malformed lines (spec §1.5, §6.1)")
struct TrapTests {
    @Test("T2: rts wraps past 2^31; times unwrap (values by hand)")
    func wrapping() throws {
        let file = try parseLines([
            hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: 2_147_483_000),
            hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: -2_147_483_000),  // 1,296 ms later, sign flipped
        ])
        let times = MessageTimes(file)
        #expect(times.rtsMs == [2_147_483_000, 2_147_484_296])
        #expect(times.tMs == [2_147_483_000, 2_147_484_296])
        #expect(times.seconds(Double(times.tMs[1])) == 1.296)
        #expect(times.anomalies.isEmpty)
    }

    @Test("T3: |sts − rts| > 1000 ms uses rts, one W_STS row per client and NAME; --clock rts")
    func mixedClocks() throws {
        let file = try parseLines([
            hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: 100, sts: 90),
            hubLine("PREDICTEDTARGETPROB", " Yest:1 Perr:0.5", rts: 200, sts: 15_503_291),
            hubLine("PREDICTEDTARGETPROB", " Yest:1 Perr:0.5", rts: 300, sts: 15_503_391),
        ])
        let times = MessageTimes(file)
        #expect(times.tMs == [90, 200, 300])
        #expect(times.stsFallback == [false, true, true])
        #expect(times.anomalies.map(\.code) == ["W_STS"])
        #expect(times.anomalies.first?.line == 2)
        #expect(MessageTimes(file, clock: .rts).tMs == [100, 200, 300])
    }

    @Test("W_CLOCK_BACK when rts falls by more than 1000 ms")
    func clockBack() throws {
        let file = try parseLines([hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: 5000),
                                   hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: 3000)])
        #expect(MessageTimes(file).anomalies.map(\.code) == ["W_CLOCK_BACK"])
    }

    @Test("T4/T5: interp timestamps, last sample at the packet time; non-advancing packets (by hand)")
    func interpolation() throws {
        // fs: (2 + 4 + 2) samples after the first packet over 40 ms → 200 Hz.
        let file = try parseLines([
            hubLine("DATAPACKET", " v[1x3]:[1.0,][2.0,][3.0,]", sts: 1000),
            hubLine("DATAPACKET", " v[1x2]:[4.0,][5.0,]", sts: 1010),
            hubLine("DATAPACKET", " v[1x4]:[6.0,][7.0,][8.0,][9.0,]", sts: 1010),
            hubLine("DATAPACKET", " v[1x2]:[10.0,][11.0,]", sts: 1040),
        ].enumerated().map { index, line in line.replacingOccurrences(of: "rts:1000", with: "rts:\(1000 + 10 * index)") })
        let timeline = SampleTimeline(file, times: MessageTimes(file))
        #expect(timeline.fsEstimated == 200)
        #expect(timeline.fsNominal == 200)
        #expect(timeline.sampleMs == [990, 995, 1000, 1005, 1010, 1010, 1010, 1010, 1010, 1025, 1040])
        #expect(timeline.zeroAdvancePackets == 1)
        #expect(timeline.anomalies.map(\.code) == ["W_TS_NONMONO"])
        #expect(timeline.anomalies.first?.line == 3)
    }

    @Test("W_FS when the estimate is not within 1 % of a standard rate")
    func oddRate() throws {
        let file = try parseLines([
            hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: 1000),
            hubLine("DATAPACKET", " v[1x3]:[1.0,][1.0,][1.0,]", rts: 1010),
        ])
        let timeline = SampleTimeline(file, times: MessageTimes(file))
        #expect(timeline.fsEstimated == 300)
        #expect(timeline.fsNominal == 300)
        #expect(timeline.anomalies.map(\.code) == ["W_FS"])
    }

    @Test("T7: a heartbeat gap over 4 s is W_HB_GAP")
    func heartbeatGap() throws {
        let file = try parseLines([hubLine("HEARTBEAT", " v:a", rts: 0), hubLine("HEARTBEAT", " v:a", rts: 1000),
                                   hubLine("HEARTBEAT", " v:a", rts: 6000), onePacket.replacingOccurrences(of: "rts:1000 sts:1000", with: "rts:6001 sts:6001")])
        let analysis = SaveFileAnalysis(file, codes: nil)
        #expect(analysis.anomalies.filter { $0.code == "W_HB_GAP" }.map(\.line) == [3])
    }

    static let malformed: [(String, String, Int?)] = [
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[1x1]:[1.0,]", "E_PREFIX", nil),                 // no " <-"
        ("hello <-/1.2.3.4:5", "E_PREFIX", 1),
        ("rts:1 sts:x  t:NEWTARGET ts:5 <-/1.2.3.4:5", "E_PREFIX", 11),
        ("rts:99999999999 sts:1  t:NEWTARGET ts:5 <-/1.2.3.4:5", "E_PREFIX", 5),
        ("rts:1 sts:1  t:NEWTARGET ts:5 <-", "E_PREFIX", nil),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[2x1]:[1.0,2.0,][3.0,4.0,] <-/1.2.3.4:5", "E_SHAPE", nil),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[2x1]:[1.0,] <-/1.2.3.4:5", "E_SHAPE", 44),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[2x1]:[1.0,2.0] <-/1.2.3.4:5", "E_SHAPE", 47),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[2x1]:[1.0,2.0,3.0,] <-/1.2.3.4:5", "E_SHAPE", nil),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[2x1]:[1.0,abc,] <-/1.2.3.4:5", "E_FLOAT", 44),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[2x1]:[1.0,0x1p3,] <-/1.2.3.4:5", "E_SHAPE", nil),
        ("rts:1 sts:1  t:DATAPACKET ts:5 v[3x1]:[1.0,2.0,3.0,] <-/1.2.3.4:5", "E_NCH", nil),
        ("rts:1 sts:1  t:STIMULUSEVENT ts:5 v[2]:{1,0} <-/1.2.3.4:5", "E_SHAPE", nil),
        ("rts:1 sts:1  t:STIMULUSEVENT ts:5 v[1]:{1;0} <-/1.2.3.4:5", "E_SYNTAX", nil),
        ("rts:1 sts:1  t:STIMULUSEVENT ts:5 v[1]:{1,300} <-/1.2.3.4:5", "E_SYNTAX", nil),
        ("rts:1 sts:1  t:SELECTION ts:5 <-/1.2.3.4:5", "E_SYNTAX", nil),
        ("rts:1 sts:1  t:PREDICTEDTARGETPROB ts:5 Yest:1 Perr:high <-/1.2.3.4:5", "E_FLOAT", nil),
        ("rts:1 sts:1  t:SIGNALQUALITY ts:5 [2] 1.0, <-/1.2.3.4:5", "E_SHAPE", nil),
        ("rts:1 sts:1  t:NEWTARGET ts:5 extra <-/1.2.3.4:5", "E_SYNTAX", nil),
        ("rts:1 sts:1  t:MODECHANGE ts:5 idle <-/1.2.3.4:5", "E_SYNTAX", nil),
        ("rts:1 sts:1  t:DATAHEADER ts:5 fsx ch[4]: <-/1.2.3.4:5", "E_FLOAT", nil),
    ]

    @Test("malformed lines stop the parse with file:line:col and the E- code", arguments: 0..<malformed.count)
    func malformedLine(index: Int) throws {
        let (line, code, column) = Self.malformed[index]
        do {
            _ = try parseLines([hubLine("DATAPACKET", " v[2x1]:[1.0,2.0,]"), line, onePacket])
            Issue.record("expected \(code) for \(line)")
        } catch {
            guard case .badLine(let file, let number, let problem) = error else { Issue.record("\(error)"); return }
            #expect(file == "t.txt")
            #expect(number == 2)
            #expect(problem.code == code, "\(line): \(problem.message)")
            if let column { #expect(problem.column == column, "\(problem.message)") }
            #expect(error.message.hasPrefix("t.txt:2:"))
            #expect(error.message.contains("expected") || error.message.contains("declared"))
        }
    }

    @Test("--skip-bad-lines turns each into an error row and goes on")
    func skipBadLines() throws {
        let lines = [hubLine("DATAPACKET", " v[2x1]:[1.0,2.0,]")] + Self.malformed.map(\.0) + [onePacket]
        let file = try parseLines(lines, skipBadLines: true)
        #expect(file.messages.count == 2)
        #expect(file.sampleCount == 2)
        #expect(file.anomalies.map(\.code) == Self.malformed.map(\.1))
        #expect(file.anomalies.allSatisfy { $0.severity == .error })
        #expect(file.anomalies.map(\.line) == Array(2...(Self.malformed.count + 1)).map(Optional.some))
    }

    @Test("E_NODATA: empty, whitespace-only, and no DATAPACKET")
    func noData() throws {
        for text in ["", "  \n\n", hubLine("NEWTARGET", "") + "\n"] {
            #expect(throws: MindAffectError.self) { try SaveFile.parse(Data(text.utf8), sourceFile: "t.txt") }
            do { _ = try SaveFile.parse(Data(text.utf8), sourceFile: "t.txt") } catch {
                #expect(error.message.hasPrefix("t.txt: error E_NODATA:"))
            }
        }
    }
}

@Suite("Robustness")
struct RobustnessTests {
    @Test("mutated lines never crash: each is parsed or becomes an error row")
    func mutations() throws {
        let seeds = [
            hubLine("DATAPACKET", " v[2x2]:[1.5,-2.0E-3,][NaN,4.0,]"),
            hubLine("STIMULUSEVENT", " v[3]:{1,0}{2,1}{0,1}"),
            hubLine("PREDICTEDTARGETPROB", " Yest:20 Perr:0.16557932"),
            hubLine("PREDICTEDTARGETDIST", " v[1]:{0,0.0}"),
            hubLine("SIGNALQUALITY", " [2] 3.81,2.61,"),
            hubLine("DATAHEADER", " fs4.0 ch[200]:a,b"),
            hubLine("SELECTION", " id:5"),
            "rts:1 sts:1  t:STIMULUSEVENT ts:5 v[2000000000]: <-/1.2.3.4:5",
        ]
        var generator = SeededGenerator(seed: 42)
        var lines: [String] = [hubLine("DATAPACKET", " v[2x1]:[1.0,2.0,]")]
        let alphabet = Array("0123456789-.,:[]{}x vE<-/NaIfinty\t\u{00e9}")
        for index in 0..<3000 {
            var characters = Array(seeds[index % seeds.count])
            for _ in 0..<(1 + index % 3) {
                let position = Int(generator.next() % UInt64(characters.count))
                switch generator.next() % 3 {
                case 0: characters.remove(at: position)
                case 1: characters.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                default: characters[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                }
                if characters.isEmpty { characters = ["x"] }
            }
            lines.append(String(characters).replacingOccurrences(of: "\n", with: " "))
        }
        let file = try parseLines(lines, skipBadLines: true)
        let errors = file.anomalies.filter { $0.severity == .error }.count
        let blanks = file.anomalies.filter { $0.code == "I_BLANK" }.count
        #expect(file.messages.count + errors + blanks == lines.count)
        let analysis = SaveFileAnalysis(file, codes: GoldCodeFamily.mgold65_6532.table)
        _ = SaveFileTables.names.count
        #expect(analysis.timeline.sampleMs.count == file.sampleCount)
    }
}
