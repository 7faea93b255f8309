import Tables

/// EDF+ annotations: each a TAL (time-stamped annotation list, EDF+ spec §2.2.2) in the bytes of the annotation
/// signal of a data record. Every record's first TAL is its time-keeping one (`+<start>␔␔␀`); the rest hold the
/// annotations, each in the record where its onset falls or a later one when that record is full.
struct EDFAnnotationLayout {
    /// The TAL bytes of each record, each `bytesPerRecord` long (padded with 0).
    let bytesPerRecord: Int
    private let placed: [[Int]]
    private let tals: [[UInt8]]
    private let recordDuration: Double

    /// Places `annotations` (sorted by onset) into `recordCount` records of `recordDuration` seconds, the annotation
    /// signal holding a multiple of `sampleBytes` bytes per record.
    init(annotations: [SignalAnnotation], recordCount: Int, recordDuration: Double, sampleBytes: Int) {
        self.recordDuration = recordDuration
        tals = annotations.map(Self.tal)
        let keeping = (0..<max(recordCount, 1)).map { Self.timeKeeping(Double($0) * recordDuration).count }
        let maxKeeping = keeping.max() ?? 0
        let total = tals.reduce(0) { $0 + $1.count }
        let largest = tals.map(\.count).max() ?? 0
        var capacity = maxKeeping + max(largest, (total + recordCount - 1) / max(recordCount, 1))
        while true {
            capacity = (capacity + sampleBytes - 1) / sampleBytes * sampleBytes
            if let placement = Self.place(tals, onsets: annotations.map(\.onset), keeping: keeping,
                                          capacity: capacity, recordDuration: recordDuration) {
                placed = placement
                bytesPerRecord = capacity
                return
            }
            capacity += max(largest, sampleBytes)
        }
    }

    /// Greedy placement in onset order; `nil` when the annotations do not all fit.
    private static func place(_ tals: [[UInt8]], onsets: [Double], keeping: [Int], capacity: Int,
                              recordDuration: Double) -> [[Int]]? {
        var placement = [[Int]](repeating: [], count: keeping.count)
        var next = 0
        for record in keeping.indices {
            var used = keeping[record]
            let end = Double(record + 1) * recordDuration
            let last = record == keeping.count - 1
            while next < tals.count, last || onsets[next] < end, used + tals[next].count <= capacity {
                placement[record].append(next)
                used += tals[next].count
                next += 1
            }
        }
        return next == tals.count ? placement : nil
    }

    /// The annotation bytes of record `record`.
    func bytes(record: Int) -> [UInt8] {
        var out = Self.timeKeeping(Double(record) * recordDuration)
        if record < placed.count { for index in placed[record] { out += tals[index] } }
        out += [UInt8](repeating: 0, count: bytesPerRecord - out.count)
        return out
    }

    /// `+<onset>␔␔␀`: the record's start in seconds.
    static func timeKeeping(_ onset: Double) -> [UInt8] {
        Array(("+" + formatNumber(onset, maxFractionDigits: 6)).utf8) + [0x14, 0x14, 0x00]
    }

    /// `±<onset>[␕<duration>]␔<text>␔␀`; the text in UTF-8 (EDF+ allows it in annotations).
    static func tal(_ annotation: SignalAnnotation) -> [UInt8] {
        var out = Array(((annotation.onset < 0 ? "-" : "+") + formatNumber(abs(annotation.onset), maxFractionDigits: 6)).utf8)
        if annotation.duration > 0 {
            out.append(0x15)
            out += Array(formatNumber(annotation.duration, maxFractionDigits: 6).utf8)
        }
        out.append(0x14)
        // The separators 0x14, 0x15 and 0 cannot be part of the text.
        out += annotation.description.utf8.map { $0 == 0x14 || $0 == 0x15 || $0 == 0 ? UInt8(ascii: " ") : $0 }
        out += [0x14, 0x00]
        return out
    }
}
