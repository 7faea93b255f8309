import Foundation

/// The fields of one line before its payload is interpreted.
struct LinePrefix {
    var rts: Int
    var sts: Int
    var name: String
    var ts: Int
    var client: Range<Int>
}

/// Side notes of a parsed line that become warnings (signed bytes, Latin-1 text).
struct LineNotes {
    var signedBytes = 0
    var latin1 = false
}

/// Reads one save-file line (spec §1.2–1.3). DATAPACKET values are appended to `samples`; on a failure nothing
/// is appended.
struct HubLineParser {
    /// The channel count of the first packet (E_NCH for any other).
    var channelCount: Int?

    /// Splits off the client and reads the prefix up to the end of `ts:<int>`.
    func readPrefix(_ scanner: inout LineScanner) throws(LineProblem) -> LinePrefix {
        // The client follows the last " <-".
        var marker = scanner.end - 3
        while marker >= scanner.position {
            if scanner.bytes[marker] == UInt8(ascii: " "), scanner.bytes[marker + 1] == UInt8(ascii: "<"),
               scanner.bytes[marker + 2] == UInt8(ascii: "-") { break }
            marker -= 1
        }
        guard marker >= scanner.position else {
            var atEnd = scanner
            atEnd.position = scanner.end
            throw LineProblem(code: .prefix, column: atEnd.column,
                              message: "expected \" <-<client>\" at the end of the line, found none")
        }
        let client = (marker + 3)..<scanner.end
        guard !client.isEmpty else {
            var atEnd = scanner
            atEnd.position = scanner.end
            throw LineProblem(code: .prefix, column: atEnd.column,
                              message: "expected a client (\"/ip:port\", \"host/ip:port\" or \"UNKNOWN\") after \" <-\", found nothing")
        }
        scanner.end = marker
        guard scanner.skip("rts:") else { throw .prefix(scanner, "\"rts:\"") }
        guard let rts = scanner.readInt32() else { throw .prefix(scanner, "a 32-bit int after \"rts:\"") }
        guard scanner.skip(" sts:") else { throw .prefix(scanner, "\" sts:\"") }
        guard let sts = scanner.readInt32() else { throw .prefix(scanner, "a 32-bit int after \"sts:\"") }
        guard scanner.skip(byte: UInt8(ascii: " ")) else { throw .prefix(scanner, "two spaces before \"t:\"") }
        while scanner.skip(byte: UInt8(ascii: " ")) {}
        guard scanner.skip("t:") else { throw .prefix(scanner, "\"t:\"") }
        let nameStart = scanner.position
        while let byte = scanner.peek, (byte >= 65 && byte <= 90) || byte &- 48 < 10 || byte == 95 {
            scanner.position += 1
        }
        guard scanner.position > nameStart else { throw .prefix(scanner, "a message NAME (A–Z) after \"t:\"") }
        let name = String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[nameStart..<scanner.position]),
                          as: UTF8.self)
        guard scanner.skip(" ts:") else { throw .prefix(scanner, "\" ts:\" after the NAME") }
        guard let ts = scanner.readInt32() else { throw .prefix(scanner, "a 32-bit int after \"ts:\"") }
        return LinePrefix(rts: rts, sts: sts, name: name, ts: ts, client: client)
    }

    /// Reads the payload after `ts:<int>` for `name`.
    mutating func readPayload(_ scanner: inout LineScanner, name: String, samples: inout [Float],
                              notes: inout LineNotes) throws(LineProblem) -> HubPayload {
        switch name {
        case MessageName.dataPacket: return try readDataPacket(&scanner, samples: &samples)
        case MessageName.dataHeader: return try readDataHeader(&scanner, notes: &notes)
        case MessageName.stimulusEvent:
            let pairs = try readPairs(&scanner, name: name) { (s: inout LineScanner) throws(LineProblem) -> ObjectState in
                let objectID = try Self.readByte(&s, name, "objID", notes: &notes)
                guard s.skip(byte: UInt8(ascii: ",")) else { throw .syntax(s, name, "\",\" after the objID") }
                let state = try Self.readByte(&s, name, "state", notes: &notes)
                return ObjectState(objectID: objectID, state: state)
            }
            return .stimulusEvent(pairs)
        case MessageName.modeChange:
            guard scanner.skip(" mode:") else { throw .syntax(scanner, name, "\" mode:<text>\"") }
            return .modeChange(Self.text(scanner.readBytes(upTo: nil), scanner, notes: &notes))
        case MessageName.newTarget, MessageName.reset:
            guard scanner.isAtEnd else { throw .syntax(scanner, name, "no payload") }
            return name == MessageName.reset ? .reset : .newTarget
        case MessageName.selection:
            guard scanner.skip(" id:") else { throw .syntax(scanner, name, "\" id:<objID>\"") }
            let objectID = try Self.readByte(&scanner, name, "objID", notes: &notes)
            guard scanner.isAtEnd else { throw .syntax(scanner, name, "the end after the objID") }
            return .selection(objectID: objectID)
        case MessageName.predictedTargetProb:
            guard scanner.skip(" Yest:") else { throw .syntax(scanner, name, "\" Yest:<objID>\"") }
            let yest = try Self.readByte(&scanner, name, "objID", notes: &notes)
            guard scanner.skip(" Perr:") else { throw .syntax(scanner, name, "\" Perr:<float>\"") }
            guard let perr = scanner.readDouble() else { throw .number(scanner, name) }
            guard scanner.isAtEnd else { throw .syntax(scanner, name, "the end after Perr") }
            return .predictedTargetProb(yest: yest, perr: perr)
        case MessageName.predictedTargetDist:
            let pairs = try readPairs(&scanner, name: name) { (s: inout LineScanner) throws(LineProblem) -> ObjectProbability in
                let objectID = try Self.readByte(&s, name, "objID", notes: &notes)
                guard s.skip(byte: UInt8(ascii: ",")) else { throw .syntax(s, name, "\",\" after the objID") }
                guard let probability = s.readDouble() else { throw .number(s, name) }
                return ObjectProbability(objectID: objectID, probability: probability)
            }
            return .predictedTargetDist(pairs)
        case MessageName.signalQuality:
            guard scanner.skip(" [") else { throw .syntax(scanner, name, "\" [<n>] \"") }
            guard let count = scanner.readInt32(), count >= 0 else { throw .syntax(scanner, name, "a count") }
            guard scanner.skip("] ") else { throw .syntax(scanner, name, "\"] \" after the count") }
            return .signalQuality(try readFloatList(&scanner, name: name, count: count))
        case MessageName.outputScore:
            guard scanner.skip(" v[") else { throw .syntax(scanner, name, "\" v[<n>]:\"") }
            guard let count = scanner.readInt32(), count >= 0 else { throw .syntax(scanner, name, "a count") }
            guard scanner.skip("]:") else { throw .syntax(scanner, name, "\"]:\" after the count") }
            return .outputScore(try readFloatList(&scanner, name: name, count: count))
        case MessageName.heartbeat:
            guard scanner.skip(" v:") else { throw .syntax(scanner, name, "\" v:<text>\"") }
            let text = Self.text(scanner.readBytes(upTo: nil), scanner, notes: &notes)
            return .heartbeat(text == "NULL" ? nil : text)
        case MessageName.log:
            guard scanner.skip(" msg:") else { throw .syntax(scanner, name, "\" msg:<text>\"") }
            return .log(Self.text(scanner.readBytes(upTo: nil), scanner, notes: &notes))
        default:
            return .unparsed(Self.text(scanner.readBytes(upTo: nil), scanner, notes: &notes))
        }
    }

    /// ` v[<nch>x<nsamp>]:` then nsamp × `[` (float `,`)×nch `]`.
    private mutating func readDataPacket(_ scanner: inout LineScanner,
                                         samples: inout [Float]) throws(LineProblem) -> HubPayload {
        let name = MessageName.dataPacket
        guard scanner.skip(" v[") else { throw .syntax(scanner, name, "\" v[<nch>x<nsamp>]:\"") }
        guard let channels = scanner.readInt32(), channels > 0 else { throw .syntax(scanner, name, "a channel count") }
        guard scanner.skip(byte: UInt8(ascii: "x")) else { throw .syntax(scanner, name, "\"x\" after the channel count") }
        guard let count = scanner.readInt32(), count >= 0 else { throw .syntax(scanner, name, "a sample count") }
        guard scanner.skip("]:") else { throw .syntax(scanner, name, "\"]:\" after the sample count") }
        if let expected = channelCount, expected != channels {
            throw LineProblem(code: .nch, column: scanner.column,
                              message: "DATAPACKET: expected \(expected) channels as in the first packet, found \(channels)")
        }
        let firstSample = samples.count / channels
        let rollback = samples.count
        do throws(LineProblem) {
            var groups = 0
            while scanner.skip(byte: UInt8(ascii: "[")) {
                for index in 0..<channels {
                    if scanner.peek == UInt8(ascii: "]") {
                        throw .shape(scanner, name, "sample \(groups + 1) holds \(index) values, expected \(channels) (declared v[\(channels)x\(count)])")
                    }
                    guard let value = scanner.readFloat32() else { throw .number(scanner, name) }
                    guard scanner.skip(byte: UInt8(ascii: ",")) else {
                        throw .shape(scanner, name, "expected \",\" after every value of sample \(groups + 1)")
                    }
                    samples.append(value)
                }
                guard scanner.skip(byte: UInt8(ascii: "]")) else {
                    if scanner.isAtEnd { throw .syntax(scanner, name, "\"]\" closing sample \(groups + 1)") }
                    throw .shape(scanner, name, "sample \(groups + 1) holds more than \(channels) values (declared v[\(channels)x\(count)])")
                }
                groups += 1
            }
            guard scanner.isAtEnd else { throw .syntax(scanner, name, "\"[\" opening a sample or the end") }
            guard groups == count else {
                throw .shape(scanner, name, "declared v[\(channels)x\(count)] but found \(groups) samples")
            }
        } catch {
            samples.removeSubrange(rollback...)
            throw error
        }
        if channelCount == nil { channelCount = channels }
        return .dataPacket(channelCount: channels, sampleCount: count, firstSample: firstSample)
    }

    /// ` fs<float> ch[<int>]:<labels>`.
    private func readDataHeader(_ scanner: inout LineScanner, notes: inout LineNotes) throws(LineProblem) -> HubPayload {
        let name = MessageName.dataHeader
        guard scanner.skip(" fs") else { throw .syntax(scanner, name, "\" fs<float>\"") }
        guard let fs = scanner.readDouble() else { throw .number(scanner, name) }
        guard scanner.skip(" ch[") else { throw .syntax(scanner, name, "\" ch[<int>]:\"") }
        guard let channels = scanner.readInt32() else { throw .syntax(scanner, name, "a channel count") }
        guard scanner.skip("]:") else { throw .syntax(scanner, name, "\"]:\" after the channel count") }
        let text = Self.text(scanner.readBytes(upTo: nil), scanner, notes: &notes)
        let labels = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return .dataHeader(fs: fs, channelCount: channels, labels: labels)
    }

    /// ` v[<n>]:` then n × `{…}`.
    private func readPairs<Pair>(_ scanner: inout LineScanner, name: String,
                                 _ readPair: (inout LineScanner) throws(LineProblem) -> Pair) throws(LineProblem) -> [Pair] {
        guard scanner.skip(" v[") else { throw .syntax(scanner, name, "\" v[<n>]:\"") }
        guard let count = scanner.readInt32(), count >= 0 else { throw .syntax(scanner, name, "a count") }
        guard scanner.skip("]:") else { throw .syntax(scanner, name, "\"]:\" after the count") }
        var pairs: [Pair] = []
        pairs.reserveCapacity(min(count, 4096))
        while scanner.skip(byte: UInt8(ascii: "{")) {
            pairs.append(try readPair(&scanner))
            guard scanner.skip(byte: UInt8(ascii: "}")) else { throw .syntax(scanner, name, "\"}\" closing a pair") }
        }
        guard scanner.isAtEnd else { throw .syntax(scanner, name, "\"{\" opening a pair or the end") }
        guard pairs.count == count else { throw .shape(scanner, name, "declared v[\(count)] but found \(pairs.count) pairs") }
        return pairs
    }

    /// n × (float `,`).
    private func readFloatList(_ scanner: inout LineScanner, name: String, count: Int) throws(LineProblem) -> [Double] {
        var values: [Double] = []
        while !scanner.isAtEnd {
            guard let value = scanner.readDouble() else { throw .number(scanner, name) }
            guard scanner.skip(byte: UInt8(ascii: ",")) else { throw .syntax(scanner, name, "\",\" after every value") }
            values.append(value)
        }
        guard values.count == count else { throw .shape(scanner, name, "declared [\(count)] but found \(values.count) values") }
        return values
    }

    /// A Java byte (objID or state), −128…−1 mapped to 128…255 (T9).
    private static func readByte(_ scanner: inout LineScanner, _ name: String, _ what: String,
                                 notes: inout LineNotes) throws(LineProblem) -> Int {
        let before = scanner
        guard let value = scanner.readInt32() else { throw .syntax(scanner, name, "an integer \(what)") }
        guard value >= -128, value <= 255 else {
            throw .syntax(before, name, "a \(what) in -128…255 (a Java byte)")
        }
        if value < 0 {
            notes.signedBytes += 1
            return value + 256
        }
        return value
    }

    /// Free text: UTF-8, or Latin-1 when it is not valid UTF-8 (T10).
    static func text(_ range: Range<Int>, _ scanner: LineScanner, notes: inout LineNotes) -> String {
        let slice = UnsafeBufferPointer(rebasing: scanner.bytes[range])
        if let text = String(validating: slice, as: UTF8.self) { return text }
        notes.latin1 = true
        return String(slice.map { Character(Unicode.Scalar($0)) })
    }
}
