/// The events of a log, held compactly: a parsed line as numbers (about 45 bytes an event where the line as text
/// and its parsed fields took some 250), each distinct event name once, and the timestamp as written in a code
/// that gives its text back exactly. `events[i]` makes a ``LogEvent``; the accessors (``kind(at:)``,
/// ``line(at:)``, …) read one field without making the rest.
public struct LogEvents: RandomAccessCollection, Sendable {
    /// The program that wrote the log: Java timestamps are integer ns, iPad ones epoch ms.
    public let program: LogProgram
    private var storage: Storage

    /// The arrays, one value per event, behind one reference (copied before a shared one is changed).
    private final class Storage: @unchecked Sendable {
        /// 1-based line numbers; one beyond `Int32.max` is `Int32.min` here and its number in ``longLines``.
        var lines: [Int32] = []
        var longLines: [Int: Int] = [:]
        var ids: [Int] = []
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

        init() {}

        func copy() -> Storage {
            let copy = Storage()
            copy.lines = lines
            copy.longLines = longLines
            copy.ids = ids
            copy.raw = raw
            copy.stampMeta = stampMeta
            copy.stampDigits = stampDigits
            copy.stampTexts = stampTexts
            copy.nameIndices = nameIndices
            copy.flagBits = flagBits
            copy.xs = xs
            copy.ys = ys
            copy.names = names
            copy.nameIndex = nameIndex
            return copy
        }
    }

    /// Whether iPad values were written in seconds (builds before 2023-07-10): ``LogEvent/milliseconds`` is then
    /// the value × 1000.
    public internal(set) var secondsTimestamps = false

    init(program: LogProgram, capacity: Int) {
        self.program = program
        storage = Storage()
        storage.lines.reserveCapacity(capacity)
        storage.ids.reserveCapacity(capacity)
        storage.raw.reserveCapacity(capacity)
        storage.stampMeta.reserveCapacity(capacity)
        if program == .ipad { storage.stampDigits.reserveCapacity(capacity) }
        storage.nameIndices.reserveCapacity(capacity)
        storage.flagBits.reserveCapacity(capacity)
        storage.xs.reserveCapacity(capacity)
        storage.ys.reserveCapacity(capacity)
    }

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.lines.count }

    /// The event at `index`, made from its stored fields.
    public subscript(index: Int) -> LogEvent {
        let storage = storage
        let name = storage.names[Int(storage.nameIndices[index])]
        let raw = storage.raw[index]
        let stamp: StampText = if !storage.stampTexts.isEmpty, let text = storage.stampTexts[index] { .text(text) } else {
            .code(digits: program == .ipad ? storage.stampDigits[index] : Int64(bitPattern: raw).magnitude,
                  meta: storage.stampMeta[index])
        }
        return LogEvent(line: line(at: index), id: storage.ids[index],
                        nanoseconds: program == .java ? Int64(bitPattern: raw) : nil,
                        milliseconds: program == .ipad ? milliseconds(raw: raw) : nil,
                        x: storage.xs[index], y: storage.ys[index], name: Substring(name.text), kind: name.kind,
                        flagBits: EventFlags(rawValue: storage.flagBits[index]), stamp: stamp)
    }

    private func milliseconds(raw: UInt64) -> Double {
        secondsTimestamps ? Double(bitPattern: raw) * 1000 : Double(bitPattern: raw)
    }

    /// The kind of event `index`.
    public func kind(at index: Int) -> EventKind { storage.names[Int(storage.nameIndices[index])].kind }
    /// The distinct name of event `index` (its text, printable text and kind).
    public func name(at index: Int) -> EventName { storage.names[Int(storage.nameIndices[index])] }
    /// The 1-based line of event `index`.
    public func line(at index: Int) -> Int {
        let line = storage.lines[index]
        return line == .min ? storage.longLines[index] ?? Int(line) : Int(line)
    }
    /// The id of event `index`.
    public func id(at index: Int) -> Int { storage.ids[index] }
    public func x(at index: Int) -> Double { storage.xs[index] }
    public func y(at index: Int) -> Double { storage.ys[index] }
    /// Java: the ns timestamp of event `index`.
    public func nanoseconds(at index: Int) -> Int64? {
        program == .java ? Int64(bitPattern: storage.raw[index]) : nil
    }
    /// iPad: the epoch ms of event `index` (×1000 for builds that wrote seconds).
    public func milliseconds(at index: Int) -> Double? {
        program == .ipad ? milliseconds(raw: storage.raw[index]) : nil
    }
    /// The timestamp of event `index` as written.
    public func timestampText(at index: Int) -> String {
        if !storage.stampTexts.isEmpty, let text = storage.stampTexts[index] { return text }
        let digits = program == .ipad ? storage.stampDigits[index] : Int64(bitPattern: storage.raw[index]).magnitude
        return StampCode.decode(digits: digits, meta: storage.stampMeta[index])
    }
    /// The flags of event `index`.
    public func flags(at index: Int) -> EventFlags { EventFlags(rawValue: storage.flagBits[index]) }
    /// Every distinct event name, in order of first appearance.
    public var names: [EventName] { storage.names }

    /// Adds a flag to event `index`.
    mutating func insert(_ flag: EventFlags, at index: Int) {
        unique()
        storage.flagBits[index] |= flag.rawValue
    }

    /// Adds a parsed event line; its name is classified by `grammar` when it is new.
    mutating func append(_ event: EventLine, grammar: EventNameGrammar) {
        unique()
        let storage = storage
        let index = storage.lines.count
        if let line = Int32(exactly: event.line), line != .min {
            storage.lines.append(line)
        } else {
            storage.lines.append(.min)
            storage.longLines[index] = event.line
        }
        storage.ids.append(event.id)
        let value = program == .java ? UInt64(bitPattern: event.nanoseconds ?? 0) : (event.milliseconds ?? 0).bitPattern
        storage.raw.append(value)
        if let (digits, meta) = StampCode.encode(event.timestampText) {
            storage.stampMeta.append(meta)
            if program == .ipad { storage.stampDigits.append(digits) }
        } else {
            storage.stampMeta.append(0)
            if program == .ipad { storage.stampDigits.append(0) }
            storage.stampTexts[index] = String(event.timestampText)
        }
        let key = NameKey(text: event.name)
        let nameIndex: UInt32
        if let known = storage.nameIndex[key] { nameIndex = known } else {
            nameIndex = UInt32(storage.names.count)
            let text = String(event.name)
            storage.names.append(EventName(text: text, printable: LogText.printable(text), kind: grammar.classify(event.name)))
            storage.nameIndex[NameKey(text: Substring(text))] = nameIndex
        }
        storage.nameIndices.append(nameIndex)
        storage.flagBits.append(0)
        storage.xs.append(event.x)
        storage.ys.append(event.y)
    }

    /// Frees what only adding needed.
    mutating func finishAdding() {
        unique()
        storage.nameIndex = [:]
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
/// two values of the `event` column.
struct NameKey: Hashable, @unchecked Sendable {
    let text: Substring

    static func == (a: NameKey, b: NameKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil { for byte in text.utf8 { hasher.combine(byte) } }
    }
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
    static func encode(_ text: Substring) -> (digits: UInt64, meta: UInt16)? {
        var digits: UInt64 = 0
        var count = 0
        var integerDigits = 0
        var hasPoint = false
        var sign: UInt16 = 0
        for (position, byte) in text.utf8.enumerated() {
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
