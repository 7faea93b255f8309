import Foundation

/// The events of a log, held compactly: a parsed line as numbers (about 41 bytes an event where the line as text
/// and its parsed fields took some 250), each distinct event name once, and the timestamp as written in a code
/// that gives its text back exactly. `events[i]` makes a ``LogEvent``; the accessors (``kind(at:)``,
/// ``line(at:)``, …) read one field without making the rest.
public struct LogEvents: RandomAccessCollection, Sendable {
    /// The program that wrote the log: Java timestamps are integer ns, iPad ones epoch ms.
    public let program: LogProgram
    private var storage: Storage

    /// The columns behind one reference (copied before a shared one is changed).
    private final class Storage: @unchecked Sendable {
        /// In one stored property, so that adding an event is one access to the object, not one per column
        /// (each access to a class's property is checked for exclusivity at run time).
        var columns = Columns()

        init() {}

        func copy() -> Storage {
            let copy = Storage()
            copy.columns = columns
            return copy
        }
    }

    /// One value per event in each array, and the lookups of adding.
    private struct Columns {
        /// 1-based line numbers; one beyond `Int32.max` is `Int32.min` here and its number in ``longLines``.
        var lines: [Int32] = []
        var longLines: [Int: Int] = [:]
        /// Ids; one outside `Int32` is `Int32.min` here and its value in ``longIDs``.
        var ids: [Int32] = []
        var longIDs: [Int: Int] = [:]
        /// Java: the ns timestamp's bits; iPad: the epoch value as written (before ×1000), as a double's bits.
        var raw: [UInt64] = []
        /// ``StampCode`` of each timestamp's text.
        var stampMeta: [UInt16] = []
        /// The digits of iPad timestamps (Java ones are the ns value's).
        var stampDigits: [UInt64] = []
        /// Timestamp texts that have no code, by event index.
        var stampTexts: [Int: String] = [:]
        var nameIndices: [UInt32] = []
        var flagBits: [UInt8] = []
        var xs: [Double] = []
        var ys: [Double] = []
        /// Each distinct event name (by its bytes) once.
        var names: [EventName] = []
        /// Name lookup while lines are added; emptied by ``LogEvents/finishAdding()``.
        var nameIndex: [NameKey: UInt32] = [:]
        /// The names looked up last, with their bytes, tried before ``nameIndex``: a log repeats a few names
        /// (`ButtonDown`, `ButtonReleased`) line after line.
        var recentNames: [(bytes: [UInt8], index: UInt32)] = []

        /// Adds an event (see ``LogEvents/append(line:id:value:x:y:timestamp:name:grammar:)``).
        mutating func append(line: Int, id: Int, value: UInt64, x: Double, y: Double, timestamp: UnsafeRawBufferPointer,
                             name: UnsafeRawBufferPointer, program: LogProgram, grammar: EventNameGrammar) {
            let index = lines.count
            if let narrow = Int32(exactly: line), narrow != .min {
                lines.append(narrow)
            } else {
                lines.append(.min)
                longLines[index] = line
            }
            if let narrow = Int32(exactly: id), narrow != .min {
                ids.append(narrow)
            } else {
                ids.append(.min)
                longIDs[index] = id
            }
            raw.append(value)
            if let (digits, meta) = StampCode.encode(timestamp) {
                stampMeta.append(meta)
                if program == .ipad { stampDigits.append(digits) }
            } else {
                stampMeta.append(0)
                if program == .ipad { stampDigits.append(0) }
                stampTexts[index] = String(decoding: timestamp, as: UTF8.self)
            }
            nameIndices.append(nameIndex(of: name, grammar: grammar))
            flagBits.append(0)
            xs.append(x)
            ys.append(y)
        }

