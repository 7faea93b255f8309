import Foundation
import Testing
@testable import MindAffect

/// A constructed save file from lines (LF), parsed.
func parseLines(_ lines: [String], ending: String = "\n", skipBadLines: Bool = false) throws(MindAffectError) -> SaveFile {
    try SaveFile.parse(Data((lines.joined(separator: ending) + ending).utf8), sourceFile: "t.txt",
                       skipBadLines: skipBadLines)
}

/// A constructed line with the hub's prefix and suffix (spec §1.2).
func hubLine(_ name: String, _ payload: String, rts: Int = 1000, sts: Int? = nil, ts: Int = 5,
             client: String = "/10.0.0.1:4000") -> String {
    "rts:\(rts) sts:\(sts ?? rts)  t:\(name) ts:\(ts)\(payload) <-\(client)"
}

let onePacket = hubLine("DATAPACKET", " v[2x1]:[1.0,2.0,]")

@Suite("Save-file lines: every message type (spec §1.3)")
struct LineGrammarTests {
    func payload(_ line: String) throws -> HubPayload {
        let file = try parseLines([line, onePacket])
        return try #require(file.messages.first).payload
    }

    @Test("prefix fields and client")
    func prefix() throws {
        let file = try parseLines([hubLine("NEWTARGET", "", rts: -1997759000, sts: 9728, ts: 48567, client: "host/1.2.3.4:51489"), onePacket])
        let message = try #require(file.messages.first)
        #expect(message.rts == -1_997_759_000)
        #expect(message.sts == 9728)
        #expect(message.ts == 48567)
        #expect(message.name == "NEWTARGET")
        #expect(message.line == 1)
        #expect(file.clients[message.client] == "host/1.2.3.4:51489")
        #expect(message.payload == .newTarget)
    }

    @Test("DATAPACKET: values in sample-major order, Java floats with exponents, NaN and infinities")
    func dataPacket() throws {
        let file = try parseLines([hubLine("DATAPACKET", " v[3x2]:[31.29,-11.0,9.778764E-4,][NaN,Infinity,-Infinity,]"),
                                   hubLine("DATAPACKET", " v[3x1]:[1.0E-10,2,-3.5E7,]")])
        #expect(file.channelCount == 3)
        #expect(file.sampleCount == 3)
        #expect(file.sampleValues[0] == 31.29 && file.sampleValues[1] == -11 && file.sampleValues[2] == Float(9.778764e-4))
        #expect(file.sampleValues[3].isNaN && file.sampleValues[4] == .infinity && file.sampleValues[5] == -.infinity)
        #expect(file.sampleValues[6] == Float(1e-10) && file.sampleValues[7] == 2 && file.sampleValues[8] == -3.5e7)
        #expect(file.messages[1].payload == .dataPacket(channelCount: 3, sampleCount: 1, firstSample: 2))
    }

    @Test("DATAHEADER, kept as logged (fs and nch swapped: T1)")
    func dataHeader() throws {
        #expect(try payload(hubLine("DATAHEADER", " fs4.0 ch[200]:")) == .dataHeader(fs: 4, channelCount: 200, labels: []))
        #expect(try payload(hubLine("DATAHEADER", " fs250.0 ch[2]:Fp1,Fp2")) == .dataHeader(fs: 250, channelCount: 2, labels: ["Fp1", "Fp2"]))
        let file = try parseLines([hubLine("DATAHEADER", " fs2.0 ch[200]:"), onePacket])
        let analysis = SaveFileAnalysis(file, codes: nil)
        #expect(analysis.header?.swapped == true)
        #expect(analysis.anomalies.contains { $0.code == "W_HEADER" })
    }

