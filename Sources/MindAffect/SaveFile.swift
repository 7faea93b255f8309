import Foundation
import Tables

/// A parsed hub save file: every message in file order, the EEG values and the anomalies met on the way
/// (spec §1, §6.1).
public struct SaveFile: Sendable {
    /// The input, as given on the command line.
    public var sourceFile: String
    /// The messages in file order.
    public var messages: [HubMessage]
    /// The clients, in order of first appearance (``HubMessage/client`` indexes this).
    public var clients: [String]
    /// Every DATAPACKET's samples, concatenated: `sampleCount × channelCount` values, sample-major, in µV.
    public var sampleValues: [Float]
    /// The channel count of the packets (nil without packets).
    public var channelCount: Int?
    /// The physical line count (a final line without a newline counts).
    public var lineCount: Int
    /// Warnings, and with `skipBadLines` errors, in line order.
    public var anomalies: [Anomaly]

    /// The number of EEG samples.
    public var sampleCount: Int { channelCount.map { sampleValues.count / $0 } ?? 0 }

    /// Parses a whole save file. Without `skipBadLines` the first unreadable line throws
    /// ``MindAffectError/badLine(file:line:problem:)``; an empty file or one without DATAPACKET throws
    /// ``MindAffectError/noData(file:reason:)``.
    public static func parse(_ data: Data, sourceFile: String, skipBadLines: Bool = false) throws(MindAffectError) -> SaveFile {
        var bytes = [UInt8](data)
        bytes.append(0)  // stops the C number parsers
        var file = SaveFile(sourceFile: sourceFile, messages: [], clients: [], sampleValues: [], channelCount: nil,
                            lineCount: 0, anomalies: [])
        try bytes.withUnsafeBufferPointer { (buffer) throws(MindAffectError) in
            try file.readLines(buffer, contentCount: buffer.count - 1, skipBadLines: skipBadLines)
        }
        if file.messages.isEmpty && !file.anomalies.contains(where: { $0.code.hasPrefix("E_") }) {
            throw .noData(file: sourceFile, reason: "the file holds no message (empty or whitespace only)")
        }
        guard file.messages.contains(where: { $0.name == MessageName.dataPacket }) else {
            throw .noData(file: sourceFile, reason: "expected at least one DATAPACKET line, found none")
        }
        return file
    }

    private mutating func readLines(_ buffer: UnsafeBufferPointer<UInt8>, contentCount: Int,
                                    skipBadLines: Bool) throws(MindAffectError) {
        var parser = HubLineParser()
        var clientIndex: [String: Int] = [:]
        var unknownNames: Set<String> = []
        var lineStart = 0
        var lineNumber = 0
        let newline = UInt8(ascii: "\n")
        while lineStart < contentCount {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < contentCount, buffer[lineEnd] != newline { lineEnd += 1 }
            let isFinalFragment = lineEnd == contentCount
            var contentEnd = lineEnd
            if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            defer { lineStart = lineEnd + 1 }
            // The whole line: the anomalies table escapes and cuts it (conventions §3.2).
            func raw() -> String {
                String(decoding: UnsafeBufferPointer(rebasing: buffer[lineStart..<contentEnd]), as: UTF8.self)
            }
            if buffer[lineStart..<contentEnd].allSatisfy({ $0 == 32 || $0 == 9 }) {
                anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber, code: .blank,
                                         message: "blank line skipped", raw: raw()))
                continue
            }
            var scanner = LineScanner(bytes: buffer, lineStart: lineStart, start: lineStart, end: contentEnd)
            var notes = LineNotes()
            let sampleCountBefore = sampleValues.count
            do throws(LineProblem) {
                let prefix = try parser.readPrefix(&scanner)
                let payload = try parser.readPayload(&scanner, name: prefix.name, samples: &sampleValues, notes: &notes)
                let clientText = HubLineParser.text(prefix.client, scanner, notes: &notes)
                let client: Int
                if let known = clientIndex[clientText] { client = known } else {
                    client = clients.count
                    clientIndex[clientText] = client
                    clients.append(clientText)
                }
                messages.append(HubMessage(line: lineNumber, rts: prefix.rts, sts: prefix.sts, ts: prefix.ts,
                                           name: prefix.name, client: client, payload: payload))
                if !MessageName.known.contains(prefix.name), unknownNames.insert(prefix.name).inserted {
                    anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber,
                                             code: .unknown,
                                             message: "unknown message type \(prefix.name): counted in `messages`, payload not parsed",
                                             raw: raw()))
                }
                if notes.signedBytes > 0 {
                    anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber,
                                             code: .signed,
                                             message: "\(notes.signedBytes) negative Java byte value(s): 256 added",
                                             raw: raw()))
                }
                if notes.latin1 {
                    anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber,
                                             code: .encoding, message: "text is not valid UTF-8: read as Latin-1",
                                             raw: raw()))
                }
            } catch {
                sampleValues.removeSubrange(sampleCountBefore...)
                if isFinalFragment {
                    anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber, location: error.column.map(String.init),
                                             code: .trunc,
                                             message: "incomplete final line (\(contentEnd - lineStart) bytes, no newline) dropped: \(error.message)",
                                             raw: raw()))
                } else if skipBadLines {
                    anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber, location: error.column.map(String.init),
                                             code: error.anomalyCode, message: error.message, raw: raw()))
                } else {
                    throw .badLine(file: sourceFile, line: lineNumber, problem: error)
                }
            }
        }
        lineCount = lineNumber
        channelCount = parser.channelCount
    }
}
