import Foundation
import Tables

/// Reads a log's lines in order (``ParsedLog/parse(_:sourceFile:skipBadLines:)``): leading blank lines, the
/// header up to the first empty line or the first line that starts like an event, then the events, each kept in
/// ``LogEvents`` as it is read, with the checks that need only it and the event before it.
struct LineReader {
    let sourceFile: String
    let skipBadLines: Bool
    /// The file's line count (a blank last line is not reported).
    let lineCount: Int
    let encoding: LogEncoding
    var anomalies: AnomalyRecorder

    private enum Stage { case leadingBlanks, header, beforeEvents, events }
    private var stage = Stage.leadingBlanks
    private var headerLines: [HeaderLine] = []
    private var header: LogHeader?
    private var program: LogProgram?
    private var grammar: EventNameGrammar?
    private var events: LogEvents?
    /// Anomalies of events put in place later (``ParsedLog/checkEvents(_:)``), by event index.
    private var checks = EventChecks()
    /// For the variant (spec §2): an id below 100 written with fewer than 3 digits; a timestamp without 6
    /// decimals (iPad).
    private var unpaddedIDs = false, shortDecimals = false

    init(sourceFile: String, skipBadLines: Bool, lineCount: Int, encoding: LogEncoding, anomalies: AnomalyRecorder) {
        self.sourceFile = sourceFile
        self.skipBadLines = skipBadLines
        self.lineCount = lineCount
        self.encoding = encoding
        self.anomalies = anomalies
    }

    /// Reads line `number` from its bytes; returns whether to go on. An event line of the plain form
    /// (``FastEventLine``) of a UTF-8 file is read from its bytes; any other line as text.
    mutating func read(_ bytes: UnsafeRawBufferPointer, number: Int) throws(InteractLogError) -> Bool {
        if stage == .events, encoding == .utf8, let program, let event = FastEventLine(bytes, program: program) {
            add(line: number, id: event.id, value: event.value, x: event.x, y: event.y,
                idText: event.field(0, of: bytes), timestamp: event.field(1, of: bytes), name: event.name(of: bytes))
            return true
        }
        return try read(Substring(LogText.decode(bytes, encoding)), number: number)
    }

    private mutating func lineError(_ line: Int, _ code: AnomalyCode, _ message: String,
                                    raw: Substring) throws(InteractLogError) {
        guard skipBadLines else { throw .badLine(file: sourceFile, line: line, code: code.code, text: message) }
        anomalies.add(code, line: line, message, raw: String(raw))
    }

    /// Reads line `number`; returns whether to go on.
    mutating func read(_ line: Substring, number: Int) throws(InteractLogError) -> Bool {
        switch stage {
        case .leadingBlanks:
            if line.isBlank { return true }
            let firstLabel = HeaderLine.parse(line, line: number)?.label
            guard firstLabel == "Name" || firstLabel == "App Version" else {
                throw .notInteractLog(file: sourceFile, line: number, found: String(line))
            }
            stage = .header
            return try read(line, number: number)
        case .header:
            if line.isBlank {
                endHeader()
                return true
            }
            if ParsedLog.startsLikeEvent(line) {
                endHeader()
                return try read(line, number: number)
            }
            if let parsed = HeaderLine.parse(line, line: number) {
                headerLines.append(parsed)
            } else {
                try lineError(number, .headerLine, "expected 'Label:value' in the header, found \(LogText.quoted(line))",
                              raw: line)
            }
            return true
        case .beforeEvents, .events:
            if line.isBlank {
                if number < lineCount || !line.isEmpty {
                    anomalies.add(.blankLine, line: number, "empty line among the events (skipped)")
                }
                return true
            }
            if stage == .beforeEvents {
                // Program: iPad if the first id is 0, or it has `App Version` or an iPad `<Phase> Files` label.
                choose(program: Int(line.prefix { $0 != ";" }))
            }
            guard let program else { return true }
            do {
                add(try EventLine.parse(line, line: number, program: program))
            } catch {
                try lineError(number, error.code, error.text, raw: line)
            }
            return true
        }
    }