        /// The index of a name in ``names``, added (and classified by `grammar`) when new.
        private mutating func nameIndex(of name: UnsafeRawBufferPointer, grammar: EventNameGrammar) -> UInt32 {
            for recent in recentNames where recent.bytes.count == name.count {
                let same = recent.bytes.withUnsafeBytes { bytes in
                    bytes.isEmpty || memcmp(bytes.baseAddress!, name.baseAddress!, bytes.count) == 0
                }
                if same { return recent.index }
            }
            let found: UInt32
            if let known = nameIndex[NameKey(borrowing: name)] { found = known } else {
                found = UInt32(names.count)
                let text = String(decoding: name, as: UTF8.self)
                names.append(EventName(text: text, printable: LogText.printable(text), kind: grammar.classify(Substring(text))))
                nameIndex[NameKey(owning: name)] = found
            }
            if recentNames.count == 4 { recentNames.removeFirst() }
            recentNames.append((Array(name), found))
            return found
        }
    }

    /// Whether iPad values were written in seconds (builds before 2023-07-10): ``LogEvent/milliseconds`` is then
    /// the value × 1000.
    public internal(set) var secondsTimestamps = false

    init(program: LogProgram, capacity: Int) {
        self.program = program
        storage = Storage()
        storage.columns.lines.reserveCapacity(capacity)
        storage.columns.ids.reserveCapacity(capacity)
        storage.columns.raw.reserveCapacity(capacity)
        storage.columns.stampMeta.reserveCapacity(capacity)
        if program == .ipad { storage.columns.stampDigits.reserveCapacity(capacity) }
        storage.columns.nameIndices.reserveCapacity(capacity)
        storage.columns.flagBits.reserveCapacity(capacity)
        storage.columns.xs.reserveCapacity(capacity)
        storage.columns.ys.reserveCapacity(capacity)
    }

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.columns.lines.count }

    /// The event at `index`, made from its stored fields.
    public subscript(index: Int) -> LogEvent {
        let storage = storage
        let name = storage.columns.names[Int(storage.columns.nameIndices[index])]
        let raw = storage.columns.raw[index]
        let stamp: StampText = if !storage.columns.stampTexts.isEmpty, let text = storage.columns.stampTexts[index] { .text(text) } else {
            .code(digits: program == .ipad ? storage.columns.stampDigits[index] : Int64(bitPattern: raw).magnitude,
                  meta: storage.columns.stampMeta[index])
        }
        return LogEvent(line: line(at: index), id: id(at: index),
                        nanoseconds: program == .java ? Int64(bitPattern: raw) : nil,
                        milliseconds: program == .ipad ? milliseconds(raw: raw) : nil,
                        x: storage.columns.xs[index], y: storage.columns.ys[index], name: Substring(name.text), kind: name.kind,
                        flagBits: EventFlags(rawValue: storage.columns.flagBits[index]), stamp: stamp)
    }

    private func milliseconds(raw: UInt64) -> Double {
        secondsTimestamps ? Double(bitPattern: raw) * 1000 : Double(bitPattern: raw)
    }

    /// The kind of event `index`.
    public func kind(at index: Int) -> EventKind { storage.columns.names[Int(storage.columns.nameIndices[index])].kind }
    /// The distinct name of event `index` (its text, printable text and kind).
    public func name(at index: Int) -> EventName { storage.columns.names[Int(storage.columns.nameIndices[index])] }
    /// The 1-based line of event `index`.
    public func line(at index: Int) -> Int {
        let line = storage.columns.lines[index]
        return line == .min ? storage.columns.longLines[index] ?? Int(line) : Int(line)
    }
    /// The id of event `index`.
    public func id(at index: Int) -> Int {
        let id = storage.columns.ids[index]
        return id == .min ? storage.columns.longIDs[index] ?? Int(id) : Int(id)
    }
    public func x(at index: Int) -> Double { storage.columns.xs[index] }
    public func y(at index: Int) -> Double { storage.columns.ys[index] }
    /// Java: the ns timestamp of event `index`.
    public func nanoseconds(at index: Int) -> Int64? {
        program == .java ? Int64(bitPattern: storage.columns.raw[index]) : nil
    }
    /// iPad: the epoch ms of event `index` (×1000 for builds that wrote seconds).
    public func milliseconds(at index: Int) -> Double? {
        program == .ipad ? milliseconds(raw: storage.columns.raw[index]) : nil
    }
    /// The timestamp of event `index` as written.
    public func timestampText(at index: Int) -> String {
        if !storage.columns.stampTexts.isEmpty, let text = storage.columns.stampTexts[index] { return text }
        let digits = program == .ipad ? storage.columns.stampDigits[index] : Int64(bitPattern: storage.columns.raw[index]).magnitude
        return StampCode.decode(digits: digits, meta: storage.columns.stampMeta[index])
    }
    /// The longest timestamp text (``timestampText(at:)``) of these events, in UTF-8 bytes, without making the texts:
    /// a coded one is at most ``StampCode/longestText`` long, the others are kept as written.
    public var longestTimestampText: Int {
        let texts = storage.columns.stampTexts
        let coded = count > texts.count ? StampCode.longestText : 0
        return texts.values.reduce(coded) { Swift.max($0, $1.utf8.count) }
    }
    /// The flags of event `index`.
    public func flags(at index: Int) -> EventFlags { EventFlags(rawValue: storage.columns.flagBits[index]) }
    /// Every distinct event name, in order of first appearance.
    public var names: [EventName] { storage.columns.names }

    /// Adds a flag to event `index`.
    mutating func insert(_ flag: EventFlags, at index: Int) {
        unique()
        storage.columns.flagBits[index] |= flag.rawValue
    }

    /// Adds a parsed event line; its name is classified by `grammar` when it is new.
    mutating func append(_ event: EventLine, grammar: EventNameGrammar) {
        var stamp = String(event.timestampText), name = String(event.name)
        stamp.withUTF8 { stamp in
            name.withUTF8 { name in
                append(line: event.line, id: event.id, value: program == .java ? UInt64(bitPattern: event.nanoseconds ?? 0)
                       : (event.milliseconds ?? 0).bitPattern, x: event.x, y: event.y,
                       timestamp: UnsafeRawBufferPointer(stamp), name: UnsafeRawBufferPointer(name), grammar: grammar)
            }
        }
    }

    /// Adds an event from its fields: `value` is the timestamp's bits (Java ns, iPad ms as written), `timestamp`
    /// and `name` the UTF-8 of the timestamp as written and of the trimmed event field.
    mutating func append(line: Int, id: Int, value: UInt64, x: Double, y: Double, timestamp: UnsafeRawBufferPointer,
                         name: UnsafeRawBufferPointer, grammar: EventNameGrammar) {
        unique()
        storage.columns.append(line: line, id: id, value: value, x: x, y: y, timestamp: timestamp, name: name,
                               program: program, grammar: grammar)
    }

    /// Frees what only adding needed.
    mutating func finishAdding() {
        unique()
        storage.columns.nameIndex = [:]
        storage.columns.recentNames = []
    }
}