    @Test("STIMULUSEVENT, with signed bytes (T9)")
    func stimulusEvent() throws {
        #expect(try payload(hubLine("STIMULUSEVENT", " v[3]:{1,0}{2,1}{0,1}"))
                == .stimulusEvent([ObjectState(objectID: 1, state: 0), ObjectState(objectID: 2, state: 1), ObjectState(objectID: 0, state: 1)]))
        let file = try parseLines([hubLine("STIMULUSEVENT", " v[2]:{-127,-1}{5,2}"), onePacket])
        #expect(file.messages[0].payload == .stimulusEvent([ObjectState(objectID: 129, state: 255), ObjectState(objectID: 5, state: 2)]))
        #expect(file.anomalies.map(\.code) == ["W_SIGNED"])
        #expect(try payload(hubLine("STIMULUSEVENT", " v[0]:")) == .stimulusEvent([]))
    }

    @Test("MODECHANGE, NEWTARGET, SELECTION, RESET, LOG, HEARTBEAT with free text")
    func textMessages() throws {
        #expect(try payload(hubLine("MODECHANGE", " mode:Prediction.static")) == .modeChange("Prediction.static"))
        #expect(try payload(hubLine("MODECHANGE", " mode:my mode: ünï")) == .modeChange("my mode: ünï"))
        #expect(try payload(hubLine("NEWTARGET", "")) == .newTarget)
        #expect(try payload(hubLine("RESET", "")) == .reset)
        #expect(try payload(hubLine("SELECTION", " id:5")) == .selection(objectID: 5))
        #expect(try payload(hubLine("SELECTION", " id:-100")) == .selection(objectID: 156))
        #expect(try payload(hubLine("LOG", " msg:hello <- world")) == .log("hello <- world"))
        #expect(try payload(hubLine("HEARTBEAT", " v:Presentation:selectionMatrix")) == .heartbeat("Presentation:selectionMatrix"))
        #expect(try payload(hubLine("HEARTBEAT", " v:NULL")) == .heartbeat(nil))
    }

    @Test("decoder messages: PREDICTEDTARGETPROB, PREDICTEDTARGETDIST, SIGNALQUALITY, OUTPUTSCORE")
    func decoderMessages() throws {
        #expect(try payload(hubLine("PREDICTEDTARGETPROB", " Yest:20 Perr:0.16557932")) == .predictedTargetProb(yest: 20, perr: 0.16557932))
        #expect(try payload(hubLine("PREDICTEDTARGETDIST", " v[2]:{0,0.0}{3,9.778764E-4}"))
                == .predictedTargetDist([ObjectProbability(objectID: 0, probability: 0), ObjectProbability(objectID: 3, probability: 9.778764e-4)]))
        #expect(try payload(hubLine("SIGNALQUALITY", " [4] 3.81,2.61,5.23,6.70,")) == .signalQuality([3.81, 2.61, 5.23, 6.70]))
        #expect(try payload(hubLine("OUTPUTSCORE", " v[2]:0.5,-1.0E-3,")) == .outputScore([0.5, -0.001]))
    }

    @Test("unknown NAME: kept, counted, one W_UNKNOWN per NAME")
    func unknownName() throws {
        let file = try parseLines([hubLine("FUTUREMSG", " x:1"), hubLine("FUTUREMSG", " x:2"), onePacket,
                                   hubLine("TICKTOCK", " tock:5")])
        #expect(file.messages.map(\.name) == ["FUTUREMSG", "FUTUREMSG", "DATAPACKET", "TICKTOCK"])
        #expect(file.messages[0].payload == .unparsed(" x:1"))
        #expect(file.anomalies.map(\.code) == ["W_UNKNOWN"])
        #expect(file.anomalies.first?.line == 1)
    }

    @Test("CRLF line endings (T11)")
    func crlf() throws {
        let file = try parseLines([hubLine("MODECHANGE", " mode:idle"), onePacket], ending: "\r\n")
        #expect(file.messages[0].payload == .modeChange("idle"))
        #expect(file.clients == ["/10.0.0.1:4000"])
    }

    @Test("Latin-1 text (T10)")
    func latin1() throws {
        var bytes = Data(hubLine("LOG", " msg:caf").utf8)
        bytes.removeLast(" <-/10.0.0.1:4000".utf8.count)
        bytes.append(0xE9)
        bytes.append(contentsOf: Array(" <-/10.0.0.1:4000\n".utf8))
        bytes.append(contentsOf: Array((onePacket + "\n").utf8))
        let file = try SaveFile.parse(bytes, sourceFile: "t.txt")
        #expect(file.messages[0].payload == .log("café"))
        #expect(file.anomalies.map(\.code) == ["W_ENCODING"])
    }

    @Test("truncated final line: W_TRUNC (T6); a complete final line without newline is kept")
    func truncation() throws {
        let text = onePacket + "\n" + "rts:1 sts:1  t:DATAPACKET ts:149947754 v[4x4]:[30.601732,-4"
        let file = try SaveFile.parse(Data(text.utf8), sourceFile: "t.txt")
        #expect(file.lineCount == 2)
        #expect(file.messages.count == 1)
        #expect(file.anomalies.map(\.code) == ["W_TRUNC"])
        #expect(file.anomalies.first?.line == 2)
        let complete = try SaveFile.parse(Data((onePacket + "\n" + onePacket).utf8), sourceFile: "t.txt")
        #expect(complete.messages.count == 2)
        #expect(complete.anomalies.isEmpty)
    }
}
