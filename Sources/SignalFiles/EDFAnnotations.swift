import Tables

/// EDF+ annotations: each a TAL (time-stamped annotation list, EDF+ spec §2.2.2) in the bytes of the annotation
/// signal of a data record. Every record's first TAL is its time-keeping one (`+<start>␔␔␀`); the rest hold the
/// annotations, each in the record where its onset falls or a later one when that record is full.
struct EDFAnnotationLayout {
    /// The TAL bytes of each record, each `bytesPerRecord` long (padded with 0).
    let bytesPerRecord: Int
    /// Every annotation's TAL, one after the other, and where each starts (one more entry: the end). Flat, as a
    /// faulty 10-hour capture has 300,000 of them.
    private let talBytes: [UInt8]
    private let talStarts: [Int]
    /// Every record's time-keeping TAL, one after the other, and where each starts (one more entry: the end).
    private let keepingBytes: [UInt8]
    private let keepingStarts: [Int]
    /// The annotations of record `r` are `recordFirst[r]..<recordFirst[r + 1]` (placed in onset order, a record's
    /// are consecutive).
    private let recordFirst: [Int]
    private let recordDuration: Double

    /// Places `annotations` (sorted by onset) into `recordCount` records of `recordDuration` seconds, the annotation
    /// signal holding a multiple of `sampleBytes` bytes per record.
    init(annotations: [SignalAnnotation], recordCount: Int, recordDuration: Double, sampleBytes: Int) {
        self.recordDuration = recordDuration
        // Two passes, the TALs measured first, so that their bytes take exactly their size: grown by appending,
        // the array took up to twice that (19 MB for the 300,000 annotations of a faulty 10-hour capture).
        var starts = [0]
        starts.reserveCapacity(annotations.count + 1)
        var one: [UInt8] = []
        for annotation in annotations {
            one.removeAll(keepingCapacity: true)
            Self.appendTAL(annotation, to: &one)
            starts.append(starts[starts.count - 1] + one.count)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(starts[starts.count - 1])
        for annotation in annotations { Self.appendTAL(annotation, to: &bytes) }
        talBytes = bytes
        talStarts = starts
        var keepingBytes: [UInt8] = [], keepingStarts = [0]
        keepingStarts.reserveCapacity(max(recordCount, 1) + 1)
        for record in 0..<max(recordCount, 1) {
            keepingBytes += Self.timeKeeping(Double(record) * recordDuration)
            keepingStarts.append(keepingBytes.count)
        }
        self.keepingBytes = keepingBytes
        self.keepingStarts = keepingStarts
        let keeping = zip(keepingStarts.dropFirst(), keepingStarts).map { $0 - $1 }
        let maxKeeping = keeping.max() ?? 0
        let total = bytes.count
        var largest = 0
        for index in starts.indices.dropFirst() { largest = max(largest, starts[index] - starts[index - 1]) }
        var capacity = maxKeeping + max(largest, (total + recordCount - 1) / max(recordCount, 1))
        while true {
            capacity = (capacity + sampleBytes - 1) / sampleBytes * sampleBytes
            if let placement = Self.place(starts: starts, annotations: annotations, keeping: keeping,
                                          capacity: capacity, recordDuration: recordDuration) {
                recordFirst = placement
                bytesPerRecord = capacity
                return
            }
            capacity += max(largest, sampleBytes)
        }
    }

    /// Greedy placement in onset order: the first annotation of each record (and the count at the end); `nil` when
    /// the annotations do not all fit. Annotation `i`'s TAL is `starts[i + 1] - starts[i]` bytes long.
    private static func place(starts: [Int], annotations: [SignalAnnotation], keeping: [Int], capacity: Int,
                              recordDuration: Double) -> [Int]? {
        var first = [Int]()
        first.reserveCapacity(keeping.count + 1)
        var next = 0
        for record in keeping.indices {
            first.append(next)
            var used = keeping[record]
            let end = Double(record + 1) * recordDuration
            let last = record == keeping.count - 1
            while next < annotations.count, last || annotations[next].onset < end,
                  used + starts[next + 1] - starts[next] <= capacity {
                used += starts[next + 1] - starts[next]
                next += 1
            }
        }
        first.append(next)
        return next == annotations.count ? first : nil
    }

    /// The annotation bytes of record `record`.
    func bytes(record: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytesPerRecord) { buffer, count in
            write(record: record, to: UnsafeMutableRawPointer(buffer.baseAddress!))
            count = bytesPerRecord
        }
    }

    /// Writes the ``bytesPerRecord`` annotation bytes of record `record` at `out`.
    func write(record: Int, to out: UnsafeMutableRawPointer) {
        var at = 0
        func put(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBytes { (out + at).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            at += bytes.count
        }
        put(keepingBytes[keepingStarts[record]..<keepingStarts[record + 1]])
        if record + 1 < recordFirst.count, recordFirst[record] < recordFirst[record + 1] {
            put(talBytes[talStarts[recordFirst[record]]..<talStarts[recordFirst[record + 1]]])
        }
        (out + at).initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRecord - at)
    }

    /// `+<onset>␔␔␀`: the record's start in seconds.
    static func timeKeeping(_ onset: Double) -> [UInt8] {
        Array(("+" + formatNumber(onset, maxFractionDigits: 6)).utf8) + [0x14, 0x14, 0x00]
    }

    /// Appends `±<onset>[␕<duration>]␔<text>␔␀` to `out`; the text in UTF-8 (EDF+ allows it in annotations).
    static func appendTAL(_ annotation: SignalAnnotation, to out: inout [UInt8]) {
        out.append(annotation.onset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        out += formatNumber(abs(annotation.onset), maxFractionDigits: 6).utf8
        if annotation.duration > 0 {
            out.append(0x15)
            out += formatNumber(annotation.duration, maxFractionDigits: 6).utf8
        }
        out.append(0x14)
        // The separators 0x14, 0x15 and 0 cannot be part of the text.
        for byte in annotation.description.utf8 { out.append(byte == 0x14 || byte == 0x15 || byte == 0 ? UInt8(ascii: " ") : byte) }
        out += [0x14, 0x00]
    }
}
