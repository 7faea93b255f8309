import Foundation

/// The data rows of a results file, held compactly: numbers as numbers and each distinct text (session ID, label,
/// field E) once, about 40 bytes a row where a ``ResultsRow`` with its own strings took some 180. `rows[i]` makes
/// a ``ResultsRow``.
public struct ResultsRows: RandomAccessCollection, Sendable {
    private var lines: [Int] = []
    private var times: [Double] = []
    private var values: [Double] = []
    private var ids: [UInt32] = []
    private var labels: [UInt32] = []
    /// `UInt32.max` for none.
    private var trailings: [UInt32] = []
    /// Bit 0: has field A; bit 1: session row; bits 2–7: the layout (``RowFormat/allCases`` index).
    private var bits: [UInt8] = []
    private var texts = InternedTexts()
    /// The layouts in the order of their code in ``bits`` (made once: `allCases` makes its array on each call).
    private static let formats = RowFormat.allCases

    init(capacity: Int) {
        lines.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
        labels.reserveCapacity(capacity)
        trailings.reserveCapacity(capacity)
        bits.reserveCapacity(capacity)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { lines.count }

    public subscript(index: Int) -> ResultsRow {
        let bits = bits[index]
        return ResultsRow(line: lines[index], id: texts[ids[index]], hasIDField: bits & 1 != 0, time: times[index],
                          label: texts[labels[index]], value: values[index],
                          trailing: trailings[index] == .max ? nil : texts[trailings[index]],
                          isSessionRow: bits & 2 != 0, format: Self.formats[Int(bits >> 2)])
    }

    mutating func append(_ row: ResultsRow) {
        lines.append(row.line)
        times.append(row.time)
        values.append(row.value)
        ids.append(texts.index(of: row.id))
        labels.append(texts.index(of: row.label))
        trailings.append(row.trailing.map { texts.index(of: $0) } ?? .max)
        let format = UInt8(Self.formats.firstIndex(of: row.format) ?? 0)
        bits.append((row.hasIDField ? 1 : 0) | (row.isSessionRow ? 2 : 0) | format << 2)
    }

    /// Frees what only adding needed.
    mutating func finishAdding() { texts.finishAdding() }

    /// Whether row `index` is a session row.
    public func isSessionRow(at index: Int) -> Bool { bits[index] & 2 != 0 }
    /// The line of row `index`.
    public func line(at index: Int) -> Int { lines[index] }
    /// The time (field B) of row `index`.
    public func time(at index: Int) -> Double { times[index] }
    /// The number (field D) of row `index`.
    public func value(at index: Int) -> Double { values[index] }
    /// The session ID (field A) of row `index`.
    public func id(at index: Int) -> String { texts[ids[index]] }
    /// The label (field C) of row `index`.
    public func label(at index: Int) -> String { texts[labels[index]] }
}

/// Texts kept once each, told apart by their UTF-8 bytes (two spellings of one text, composed or not, stay two
/// texts, as they were two values before).
struct InternedTexts: Sendable {
    private var texts: [String] = []
    private var index: [Key: UInt32] = [:]
    /// The texts looked up last, tried before the table: a file repeats its IDs and labels row after row.
    private var recent: [(text: String, index: UInt32)] = []

    private struct Key: Hashable {
        let text: String
        static func == (a: Key, b: Key) -> Bool { InternedTexts.sameBytes(a.text, b.text) }
        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Whether two texts have the same UTF-8 bytes (the lengths first: for a native string they are known, and
    /// most texts looked up differ in length from most kept).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        // Native strings (small ones included) compare where their bytes lie; any other byte by byte.
        let same = x.withContiguousStorageIfAvailable { x in
            y.withContiguousStorageIfAvailable { y in
                x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
        if let same, let same { return same }
        return x.elementsEqual(y)
    }

    subscript(index: UInt32) -> String { texts[Int(index)] }

    /// The longest text kept, in UTF-8 bytes.
    var longestText: Int { texts.reduce(0) { Swift.max($0, $1.utf8.count) } }

    /// The index of `text`, added when new.
    mutating func index(of text: String) -> UInt32 {
        if let hit = recent.first(where: { Self.sameBytes($0.text, text) }) { return hit.index }
        let found: UInt32
        if let known = index[Key(text: text)] {
            found = known
        } else {
            found = UInt32(texts.count)
            texts.append(text)
            index[Key(text: text)] = found
        }
        if recent.count == 8 { recent.removeFirst() }
        recent.append((texts[Int(found)], found))
        return found
    }

    mutating func finishAdding() {
        index = [:]
        recent = []
    }
}
