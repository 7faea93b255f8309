import Tables

/// One event of a log (spec §1.2), as ``LogEvents`` gives it.
public struct LogEvent: Sendable {
    /// The 1-based line number.
    public var line: Int
    public var id: Int
    /// Java: `System.nanoTime()` (arbitrary origin); `nil` for iPad logs.
    public var nanoseconds: Int64?
    /// iPad: Unix epoch milliseconds (seconds of pre-release builds already × 1000); `nil` for Java logs.
    public var milliseconds: Double?
    public var x: Double
    public var y: Double
    /// The event field, trimmed.
    public var name: Substring
    public var kind: EventKind
    var flagBits: EventFlags
    var stamp: StampText

    /// The timestamp as written.
    public var timestampText: String { stamp.text }
    /// `id_gap`, `ts_backwards`, `outside_pad`, `duplicate_release`, `duplicate_on`, in that order.
    public var flags: [String] { flagBits.names }
}

/// One event line as parsed, its texts still in the line (`id;timestamp;x;y;event`, spec §1.2).
struct EventLine {
    /// The 1-based line number.
    var line: Int
    var id: Int
    /// The id as written (`007` or `7`).
    var idText: Substring
    /// The timestamp as written.
    var timestampText: Substring
    var nanoseconds: Int64?
    var milliseconds: Double?
    var x: Double
    var y: Double
    /// The event field, trimmed.
    var name: Substring
}

/// Which program wrote a log.
public enum LogProgram: String, CaseIterable, Sendable {
    case java, ipad

    /// The unit of coordinates: pixels (Java) or points (iPad).
    public var coordinateUnit: String { self == .java ? "px" : "pt" }
}

/// A problem with one event line: its `E_` code and what was expected.
struct EventLineError: Error {
    var code: AnomalyCode
    var text: String
}

extension EventLine {
    /// Parses an event line: at most 5 `;`-separated fields, the fifth taking the rest of the line.
    static func parse(_ text: Substring, line: Int, program: LogProgram) throws(EventLineError) -> EventLine {
        // Split on the UTF-8 view: `;` is ASCII, so byte positions are valid string indices.
        var fields: [Substring] = []
        fields.reserveCapacity(5)
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex, fields.count < 4 {
            if utf8[index] == 0x3B {
                fields.append(text[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        fields.append(text[start...])
        guard fields.count == 5 else {
            throw EventLineError(code: .fields, text: "expected 5 ';'-separated fields, found \(fields.count)")
        }
        guard let id = Int(fields[0]) else {
            throw EventLineError(code: .id, text: "expected an integer id, found \(LogText.quoted(fields[0]))")
        }
        var nanoseconds: Int64?
        var milliseconds: Double?
        switch program {
        case .java:
            guard let value = Int64(fields[1]) else {
                throw EventLineError(code: .ts, text: "expected an integer nanosecond timestamp, found \(LogText.quoted(fields[1]))")
            }
            nanoseconds = value
        case .ipad:
            guard let value = Double(fields[1]), value.isFinite else {
                throw EventLineError(code: .ts, text: "expected a numeric timestamp, found \(LogText.quoted(fields[1]))")
            }
            milliseconds = value
        }
        guard let x = Double(fields[2]), let y = Double(fields[3]), x.isFinite, y.isFinite else {
            throw EventLineError(code: .xy, text: "expected numeric x;y, found \(LogText.quoted(fields[2] + ";" + fields[3]))")
        }
        let name = fields[4].trimmingSpaces
        return EventLine(line: line, id: id, idText: fields[0], timestampText: fields[1], nanoseconds: nanoseconds,
                         milliseconds: milliseconds, x: x, y: y, name: name)
    }
}