    private mutating func endHeader() {
        header = LogHeader.build(headerLines, anomalies: &anomalies)
        headerLines = []
        stage = .beforeEvents
    }

    /// Settles the program at the first event line (or at the end, `firstID` `nil`), and so the grammar.
    private mutating func choose(program firstID: Int?) {
        guard let header else { return }
        let chosen: LogProgram = firstID == 0 || header.appVersion != nil || header.hasOtherPhaseFiles ? .ipad : .java
        program = chosen
        grammar = EventNameGrammar(header: header)
        events = LogEvents(program: chosen, capacity: max(0, lineCount))
        stage = .events
    }

    /// Keeps an event parsed from its text.
    private mutating func add(_ line: EventLine) {
        var idText = String(line.idText), stamp = String(line.timestampText), name = String(line.name)
        idText.withUTF8 { idText in
            stamp.withUTF8 { stamp in
                name.withUTF8 { name in
                    add(line: line.line, id: line.id,
                        value: program == .ipad ? (line.milliseconds ?? 0).bitPattern : UInt64(bitPattern: line.nanoseconds ?? 0),
                        x: line.x, y: line.y, idText: UnsafeRawBufferPointer(idText), timestamp: UnsafeRawBufferPointer(stamp),
                        name: UnsafeRawBufferPointer(name))
                }
            }
        }
    }

    /// Keeps an event, with the checks that need only it and the one before: id order and gaps, unknown names,
    /// key syntax, points outside the pad. The texts are UTF-8 (ids and timestamps that parsed are ASCII).
    private mutating func add(line: Int, id: Int, value: UInt64, x: Double, y: Double, idText: UnsafeRawBufferPointer,
                              timestamp: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer) {
        guard var events, let grammar, let header, let program else { return }
        self.events = nil  // one reference, so that adding does not copy
        let index = events.count
        events.append(line: line, id: id, value: value, x: x, y: y, timestamp: timestamp, name: name, grammar: grammar)
        func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }
        if index > 0 {
            let previousID = events.id(at: index - 1)
            if id <= previousID {
                checks.beforeTimes.append((index, anomaly(.idOrder, line, "expected an id above \(previousID), found \(id)",
                                                          raw: text(idText))))
            } else if id > previousID + 1
                        && !(program == .ipad && events.kind(at: index - 1) == .buttonReleased && id == previousID + 2) {
                events.insert(.idGap, at: index)
                checks.beforeTimes.append((index, anomaly(.idGap, line, "expected id \(previousID + 1), found \(id)",
                                                          raw: text(idText))))
            }
        }
        switch events.kind(at: index) {
        case .other:
            checks.afterTimes.append((index, anomaly(.unknownEvent, line,
                                                     "unknown event \(LogText.quoted(text(name))) (kept as type 'other')",
                                                     raw: text(name))))
        case .keyPressed(let key), .keyReleased(let key):
            if !key.wellFormed {
                checks.afterTimes.append((index, anomaly(.keySyntax, line,
                                                         "expected Key…_<code>(<descriptor>:<location>), found \(LogText.quoted(text(name)))",
                                                         raw: text(name))))
            }
        case .buttonDown, .buttonReleased:
            if let width = header.padWidth, let height = header.padHeight, x < 0 || y < 0 || x > width || y > height {
                events.insert(.outsidePad, at: index)
            }
        default: break
        }
        if program == .ipad {
            if !unpaddedIDs, id < 100, idText.count < 3 { unpaddedIDs = true }
            if !shortDecimals {
                if let dot = timestamp.firstIndex(of: UInt8(ascii: ".")) {
                    shortDecimals = timestamp.count - dot - 1 != 6
                } else {
                    shortDecimals = true
                }
            }
        }
        self.events = events
    }

    private func anomaly(_ code: AnomalyCode, _ line: Int, _ message: String, raw: String?) -> Anomaly {
        Anomaly(sourceFile: sourceFile, line: line, code: code, message: message, raw: raw)
    }

    /// The parsed log, after the checks that need every event (variant, timestamps).
    mutating func finish() throws(InteractLogError) -> ParsedLog {
        switch stage {
        case .leadingBlanks: throw .empty(file: sourceFile)
        case .header: endHeader(); choose(program: nil)
        case .beforeEvents: choose(program: nil)
        case .events: break
        }
        guard let header, let program, var events else { throw .empty(file: sourceFile) }
        self.events = nil
        events.finishAdding()
        if events.isEmpty {
            anomalies.add(.noEvents, "the log has a header but no event lines")
        }
        let variant = LogVariant.detect(program: program, header: header, events: events, unpaddedIDs: unpaddedIDs,
                                        shortDecimals: shortDecimals, anomalies: &anomalies)
        var log = ParsedLog(sourceFile: sourceFile, encoding: .utf8, lineEnding: .none, header: header,
                            program: program, variant: variant, events: events, timeOrigin: nil, anomalies: anomalies)
        log.normaliseTimestamps()
        log.checkEvents(checks)
        return log
    }
}

