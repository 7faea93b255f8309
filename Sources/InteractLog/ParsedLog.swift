import Foundation
import Tables

/// A log read into its header and events, with the checks of spec §7.2 applied (no derived tables yet).
public struct ParsedLog: Sendable {
    /// The input, as given on the command line.
    public var sourceFile: String
    public var encoding: LogEncoding
    public var lineEnding: LineEnding
    public var header: LogHeader
    public var program: LogProgram
    /// A variant code of spec §2 (`java-2.2`, `ipad-1.1`, …).
    public var variant: String
    /// The event lines that parsed, in file order.
    public var events: [LogEvent]
    /// Seconds since the first event line, per event; all `nil` when the timestamps are implausible.
    public var times: [Double?]
    public var anomalies: AnomalyRecorder

    /// Reads a log. Without `skipBadLines` the first line error throws; with it, the line becomes an
    /// `anomalies` row and is left out. Empty, binary and non-InteractLog files always throw.
    public static func parse(_ data: Data, sourceFile: String, skipBadLines: Bool) throws(InteractLogError) -> ParsedLog {
        let text = try LogText.decode(data, sourceFile: sourceFile)
        var anomalies = AnomalyRecorder(sourceFile: sourceFile)
        if text.hadBOM { anomalies.add(.bom, "byte order mark stripped") }
        if text.encoding == .windows1252 {
            anomalies.add(.encodingFallback, "not valid UTF-8; decoded as Windows-1252")
        }
        if text.lineEnding == .mixed { anomalies.add(.mixedEOL, "both LF and CRLF line endings") }
        if text.missingFinalNewline {
            anomalies.add(.noFinalNewline, line: text.lines.count, "the last line has no line break (parsed anyway)")
        }
        func lineError(_ line: Int, _ code: AnomalyCode, _ message: String, raw: Substring) throws(InteractLogError) {
            guard skipBadLines else { throw .badLine(file: sourceFile, line: line, code: code.code, text: message) }
            anomalies.add(code, line: line, message, raw: String(raw))
        }

        // Header: up to the first empty line or the first line that starts like an event.
        let lines = text.lines
        var index = 0
        while index < lines.count, lines[index].isBlank { index += 1 }
        guard index < lines.count else { throw .empty(file: sourceFile) }
        let firstLabel = HeaderLine.parse(lines[index], line: index + 1)?.label
        guard firstLabel == "Name" || firstLabel == "App Version" else {
            throw .notInteractLog(file: sourceFile, line: index + 1, found: String(lines[index]))
        }
        var headerLines: [HeaderLine] = []
        while index < lines.count {
            let line = lines[index]
            if line.isBlank { index += 1; break }
            if startsLikeEvent(line) { break }
            if let parsed = HeaderLine.parse(line, line: index + 1) {
                headerLines.append(parsed)
            } else {
                try lineError(index + 1, .headerLine, "expected 'Label:value' in the header, found \(LogText.quoted(line))", raw: line)
            }
            index += 1
        }
        let header = LogHeader.build(headerLines, anomalies: &anomalies)

        // Program: iPad if the first id is 0, or it has `App Version` or an iPad `<Phase> Files` label.
        let firstEventLine = lines[index...].first { !$0.isBlank }
        let firstID = firstEventLine.flatMap { line in Int(line.prefix { $0 != ";" }) }
        let program: LogProgram = firstID == 0 || header.appVersion != nil || header.hasOtherPhaseFiles ? .ipad : .java

        // Events.
        let grammar = EventNameGrammar(header: header)
        var events: [LogEvent] = []
        events.reserveCapacity(lines.count - index)
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            if line.isBlank {
                if index < lines.count || !line.isEmpty {
                    anomalies.add(.blankLine, line: number, "empty line among the events (skipped)")
                }
                continue
            }
            do {
                events.append(try LogEvent.parse(line, line: number, program: program, grammar: grammar))
            } catch {
                try lineError(number, error.code, error.text, raw: line)
            }
        }
        if events.isEmpty {
            anomalies.add(.noEvents, "the log has a header but no event lines")
        }
        let variant = LogVariant.detect(program: program, header: header, events: events, anomalies: &anomalies)
        var log = ParsedLog(sourceFile: sourceFile, encoding: text.encoding, lineEnding: text.lineEnding,
                            header: header, program: program, variant: variant, events: events, times: [],
                            anomalies: anomalies)
        log.normaliseTimestamps()
        log.checkEvents()
        return log
    }

    /// Whether a line matches `^[0-9]+;`.
    static func startsLikeEvent<S: StringProtocol>(_ line: S) -> Bool {
        var digits = 0
        for byte in line.utf8 {
            if byte >= 0x30 && byte <= 0x39 { digits += 1; continue }
            return digits > 0 && byte == 0x3B
        }
        return false
    }

    /// iPad: seconds of pre-release builds to ms; implausible values (not 2023–2030) leave `t_s` NA. Then `t_s`.
    mutating func normaliseTimestamps() {
        times = Array(repeating: nil, count: events.count)
        guard let first = events.first else { return }
        switch program {
        case .java:
            guard let origin = first.nanoseconds else { return }
            for (index, event) in events.enumerated() {
                if let ns = event.nanoseconds { times[index] = Double(ns &- origin) / 1e9 }
            }
        case .ipad:
            guard let value = first.milliseconds else { return }
            let plausible = 1_672_531_200_000.0..<1_893_456_000_000.0  // 2023-01-01 to 2030-01-01 in ms
            if value < 1e11 && value >= 1e8 {
                for index in events.indices { events[index].milliseconds = events[index].milliseconds.map { $0 * 1000 } }
                anomalies.add(.prerelease, "timestamps in epoch seconds (iPad build before 2023-07-10); multiplied by 1000")
            }
            if let bad = events.first(where: { !plausible.contains($0.milliseconds ?? 0) }) {
                anomalies.add(.tsImplausible, line: bad.line,
                              "expected epoch ms or s between 2023 and 2030, found \(bad.timestampText); t_s is NA for this file",
                              raw: String(bad.timestampText))
                return
            }
            guard let origin = events[0].milliseconds else { return }
            for (index, event) in events.enumerated() {
                if let ms = event.milliseconds { times[index] = (ms - origin) / 1000 }
            }
        }
    }

    /// Id order and gaps, backwards timestamps, unknown events, key syntax, points outside the pad.
    mutating func checkEvents() {
        for index in events.indices {
            let event = events[index]
            if index > 0 {
                let previous = events[index - 1]
                if event.id <= previous.id {
                    anomalies.add(.idOrder, line: event.line, "expected an id above \(previous.id), found \(event.id)",
                                  raw: String(event.idText))
                } else if event.id > previous.id + 1
                            && !(program == .ipad && previous.kind == .buttonReleased && event.id == previous.id + 2) {
                    events[index].flags.append("id_gap")
                    anomalies.add(.idGap, line: event.line, "expected id \(previous.id + 1), found \(event.id)",
                                  raw: String(event.idText))
                }
                if let now = times[index], let before = times[index - 1], now < before {
                    events[index].flags.append("ts_backwards")
                    anomalies.add(.tsBackwards, line: event.line, "the timestamp decreases by \(before - now) s",
                                  raw: String(event.timestampText))
                }
            }
            switch event.kind {
            case .other:
                anomalies.add(.unknownEvent, line: event.line, "unknown event \(LogText.quoted(event.name)) (kept as type 'other')",
                              raw: String(event.name))
            case .keyPressed(let key), .keyReleased(let key):
                if !key.wellFormed {
                    anomalies.add(.keySyntax, line: event.line,
                                  "expected Key…_<code>(<descriptor>:<location>), found \(LogText.quoted(event.name))",
                                  raw: String(event.name))
                }
            case .buttonDown, .buttonReleased:
                if let width = header.padWidth, let height = header.padHeight,
                   event.x < 0 || event.y < 0 || event.x > width || event.y > height {
                    events[index].flags.append("outside_pad")
                }
            default: break
            }
        }
    }

    /// Milliseconds between two events from the raw timestamps (Java ns ÷ 1e6, iPad ms).
    public func milliseconds(from start: Int, to end: Int) -> Double? {
        switch program {
        case .java:
            guard let a = events[start].nanoseconds, let b = events[end].nanoseconds else { return nil }
            return Double(b &- a) / 1e6
        case .ipad:
            guard times[start] != nil, let a = events[start].milliseconds, let b = events[end].milliseconds else { return nil }
            return b - a
        }
    }
}
