import CHDF5
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends rows to an extendible 1-D dataset in whole chunks.
///
/// Rows are gathered into whole chunks (the whole chunks of a caller's batch that starts at a chunk boundary are
/// read in place; other rows are staged in a buffer of one chunk), so that every chunk is written once, whole:
///
/// - A chunk whose every row equals the dataset's fill value is not written at all: HDF5 gives readers the
///   fill value for it. Columns that repeat one value (a per-row source file, a segment number of 0, a flag
///   that is never set) so cost no file space and no time.
/// - Chunks whose memory layout is the file's are stored as they are with `H5Dwrite_chunk`, bypassing HDF5's
///   type conversion, chunk cache and fill machinery; the last, partial chunk is padded with the fill value.
/// - Of a compressed dataset, such chunks wait in a queue until ``storePendingChunks()`` (or
///   ``storePendingChunks(of:)``, which compresses the queues of several columns on all cores at once) shuffles
///   and deflates them with ``HDF5ChunkCompressor``, in the formats of the dataset's filters.
/// - Other chunks (a big-endian machine's numbers) go through `H5Dwrite` (files made by
///   ``HDF5File/create(path:)`` have no chunk cache, so HDF5 compresses each exactly once).
///
/// Memory is one chunk per column, plus up to ``queuedChunksLimit`` queued chunks (copies) of a compressed one.
/// Variable-length strings are written through. Call ``flush()`` once after the last rows (the dataset then
/// ends with a partial chunk, so nothing can be appended after it); rows still staged or queued when the
/// appender goes away are lost.
public final class HDF5ChunkAppender {
    /// The dataset written to.
    public let dataset: HDF5Dataset
    /// The dataset's element type.
    public let type: HDF5ElementType
    /// Rows per chunk (the staging buffer's capacity).
    public let chunkRows: Int

    private let elementSize: Int
    private let stringType: HDF5StringType?
    private let memoryType: hid_t
    /// One element of the fill value, in the file's layout.
    private let fill: [UInt8]
    /// Whether whole chunks are stored as they are (`H5Dwrite_chunk`) rather than through `H5Dwrite`.
    private let storesChunksWhole: Bool
    /// The dataset's filters, for chunks stored whole in a compressed dataset.
    private let compressor: HDF5ChunkCompressor?
    /// Chunks of a compressed dataset waiting to be compressed and stored: first row and bytes.
    private var pending: [(row: Int, raw: [UInt8])] = []
    /// Queued chunks of one column that are compressed at once without waiting for the other columns.
    static let queuedChunksLimit = 8
    /// The buffer of one chunk, made when first needed: a column whose batches come in whole chunks, or whose
    /// chunks only repeat the fill value, never needs one.
    private var stageBuffer: UnsafeMutableRawBufferPointer?
    private var staged = 0
    /// Whether the staged rows are all the fill value and not yet written into the stage (a fixed-length string
    /// column repeating its first value): such a chunk is only counted, never copied.
    private var stagedAreUnwrittenFill = true
    /// Rows in the dataset so far (its length), not counting staged rows.
    private var length = 0
    /// What a missing string (`nil`) is written as; R's rhdf5 reads `NA` back as a missing value when the
    /// dataset has an `as.na` attribute.
    public let missingText: String

    /// Creates an empty extendible dataset (``HDF5Dataset/createExtendible(in:name:type:storage:)``) and its
    /// staging buffer.
    public init(in location: HDF5Location, name: String, type: HDF5ElementType,
                storage: HDF5StorageOptions, missingText: String = "") throws(HDF5Error) {
        self.missingText = missingText
        dataset = try HDF5Dataset.createExtendible(in: location, name: name, type: type, storage: storage)
        self.type = type
        chunkRows = storage.chunkRows
        elementSize = type.elementSize
        switch type {
        case .string: stringType = try HDF5StringType()
        case .fixedString(let width): stringType = try HDF5StringType(fixedWidth: width)
        default: stringType = nil
        }
        memoryType = stringType?.id ?? type.nativeType
        fill = storage.fillValue ?? [UInt8](repeating: 0, count: elementSize)
        storesChunksWhole = type.memoryLayoutIsFileLayout
        compressor = storesChunksWhole && storage.deflateLevel > 0
            ? HDF5ChunkCompressor(level: storage.deflateLevel, elementSize: elementSize,
                                  shuffle: storage.shuffle && type != .string)
            : nil
    }

    deinit { stageBuffer?.deallocate() }