/// Anomalies of events found while reading, put in order once the times are known: per event, those before the
/// `W_TS_BACKWARDS` check (id order and gaps) and those after it (unknown names, key syntax).
struct EventChecks {
    var beforeTimes: [(Int, Anomaly)] = []
    var afterTimes: [(Int, Anomaly)] = []
}

/// An event line of the plain form `digits;digits[.digits];number;number;name` (an optional `-` before each
/// number), read from its bytes without making its text: where it applies it gives exactly what ``EventLine``'s
/// parse of the text gives (integers within 18 digits; decimals as `strtod` reads them, as `Double(_:)` does),
/// and any other line is left to that parse.
struct FastEventLine {
    var id: Int
    /// The timestamp's bits: Java ns, iPad ms as a double.
    var value: UInt64
    var x: Double
    var y: Double
    /// Where the first four fields end (the `;` after each).
    var ends: (Int, Int, Int, Int)

    init?(_ bytes: UnsafeRawBufferPointer, program: LogProgram) {
        var ends = (-1, -1, -1, -1)
        var found = 0
        for index in bytes.indices where bytes[index] == 0x3B {
            switch found {
            case 0: ends.0 = index
            case 1: ends.1 = index
            case 2: ends.2 = index
            default: ends.3 = index
            }
            found += 1
            if found == 4 { break }
        }
        guard found == 4 else { return nil }
        self.ends = ends
        func field(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[start..<end]) }
        guard let id = Self.integer(field(0, ends.0)) else { return nil }
        self.id = id
        switch program {
        case .java:
            guard let ns = Self.integer(field(ends.0 + 1, ends.1)) else { return nil }
            value = UInt64(bitPattern: Int64(ns))
        case .ipad:
            guard let ms = Self.decimal(field(ends.0 + 1, ends.1)) else { return nil }
            value = ms.bitPattern
        }
        guard let x = Self.decimal(field(ends.1 + 1, ends.2)), let y = Self.decimal(field(ends.2 + 1, ends.3)) else { return nil }
        self.x = x
        self.y = y
    }

    /// Field `index` (0–3) of the line.
    func field(_ index: Int, of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let range = switch index {
        case 0: 0..<ends.0
        case 1: (ends.0 + 1)..<ends.1
        case 2: (ends.1 + 1)..<ends.2
        default: (ends.2 + 1)..<ends.3
        }
        return UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    /// The fifth field without the spaces and tabs around it.
    func name(of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = ends.3 + 1, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// `-?[0-9]{1,18}`.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        let digits = bytes.count - index
        guard digits >= 1, digits <= 18 else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// `-?[0-9]+(\.[0-9]+)?`, at most 40 bytes: an integer of at most 15 digits exactly, any other as `strtod` reads it.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard !bytes.isEmpty, bytes.count <= 40 else { return nil }
        var index = bytes[0] == UInt8(ascii: "-") ? 1 : 0
        let integerStart = index
        while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0 else { return nil }
        if index == bytes.count, integerDigits <= 15, let integer = integer(bytes) {
            // Exact in a double; -0 stays negative as the parse of the text has it.
            return bytes[0] == UInt8(ascii: "-") ? -Double(-integer) : Double(integer)
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return nil }
        index += 1
        let fractionStart = index
        while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
        guard index == bytes.count, index > fractionStart else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[bytes.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }
}
