import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
        var reader = SaveFileReader(sourceFile: sourceFile, skipBadLines: skipBadLines)
        do {
            try data.withUnsafeBytes { try reader.feed($0) }
        } catch let error as MindAffectError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return try reader.finish()
    }

    /// Parses a save file read in chunks (``InputSource/stream(chunkSize:_:)``): the file is never held whole,
    /// only the line a chunk ends in.
    public static func parse(_ input: InputSource, skipBadLines: Bool = false) throws -> SaveFile {
        var reader = SaveFileReader(sourceFile: input.path, skipBadLines: skipBadLines)
        try input.stream(chunkSize: 1 << 20) { try reader.feed($0) }
        return try reader.finish()
    }
}

/// Reads a save file's lines as its bytes arrive (``SaveFile/parse(_:sourceFile:skipBadLines:)``): each chunk's
/// whole lines at once, the line it ends in kept for the next one, the last line (with or without a newline) at
/// ``finish()``.
struct SaveFileReader {
    private var file: SaveFile
    private let skipBadLines: Bool
    private var parser = HubLineParser()
    private var clientIndex: [String: Int] = [:]
    private var unknownNames: Set<String> = []
    private var lineNumber = 0
    /// The bytes of a line not yet ended.
    private var carry: [UInt8] = []
    /// The lines to read, with the 0 byte after them that stops the C number parsers.
    private var buffer: [UInt8] = []

    init(sourceFile: String, skipBadLines: Bool) {
        file = SaveFile(sourceFile: sourceFile, messages: [], clients: [], sampleValues: [], channelCount: nil,
                        lineCount: 0, anomalies: [])
        self.skipBadLines = skipBadLines
    }

    /// Reads the lines that `chunk` completes.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(MindAffectError) {
        guard let lastNewline = chunk.lastIndex(of: 10) else {
            carry.append(contentsOf: chunk)
            return
        }
        let complete = lastNewline + 1
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(carry.count + complete + 1)
        buffer.append(contentsOf: carry)
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<complete]))
        buffer.append(0)
        carry.removeAll(keepingCapacity: true)
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[complete...]))
        try readLines(contentCount: buffer.count - 1)
    }

    /// Reads the last line (if the file does not end with a newline) and checks the file as a whole.
    mutating func finish() throws(MindAffectError) -> SaveFile {
        if !carry.isEmpty {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: carry)
            buffer.append(0)
            carry = []
            try readLines(contentCount: buffer.count - 1)
        }
        buffer = []
        file.lineCount = lineNumber
        file.channelCount = parser.channelCount
        let sourceFile = file.sourceFile
        if file.messages.isEmpty && !file.anomalies.contains(where: { $0.code.hasPrefix("E_") }) {
            throw .noData(file: sourceFile, reason: "the file holds no message (empty or whitespace only)")
        }
        guard file.messages.contains(where: { $0.name == MessageName.dataPacket }) else {
            throw .noData(file: sourceFile, reason: "expected at least one DATAPACKET line, found none")
        }
        return file
    }

    /// Reads the lines in `buffer[..<contentCount]`: whole lines, or at the end of the file its last line.
    private mutating func readLines(contentCount: Int) throws(MindAffectError) {
        // Read from a reference of its own: reading a line changes the rest of the reader.
        let buffer = self.buffer
        self.buffer = []
        defer { self.buffer = buffer }
        try buffer.withUnsafeBufferPointer { (buffer) throws(MindAffectError) in
            var lineStart = 0
            while lineStart < contentCount {
                var lineEnd = lineStart
                if let found = memchr(buffer.baseAddress! + lineStart, 10, contentCount - lineStart) {
                    lineEnd = UnsafeRawPointer(buffer.baseAddress!).distance(to: UnsafeRawPointer(found))
                } else {
                    lineEnd = contentCount
                }
                try readLine(buffer, lineStart: lineStart, lineEnd: lineEnd, isFinalFragment: lineEnd == contentCount)
                lineStart = lineEnd + 1
            }
        }
    }

    private mutating func readLine(_ buffer: UnsafeBufferPointer<UInt8>, lineStart: Int, lineEnd: Int,
                                   isFinalFragment: Bool) throws(MindAffectError) {
        let sourceFile = file.sourceFile
        lineNumber += 1
        var contentEnd = lineEnd
        if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
        // The whole line: the anomalies table escapes and cuts it (conventions §3.2).
        func raw() -> String {
            String(decoding: UnsafeBufferPointer(rebasing: buffer[lineStart..<contentEnd]), as: UTF8.self)
        }
        if buffer[lineStart..<contentEnd].allSatisfy({ $0 == 32 || $0 == 9 }) {
            file.anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber, code: .blank,
                                          message: "blank line skipped", raw: raw()))
            return
        }
        var scanner = LineScanner(bytes: buffer, lineStart: lineStart, start: lineStart, end: contentEnd)
        var notes = LineNotes()
        let sampleCountBefore = file.sampleValues.count
        do throws(LineProblem) {
            let prefix = try parser.readPrefix(&scanner)
            let payload = try parser.readPayload(&scanner, name: prefix.name, samples: &file.sampleValues, notes: &notes)
            let clientText = HubLineParser.text(prefix.client, scanner, notes: &notes)
            let client: Int
            if let known = clientIndex[clientText] { client = known } else {
                client = file.clients.count
                clientIndex[clientText] = client
                file.clients.append(clientText)
            }
            file.messages.append(HubMessage(line: lineNumber, rts: prefix.rts, sts: prefix.sts, ts: prefix.ts,
                                            name: prefix.name, client: client, payload: payload))
            if !MessageName.known.contains(prefix.name), unknownNames.insert(prefix.name).inserted {
                file.anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber,
                                              code: .unknown,
                                              message: "unknown message type \(prefix.name): counted in `messages`, payload not parsed",
                                              raw: raw()))
            }
            if notes.signedBytes > 0 {
                file.anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber,
                                              code: .signed,
                                              message: "\(notes.signedBytes) negative Java byte value(s): 256 added",
                                              raw: raw()))
            }
            if notes.latin1 {
                file.anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber,
                                              code: .encoding, message: "text is not valid UTF-8: read as Latin-1",
                                              raw: raw()))
            }
        } catch {
            file.sampleValues.removeSubrange(sampleCountBefore...)
            if isFinalFragment {
                file.anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber, location: error.column.map(String.init),
                                              code: .trunc,
                                              message: "incomplete final line (\(contentEnd - lineStart) bytes, no newline) dropped: \(error.message)",
                                              raw: raw()))
            } else if skipBadLines {
                file.anomalies.append(Anomaly(sourceFile: sourceFile, line: lineNumber, location: error.column.map(String.init),
                                              code: error.anomalyCode, message: error.message, raw: raw()))
            } else {
                throw .badLine(file: sourceFile, line: lineNumber, problem: error)
            }
        }
    }
}