    /// The stage, made on first use.
    private var stage: UnsafeMutableRawBufferPointer {
        if let stageBuffer { return stageBuffer }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, elementSize * chunkRows), alignment: 16)
        stageBuffer = made
        return made
    }

    /// Writes the fill value into the staged rows that were only counted (``stagedAreUnwrittenFill``), before any
    /// other value is staged after them.
    private func writeStagedFill() {
        guard stagedAreUnwrittenFill else { return }
        stagedAreUnwrittenFill = false
        writeFill(rows: 0..<staged)
    }

    /// Writes the fill value into these rows of the stage.
    private func writeFill(rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let base = stage.baseAddress!
        fill.withUnsafeBytes { pattern in
            for row in rows { (base + row * elementSize).copyMemory(from: pattern.baseAddress!, byteCount: elementSize) }
        }
    }

    /// Appends 8-bit integers to an `int8` dataset.
    public func append(_ values: UnsafeBufferPointer<Int8>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .int8)
    }
    /// Appends 32-bit integers to an `int32` dataset.
    public func append(_ values: UnsafeBufferPointer<Int32>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .int32)
    }
    /// Appends 64-bit integers to an `int64` dataset.
    public func append(_ values: UnsafeBufferPointer<Int64>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .int64)
    }
    /// Appends 32-bit floats to a `float32` dataset.
    public func append(_ values: UnsafeBufferPointer<Float>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .float32)
    }
    /// Appends 64-bit floats to a `float64` dataset.
    public func append(_ values: UnsafeBufferPointer<Double>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .float64)
    }

    /// Appends strings, `nil` written as ``missingText``: to a variable-length dataset directly, to a
    /// fixed-length one NUL padded to its width (a longer value is an error, and nothing of this batch is
    /// written).
    public func append(_ values: [String?]) throws(HDF5Error) {
        guard case .fixedString = type else {
            guard type == .string else { throw mismatch(.string) }
            try dataset.append(values, missing: missingText)
            length += values.count
            return
        }
        let width = elementSize
        // Runs of equal values (by their UTF-8 bytes: `==` on strings would take canonically equivalent
        // spellings, different paths on Linux, for the same) are encoded once. A chunk of nothing but the fill
        // value (a repeated source file) is then left unstored like any other.
        let runs = HDF5ChunkAppender.runsOfEqualValues(values)
        var encoded: [[UInt8]] = []
        encoded.reserveCapacity(runs.count)
        for run in runs {
            let bytes = Array((values[run.lowerBound] ?? missingText).utf8)
            if bytes.count > width {
                throw HDF5Error("write \(dataset.path)",
                                detail: "\"\(values[run.lowerBound] ?? missingText)\" is longer than the column's \(width) bytes")
            }
            encoded.append(bytes + [UInt8](repeating: 0, count: width - bytes.count))
        }
        for (run, bytes) in zip(runs, encoded) {
            var remaining = run.count
            let isFill = bytes == fill
            while remaining > 0 {
                let rows = min(chunkRows - staged, remaining)
                if isFill && stagedAreUnwrittenFill {
                    // Fill after fill: counted, not copied.
                    staged += rows
                    remaining -= rows
                    if staged == chunkRows { try writeStage() }
                    continue
                }
                writeStagedFill()
                // The value once, then copied from itself in doubling blocks.
                let slot = stage.baseAddress! + staged * width
                slot.copyMemory(from: bytes, byteCount: width)
                var copied = 1
                while copied < rows {
                    let count = min(copied, rows - copied)
                    (slot + copied * width).copyMemory(from: slot, byteCount: count * width)
                    copied += count
                }
                staged += rows
                remaining -= rows
                if staged == chunkRows { try writeStage() }
            }
        }
    }

    /// The ranges of rows that hold one value each, equal by UTF-8 bytes (`nil` equal only to `nil`).
    ///
    /// Neighbours that share their representation (one storage object, as a value repeated on every row does, or
    /// the same small-string bits) are equal without reading them: their bits are compared in place, so that a
    /// column of one repeated value costs no reference counting per row.
    private static func runsOfEqualValues(_ values: [String?]) -> [Range<Int>] {
        values.withUnsafeBufferPointer { buffer in
            let bits = UnsafeRawBufferPointer(buffer)
            let stride = MemoryLayout<String?>.stride
            // An optional String is two words on the 64-bit platforms this toolkit builds for.
            let comparesBits = MemoryLayout<String?>.size == 16
            func same(_ i: Int, _ j: Int) -> Bool {
                if comparesBits {
                    let a = bits.baseAddress! + i * stride, b = bits.baseAddress! + j * stride
                    if a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                        && a.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                            == b.loadUnaligned(fromByteOffset: 8, as: UInt64.self) { return true }
                }
                guard let x = buffer[i], let y = buffer[j] else { return buffer[i] == nil && buffer[j] == nil }
                return x.utf8.count == y.utf8.count && x.utf8.elementsEqual(y.utf8)
            }
            var runs: [Range<Int>] = []
            var start = 0
            while start < buffer.count {
                var end = start + 1
                // Each row against the one before it (equality is transitive), not against the run's first: a run
                // may join equal values of different storage (a subject's UUID in each of its recordings), and
                // then every later row would be compared byte by byte.
                while end < buffer.count && same(end - 1, end) { end += 1 }
                runs.append(start..<end)
                start = end
            }
            return runs
        }
    }

    /// Writes the staged rows (the last, partial chunk) and every queued chunk.
    public func flush() throws(HDF5Error) {
        if staged > 0 { try writeStage() }
        try storePendingChunks()
    }

    /// Compresses and stores the chunks queued by earlier appends, on this thread.
    public func storePendingChunks() throws(HDF5Error) {
        try HDF5ChunkAppender.storePendingChunks(of: [self])
    }

    /// Compresses the queued chunks of all these appenders on all cores at once, then stores them in order (the
    /// HDF5 calls on this thread only: the library is not thread-safe).
    public static func storePendingChunks(of appenders: [HDF5ChunkAppender]) throws(HDF5Error) {
        var jobs: [(compressor: HDF5ChunkCompressor, raw: [UInt8])] = []
        for appender in appenders {
            guard let compressor = appender.compressor else { continue }
            jobs += appender.pending.map { (compressor, $0.raw) }
        }
        guard !jobs.isEmpty else { return }
        var compressed = HDF5ChunkCompressor.compressAll(jobs)[...]
        for appender in appenders where appender.compressor != nil {
            let chunks = appender.pending
            appender.pending = []
            for chunk in chunks {
                try appender.dataset.writeChunk(startingAt: chunk.row, compressed.removeFirst())
            }
        }
    }

    private func append(_ bytes: UnsafeRawBufferPointer, rows: Int, as expected: HDF5ElementType) throws(HDF5Error) {
        guard type == expected else { throw mismatch(expected) }
        guard rows > 0, let source = bytes.baseAddress else { return }
        var row = 0
        while row < rows {
            if staged == 0 && rows - row >= chunkRows {
                // Whole chunks go straight from the caller's buffer.
                try writeChunk(source + row * elementSize, rows: chunkRows)
                row += chunkRows
                continue
            }
            let count = min(chunkRows - staged, rows - row)
            writeStagedFill()
            (stage.baseAddress! + staged * elementSize)
                .copyMemory(from: source + row * elementSize, byteCount: count * elementSize)
            staged += count
            row += count
            if staged == chunkRows { try writeStage() }
        }
    }

    private func writeStage() throws(HDF5Error) {
        let rows = staged
        staged = 0
        defer { stagedAreUnwrittenFill = true }
        if stagedAreUnwrittenFill {
            // Nothing but the fill value: the dataset grows, no chunk is stored (as for such a chunk below).
            _ = try extend(by: rows)
            return
        }
        // A stored chunk is always whole: the rows past the dataset's end hold the fill value.
        if storesChunksWhole { writeFill(rows: rows..<chunkRows) }
        try writeChunk(UnsafeRawPointer(stage.baseAddress!), rows: rows)
    }

    /// Extends the dataset by one chunk's `rows` (fewer only for the last chunk) and stores them, unless every
    /// row equals the fill value.
    private func writeChunk(_ data: UnsafeRawPointer, rows: Int) throws(HDF5Error) {
        let start = try extend(by: rows)
        if holdsOnlyFill(data, rows: rows) { return }
        let whole = UnsafeRawBufferPointer(start: data, count: chunkRows * elementSize)
        if compressor != nil {
            pending.append((start, Array(whole)))
            // A large batch (a table written in one go) is compressed as it goes, several chunks at once, so
            // that the queue never holds more than a few chunks of a column.
            if pending.count >= HDF5ChunkAppender.queuedChunksLimit { try storePendingChunks() }
        } else if storesChunksWhole {
            try dataset.writeChunk(startingAt: start, whole)
        } else {
            try dataset.write(rows: start, count: rows, memoryType: memoryType, data)
        }
    }

    /// Extends the dataset by `rows`; returns the first of them.
    private func extend(by rows: Int) throws(HDF5Error) -> Int {
        let start = length
        length += rows
        try dataset.setLength(length)
        return start
    }

    /// Whether every one of `rows` elements at `data` equals the fill value: the first does, and each equals the
    /// one before it (one `memcmp`, which stops at the first difference).
    private func holdsOnlyFill(_ data: UnsafeRawPointer, rows: Int) -> Bool {
        let firstIsFill = fill.withUnsafeBytes { memcmp(data, $0.baseAddress!, elementSize) == 0 }
        guard firstIsFill else { return false }
        return rows < 2 || memcmp(data, data + elementSize, (rows - 1) * elementSize) == 0
    }

    private func mismatch(_ given: HDF5ElementType) -> HDF5Error {
        HDF5Error("write \(dataset.path)", detail: "\(given) values for a dataset of \(type)")
    }
}