/// One distinct event name of a log.
public struct EventName: Sendable {
    /// The event field, trimmed.
    public let text: String
    /// The text with control characters as `<U+XXXX>` (the `event` column).
    public let printable: String
    public let kind: EventKind
}

/// A name looked up by its UTF-8 bytes: two spellings of one text (composed or not) are two names, as they are
/// two values of the `event` column. A key in the table owns its bytes; one made to look a name up borrows them.
struct NameKey: Hashable, @unchecked Sendable {
    private let owned: [UInt8]?
    private let borrowed: UnsafeRawBufferPointer

    init(owning bytes: UnsafeRawBufferPointer) {
        owned = Array(bytes)
        borrowed = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    init(borrowing bytes: UnsafeRawBufferPointer) {
        owned = nil
        borrowed = bytes
    }

    private func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let owned { owned.withUnsafeBytes(body) } else { body(borrowed) }
    }

    static func == (a: NameKey, b: NameKey) -> Bool {
        a.withBytes { x in
            b.withBytes { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }

    func hash(into hasher: inout Hasher) { withBytes { hasher.combine(bytes: $0) } }
}

/// The flags of an event, in the order the `flags` column lists them (the order they are found in).
public struct EventFlags: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let idGap = EventFlags(rawValue: 1)
    public static let tsBackwards = EventFlags(rawValue: 2)
    public static let outsidePad = EventFlags(rawValue: 4)
    public static let duplicateRelease = EventFlags(rawValue: 8)
    public static let duplicateOn = EventFlags(rawValue: 16)

    static let ordered: [(EventFlags, String)] = [(.idGap, "id_gap"), (.tsBackwards, "ts_backwards"),
                                                  (.outsidePad, "outside_pad"),
                                                  (.duplicateRelease, "duplicate_release"),
                                                  (.duplicateOn, "duplicate_on")]

    /// The flags' names.
    public var names: [String] { Self.ordered.compactMap { contains($0.0) ? $0.1 : nil } }

    /// The longest `flags` cell, in UTF-8 bytes: every flag's name, `;`-joined.
    public static let longestText = ordered.map(\.1).joined(separator: ";").utf8.count
}

/// A timestamp's text as written: a code (``StampCode``) or, for a spelling the code does not cover, the text.
enum StampText: Sendable {
    case code(digits: UInt64, meta: UInt16)
    case text(String)

