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
    public var events: LogEvents
    /// The first event's timestamp bits (``EventTimes``), `nil` when the timestamps are implausible.
    var timeOrigin: UInt64?
    public var anomalies: AnomalyRecorder

    /// Seconds since the first event line, per event; all `nil` when the timestamps are implausible.
    public var times: EventTimes { EventTimes(events: events, origin: timeOrigin) }

    /// Seconds since the first event line of event `index` (``times``, without making the collection).
    public func time(at index: Int) -> Double? {
        guard let timeOrigin else { return nil }
        return EventTimes(events: events, origin: timeOrigin)[index]
    }

    /// Reads a log. Without `skipBadLines` the first line error throws; with it, the line becomes an
    /// `anomalies` row and is left out. Empty, binary and non-InteractLog files always throw.
    ///
    /// The file is read a line at a time from its bytes (each line decoded on its own), and each event is kept
    /// as numbers (``LogEvents``), so that memory stays a small multiple of the event count.
    public static func parse(_ data: Data, sourceFile: String, skipBadLines: Bool) throws(InteractLogError) -> ParsedLog {
        let text = try LogText.decode(data, sourceFile: sourceFile)
        var anomalies = AnomalyRecorder(sourceFile: sourceFile)
        if text.hadBOM { anomalies.add(.bom, "byte order mark stripped") }
        if text.encoding == .windows1252 {
            anomalies.add(.encodingFallback, "not valid UTF-8; decoded as Windows-1252")
        }
        if text.lineEnding == .mixed { anomalies.add(.mixedEOL, "both LF and CRLF line endings") }
        if text.missingFinalNewline {
            anomalies.add(.noFinalNewline, line: text.lineCount, "the last line has no line break (parsed anyway)")
        }
        var reader = LineReader(sourceFile: sourceFile, skipBadLines: skipBadLines, lineCount: text.lineCount,
                                encoding: text.encoding, anomalies: anomalies)
        do {
            try text.forEachLine { (number: Int, bytes: UnsafeRawBufferPointer) in try reader.read(bytes, number: number) }
        } catch let error as InteractLogError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        var log = try reader.finish()
        log.encoding = text.encoding
        log.lineEnding = text.lineEnding
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
        timeOrigin = nil
        guard !events.isEmpty else { return }
        switch program {
        case .java:
            timeOrigin = events.nanoseconds(at: 0).map { UInt64(bitPattern: $0) }
        case .ipad:
            guard let value = events.milliseconds(at: 0) else { return }
            let plausible = 1_672_531_200_000.0..<1_893_456_000_000.0  // 2023-01-01 to 2030-01-01 in ms
            if value < 1e11 && value >= 1e8 {
                events.secondsTimestamps = true
                anomalies.add(.prerelease, "timestamps in epoch seconds (iPad build before 2023-07-10); multiplied by 1000")
            }
            if let bad = events.indices.first(where: { !plausible.contains(events.milliseconds(at: $0) ?? 0) }) {
                let event = events[bad]
                anomalies.add(.tsImplausible, line: event.line,
                              "expected epoch ms or s between 2023 and 2030, found \(event.timestampText); t_s is NA for this file",
                              raw: event.timestampText)
                return
            }
            timeOrigin = events.milliseconds(at: 0).map(\.bitPattern)
        }
    }

    /// The checks of ``LineReader`` that need times (`W_TS_BACKWARDS`), with the anomalies it found per event
    /// put in place: per event, id order and gaps, then backwards timestamps, then unknown events and key syntax.
    mutating func checkEvents(_ found: EventChecks) {
        var before = found.beforeTimes.makeIterator(), after = found.afterTimes.makeIterator()
        var nextBefore = before.next(), nextAfter = after.next()
        let times = times
        for index in events.indices {
            while let (at, anomaly) = nextBefore, at == index {
                anomalies.append(contentsOf: [anomaly])
                nextBefore = before.next()
            }
            if index > 0, let now = times[index], let earlier = times[index - 1], now < earlier {
                events.insert(.tsBackwards, at: index)
                let event = events[index]
                anomalies.add(.tsBackwards, line: event.line, "the timestamp decreases by \(earlier - now) s",
                              raw: event.timestampText)
            }
            while let (at, anomaly) = nextAfter, at == index {
                anomalies.append(contentsOf: [anomaly])
                nextAfter = after.next()
            }
        }
    }

    /// Milliseconds between two events from the raw timestamps (Java ns ÷ 1e6, iPad ms).
    public func milliseconds(from start: Int, to end: Int) -> Double? {
        switch program {
        case .java:
            guard let a = events.nanoseconds(at: start), let b = events.nanoseconds(at: end) else { return nil }
            return Double(b &- a) / 1e6
        case .ipad:
            guard timeOrigin != nil, let a = events.milliseconds(at: start), let b = events.milliseconds(at: end) else { return nil }
            return b - a
        }
    }
}