    var text: String {
        switch self {
        case .code(let digits, let meta): StampCode.decode(digits: digits, meta: meta)
        case .text(let text): text
        }
    }
}

/// The text of a number written `[+-]digits[.digits]` with 1 to 19 digits in all, as its digits (a `UInt64`) and
/// 16 bits: the digit count (bits 0–4), the digits before the point (5–9), whether there is a point (10) and
/// the sign (11–12: none, `-`, `+`). Leading zeros, a trailing point and trailing zeros are kept.
enum StampCode {
    /// The longest text a code spells: 19 digits, a point and a sign.
    static let longestText = 21

    static func encode(_ text: UnsafeRawBufferPointer) -> (digits: UInt64, meta: UInt16)? {
        var digits: UInt64 = 0
        var count = 0
        var integerDigits = 0
        var hasPoint = false
        var sign: UInt16 = 0
        for (position, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where position == 0: sign = 1
            case UInt8(ascii: "+") where position == 0: sign = 2
            case UInt8(ascii: ".") where !hasPoint:
                hasPoint = true
                integerDigits = count
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard count < 19 else { return nil }
                digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
                count += 1
            default: return nil
            }
        }
        guard count > 0 else { return nil }
        if !hasPoint { integerDigits = count }
        return (digits, UInt16(count) | UInt16(integerDigits) << 5 | (hasPoint ? 1 << 10 : 0) | sign << 11)
    }

    static func decode(digits: UInt64, meta: UInt16) -> String {
        let count = Int(meta & 31), integerDigits = Int(meta >> 5 & 31)
        var text = ""
        switch meta >> 11 & 3 {
        case 1: text = "-"
        case 2: text = "+"
        default: break
        }
        let written = String(digits)
        let padded = String(repeating: "0", count: max(0, count - written.count)) + written
        if meta & (1 << 10) != 0 {
            let point = padded.index(padded.startIndex, offsetBy: integerDigits)
            text += String(padded[..<point])
            text += "."
            text += String(padded[point...])
        } else {
            text += padded
        }
        return text
    }
}

/// Seconds since the first event line (`t_s`), per event: all `nil` when the log's timestamps cannot be used.
public struct EventTimes: RandomAccessCollection, Sendable {
    let events: LogEvents
    /// The first event's ns (Java) or ms (iPad) as a double's or an integer's bits; `nil`: no times.
    let origin: UInt64?

    public var startIndex: Int { 0 }
    public var endIndex: Int { events.count }

    public subscript(index: Int) -> Double? {
        guard let origin else { return nil }
        switch events.program {
        case .java:
            guard let ns = events.nanoseconds(at: index) else { return nil }
            return Double(ns &- Int64(bitPattern: origin)) / 1e9
        case .ipad:
            guard let ms = events.milliseconds(at: index) else { return nil }
            return (ms - Double(bitPattern: origin)) / 1000
        }
    }
}
