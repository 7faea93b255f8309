import FileSystem
import Foundation
import Hashing
import SystemPackage
import Tables

/// Writes one signal as EDF+ or BDF+ (docs/bids.md), streaming in flat memory.
///
/// The physical range of each channel can only be chosen once every value is known (``PhysicalRange``: nothing
/// clips, the resolution is as fine as the format allows), so frames first go to a scratch (``SignalScratch``: in
/// memory up to 16 MiB, beyond in a file beside the destination, unlinked at once; filled on a thread of its own
/// while the caller decodes the next frames). ``finishTemporaries()`` then writes the header
/// and the data records, each with its annotation bytes, into the temporary sibling (`.<name>.tmp-<pid>`) a chunk of
/// records at a time, each chunk hashed (the provenance's SHA-256 without reading the file back) and written on a
/// second thread while the next is made, and flushes it; ``commit()`` renames it over the destination.
///
/// The scratch holds float64 values, or, for BDF when every channel declares a grid of a whole fraction of
/// its unit (the Brainiac's 0.001 µV), each value as a 32-bit count of grid steps (``ScratchEncoding``): half the
/// bytes, and digits by integer arithmetic. A value off the grid (an interpolated fill) is then rounded to the
/// nearest step, which is what the 1-step resolution stores anyway.
///
/// Records last 1 s when the rate is a whole number of Hz (else the shortest whole number of seconds holding a
/// whole number of samples, up to 60 s). The last record is completed with copies of the last frame, annotated
/// `BAD_padding`.
final class EDFWriter: SignalFileWriter {
    let path: String
    let kind: SignalFileKind
    private var description: SignalDescription?
    private var scratch: SignalScratch?
    private var annotations = AnnotationList()
    private var temporary: FilePath
    /// The temporary's removal on a signal, from its creation until it is committed or discarded.
    private var cleanup: FileSystem.SignalCleanup?
    /// Takes frames into the scratch on a thread of its own, while the caller decodes the next ones.
    private let worker = DispatchQueue(label: "brainbatch.signal-scratch")
    /// Batches handed to the worker and not yet taken in: at most two, so that memory stays flat.
    private let queued = DispatchSemaphore(value: 2)
    private let workerError = FirstError()

    /// Bytes of values the scratch keeps in memory (``SignalScratch/defaultMemoryLimit``; tests ask for less).
    private let scratchMemoryLimit: Int

    init(path: String, kind: SignalFileKind, scratchMemoryLimit: Int = SignalScratch.defaultMemoryLimit) {
        self.path = path
        self.kind = kind
        self.scratchMemoryLimit = scratchMemoryLimit
        temporary = FileSystem.temporarySibling(of: FilePath(path))
    }

    deinit { discard() }

    func begin(_ description: SignalDescription) throws {
        guard self.description == nil else { throw SignalFileError.invalidSignal(path: path, reason: "the signal was started twice") }
        guard !description.channels.isEmpty else { throw SignalFileError.invalidSignal(path: path, reason: "the input has no channels") }
        guard description.samplingRate > 0, description.samplingRate.isFinite else {
            throw SignalFileError.samplingRate(path: path, rate: description.samplingRate)
        }
        _ = try recordLayout(description.samplingRate)
        scratch = SignalScratch(beside: path, kind: kind, channels: description.channels,
                                memoryLimit: scratchMemoryLimit)
        self.description = description
    }

    /// Hands a copy of the frames to the worker (see ``append(_:channelCount:)``).
    func append(_ values: UnsafeBufferPointer<Double>, frameCount: Int) throws {
        let channels = description?.channels.count ?? 0
        try append(Array(values.prefix(frameCount * channels)), channelCount: channels)
    }

    /// Hands the frames to the worker, which takes them into the scratch while the caller goes on; the array is
    /// shared, not copied. An error the worker met (a value that is not finite, the scratch file unwritable) is
    /// thrown by the next call, or by ``finish()``.
    func append(_ values: [Double], channelCount: Int) throws {
        try handOver(valueCount: values.count, channelCount: channelCount) { scratch, frameCount in
            try values.withUnsafeBufferPointer { try scratch.append($0, frameCount: frameCount) }
        }
    }

    /// A BDF whose channels share a grid keeps its scratch in counts of it (``ScratchEncoding``).
    var storesGridCounts: Bool {
        if case .gridCounts? = scratch?.encoding { true } else { false }
    }

    /// Like ``append(_:channelCount:)``; counts of the scratch's own grid go in as they are (a BDF of the Brainiac's
    /// nV), others as their values.
    func append(gridCounts counts: [Int32], stepsPerUnit: Double, channelCount: Int) throws {
        guard case .gridCounts(stepsPerUnit)? = scratch?.encoding else {
            try append(Self.values(ofGridCounts: counts, stepsPerUnit: stepsPerUnit), channelCount: channelCount)
            return
        }
        try handOver(valueCount: counts.count, channelCount: channelCount) { scratch, frameCount in
            try counts.withUnsafeBufferPointer { try scratch.append(counts: $0, frameCount: frameCount) }
        }
    }

    /// Queues `take` on the worker for `valueCount / channelCount` frames, once fewer than two batches wait.
    private func handOver(valueCount: Int, channelCount: Int,
                          _ take: @escaping @Sendable (SignalScratch, Int) throws -> Void) throws {
        guard let description, let scratch else {
            throw SignalFileError.invalidSignal(path: path, reason: "samples before the signal was started")
        }
        if let error = workerError.value { throw error }
        let count = description.channels.count
        guard channelCount == count else {
            throw SignalFileError.invalidSignal(path: path, reason: "frames of \(channelCount) values for \(count) channels")
        }
        let frameCount = valueCount / count
        queued.wait()
        let (queued, workerError) = (self.queued, self.workerError)
        worker.async {
            defer { queued.signal() }
            guard workerError.value == nil else { return }
            do { try take(scratch, frameCount) } catch { workerError.record(error) }
        }
    }

    func annotate(_ annotation: SignalAnnotation) {
        annotations.append(annotation)
    }

    /// Samples per record and the record's duration for a rate.
    private func recordLayout(_ rate: Double) throws -> (samples: Int, seconds: Double) {
        for seconds in 1...60 {
            let samples = rate * Double(seconds)
            if abs(samples - samples.rounded()) < 1e-6 * samples { return (Int(samples.rounded()), Double(seconds)) }
        }
        throw SignalFileError.samplingRate(path: path, rate: rate)
    }

    func finishTemporaries() throws -> SignalFileSummary {
        guard let description, let scratch else {
            throw SignalFileError.invalidSignal(path: path, reason: "the input gave no signal")
        }
        worker.sync {}
        if let error = workerError.value { throw error }
        // Every batch taken in: the scratch's count is the signal's.
        let frames = scratch.frames
        guard frames > 0 else { throw SignalFileError.invalidSignal(path: path, reason: "the input has no samples") }
        try scratch.flush()
        let (encoding, extremes) = (scratch.encoding, scratch.extremes)
        let channels = description.channels
        let (perRecord, seconds) = try recordLayout(description.samplingRate)
        let recordCount = (frames + perRecord - 1) / perRecord
        let padded = recordCount * perRecord - frames
        var ranges: [PhysicalRange] = []
        for (index, channel) in channels.enumerated() {
            let (low, high) = (extremes.low[index], extremes.high[index])
            guard let range = PhysicalRange(low: low, high: high, bits: kind.bits, grid: channel.grid) else {
                throw SignalFileError.rangeTooWide(path: path, channel: channel.label, low: low, high: high)
            }
            ranges.append(range)
        }
        let padding = padded == 0 ? nil : SignalAnnotation(onset: Double(frames) / description.samplingRate,
                                                           duration: Double(padded) / description.samplingRate,
                                                           description: "BAD_padding")
        let notes = annotations.takeInOnsetOrder(appending: padding)
        let sampleBytes = kind == .bdf ? 3 : 2
        let layout = EDFAnnotationLayout(annotations: notes, recordCount: recordCount, recordDuration: seconds,
                                         sampleBytes: sampleBytes)
        var signals = zip(channels, ranges).map { channel, range in
            EDFHeader.Signal(label: channel.label, transducer: channel.transducer, unit: channel.unit,
                             physicalMinimum: range.physicalMinimum, physicalMaximum: range.physicalMaximum,
                             digitalMinimum: range.digitalMinimum, digitalMaximum: range.digitalMaximum,
                             prefiltering: channel.prefiltering, samplesPerRecord: perRecord)
        }
        let digitalLimit = 1 << (kind.bits - 1)
        signals.append(EDFHeader.Signal(label: kind == .bdf ? "BDF Annotations" : "EDF Annotations", transducer: "",
                                        unit: "", physicalMinimum: -1, physicalMaximum: 1,
                                        digitalMinimum: -digitalLimit, digitalMaximum: digitalLimit - 1,
                                        prefiltering: "", samplesPerRecord: layout.bytesPerRecord / sampleBytes))
        let header = EDFHeader(kind: kind, start: description.start, equipment: description.equipment,
                               recordCount: recordCount, recordDuration: seconds, signals: signals)

        let output: FileDescriptor
        cleanup = FileSystem.removeOnSignal(temporary)
        do { output = try FileSystem.create(temporary) } catch {
            removeTemporary()
            throw SignalFileError.cannotWrite(path: path, reason: error.reason)
        }
        // Records in chunks of 128k values, hashed on a second thread as they are written.
        let count = channels.count
        let chunkRecords = max(1, (1 << 17) / (perRecord * count))
        let recordBytes = perRecord * count * sampleBytes
        let headerBytes = header.bytes
        let hasher = BackgroundSHA256(bufferSize: max(headerBytes.count,
                                                      chunkRecords * (recordBytes + layout.bytesPerRecord) + Self.storeSlack))
        do {
            // Hashed and written on the hasher's queue while the next chunk is made.
            let temporary = self.temporary
            let write: @Sendable (UnsafeRawBufferPointer) throws -> Void = { bytes in
                try FileSystem.write(bytes, to: output, path: temporary)
            }
            try hasher.fill({ $0.copyBytes(from: headerBytes); return headerBytes.count }, thenInBackground: write)
            let valueBytes = encoding.bytesPerValue
            let values = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkRecords * perRecord * count * valueBytes,
                                                                alignment: 8)
            defer { values.deallocate() }
            let offsets = ranges.map { encoding.countOffset(for: $0) }
            // Every channel's digit its count less a constant (a BDF of whole grid steps): a record at a time.
            let countOffsets = offsets.map { $0.flatMap(Int32.init(exactly:)) }
            let recordOffsets: [Int32]? = countOffsets.allSatisfy { $0 != nil } ? countOffsets.map { $0! } : nil
            var record = 0
            while record < recordCount {
                let records = min(chunkRecords, recordCount - record)
                let firstFrame = record * perRecord
                let available = min(records * perRecord, frames - firstFrame)
                let frameBytes = count * valueBytes
                // Whole records still in memory are converted where they are; the rest are read into `values`.
                let source: UnsafeRawBufferPointer
                if available == records * perRecord,
                   let inMemory = scratch.valuesInMemory(fromFrame: firstFrame, frameCount: available) {
                    source = inMemory
                } else {
                    try scratch.read(fromFrame: firstFrame,
                                     into: UnsafeMutableRawBufferPointer(rebasing: values[0..<(available * frameBytes)]))
                    // The last record: copies of the last frame.
                    for frame in available..<(records * perRecord) {
                        values.baseAddress!.advanced(by: frame * frameBytes)
                            .copyMemory(from: values.baseAddress!.advanced(by: (available - 1) * frameBytes), byteCount: frameBytes)
                    }
                    source = UnsafeRawBufferPointer(values)
                }
                try hasher.fill({ raw in
                    let out = raw.baseAddress!
                    var at = 0
                    for r in 0..<records {
                        if let recordOffsets {
                            Self.storeRecord(source.bindMemory(to: Int32.self), firstFrame: r * perRecord,
                                             frames: perRecord, offsets: recordOffsets, sampleBytes: sampleBytes,
                                             into: out + at)
                            at += perRecord * count * sampleBytes
                        }
                        for channel in 0..<count where recordOffsets == nil {
                            let first = r * perRecord * count + channel
                            switch (encoding, offsets[channel]) {
                            case (.float64, _):
                                let range = ranges[channel]
                                let doubles = source.bindMemory(to: Double.self)
                                Self.store(perRecord, from: first, stride: count, sampleBytes: sampleBytes, into: out,
                                           at: &at) { range.digital(doubles[$0]) }
                            case (.gridCounts, let offset?):
                                let counts = source.bindMemory(to: Int32.self)
                                Self.store(perRecord, from: first, stride: count, sampleBytes: sampleBytes, into: out,
                                           at: &at) { Int(counts[$0]) + offset }
                            case (.gridCounts(let stepsPerUnit), nil):
                                let range = ranges[channel]
                                let counts = source.bindMemory(to: Int32.self)
                                Self.store(perRecord, from: first, stride: count, sampleBytes: sampleBytes, into: out,
                                           at: &at) { range.digital(Double(counts[$0]) / stepsPerUnit) }
                            }
                        }
                        layout.write(record: record + r, to: out + at)
                        at += layout.bytesPerRecord
                    }
                    return at
                }, thenInBackground: write)
                record += records
            }
            try hasher.finishBackgroundWork()
            try FileSystem.sync(output, path: temporary)
            try FileSystem.close(output, path: temporary)
        } catch let error as FileSystemError {
            hasher.waitForQueuedWork()
            try? output.close()
            removeTemporary()
            throw SignalFileError.fileSystem(error, path: path)
        } catch {
            hasher.waitForQueuedWork()
            try? output.close()
            removeTemporary()
            throw error
        }
        scratch.close()
        self.scratch = nil
        let summaryChannels = zip(channels, ranges).enumerated().map { index, pair in
            let (channel, range) = pair
            return SignalFileSummary.Channel(
                label: channel.label, type: channel.type, unit: channel.unit, resolution: range.resolution,
                exact: channel.grid.map { abs($0 - range.resolution) <= 1e-9 * $0 } ?? false,
                physicalMinimum: range.physicalMinimum, physicalMaximum: range.physicalMaximum,
                minimum: extremes.low[index], maximum: extremes.high[index])
        }
        return SignalFileSummary(format: kind.displayName, files: [path], digests: [hasher.finalize().digest],
                                 samplingRate: description.samplingRate,
                                 channels: summaryChannels, frames: frames, paddedFrames: padded,
                                 recordDuration: seconds, annotations: notes, start: description.start?.iso8601)
    }

    /// Stores `samples` digits, the `n`-th from `digit(first + n × stride)`, little-endian in `sampleBytes` bytes
    /// each from `out + at` on.
    ///
    /// Each digit is stored as four bytes, of which the next digit (or what follows the channel) overwrites the
    /// ones beyond `sampleBytes`: one store per sample instead of one per byte. `out` must hold
    /// ``storeSlack`` bytes more than is written.
    @inline(__always)
    private static func store(_ samples: Int, from first: Int, stride: Int, sampleBytes: Int,
                              into out: UnsafeMutableRawPointer, at: inout Int, digit: (Int) -> Int) {
        var index = first
        for _ in 0..<samples {
            out.storeBytes(of: UInt32(truncatingIfNeeded: digit(index)).littleEndian, toByteOffset: at, as: UInt32.self)
            index += stride
            at += sampleBytes
        }
    }

    /// Stores the digits of one record, `counts[f × channels + c] + offsets[c]` for its `frames` frames from
    /// `firstFrame` on, little-endian in `sampleBytes` bytes each, channel after channel from `out` on.
    ///
    /// Frame by frame, each frame's counts read once (``store(_:from:stride:sampleBytes:into:at:digit:)`` goes
    /// channel by channel and reads them with a stride). Each digit is stored as four bytes, the extra ones
    /// overwritten by the channel's next digit; the last frame's spill would overwrite the next channel's first
    /// digit, so its digits are stored byte by byte. (The digits fit `sampleBytes` bytes by the range's
    /// construction, so the additions cannot overflow.)
    @inline(__always)
    private static func storeRecord(_ counts: UnsafeBufferPointer<Int32>, firstFrame: Int, frames: Int,
                                    offsets: [Int32], sampleBytes: Int, into out: UnsafeMutableRawPointer) {
        let channels = offsets.count
        let blockBytes = frames * sampleBytes
        var source = counts.baseAddress! + firstFrame * channels
        if channels == 4 {
            let offset = SIMD4(offsets[0], offsets[1], offsets[2], offsets[3])
            for frame in 0..<(frames - 1) {
                let digits = UnsafeRawPointer(source).loadUnaligned(as: SIMD4<Int32>.self) &+ offset
                let at = frame * sampleBytes
                out.storeBytes(of: UInt32(bitPattern: digits[0]).littleEndian, toByteOffset: at, as: UInt32.self)
                out.storeBytes(of: UInt32(bitPattern: digits[1]).littleEndian, toByteOffset: at + blockBytes, as: UInt32.self)
                out.storeBytes(of: UInt32(bitPattern: digits[2]).littleEndian, toByteOffset: at + 2 * blockBytes, as: UInt32.self)
                out.storeBytes(of: UInt32(bitPattern: digits[3]).littleEndian, toByteOffset: at + 3 * blockBytes, as: UInt32.self)
                source += 4
            }
        } else {
            for frame in 0..<(frames - 1) {
                for channel in 0..<channels {
                    out.storeBytes(of: UInt32(bitPattern: source[channel] &+ offsets[channel]).littleEndian,
                                   toByteOffset: channel * blockBytes + frame * sampleBytes, as: UInt32.self)
                }
                source += channels
            }
        }
        for channel in 0..<channels {
            let digit = UInt32(bitPattern: source[channel] &+ offsets[channel])
            for byte in 0..<sampleBytes {
                out.storeBytes(of: UInt8(truncatingIfNeeded: digit >> (8 * byte)),
                               toByteOffset: channel * blockBytes + (frames - 1) * sampleBytes + byte, as: UInt8.self)
            }
        }
    }

    /// The bytes a chunk buffer holds beyond its records, for ``store(_:from:stride:sampleBytes:into:at:digit:)``.
    private static let storeSlack = 4

    func commit() throws {
        guard let cleanup else { throw SignalFileError.invalidSignal(path: path, reason: "the file was not finished") }
        do { try FileSystem.rename(temporary, to: FilePath(path)) } catch {
            throw SignalFileError.fileSystem(error, path: path)
        }
        cleanup.end()
        self.cleanup = nil
    }

    func discard() {
        worker.sync {}
        scratch?.close()
        scratch = nil
        removeTemporary()
    }

    /// Removes the temporary file, if there is one not yet committed.
    private func removeTemporary() {
        guard let cleanup else { return }
        unlink(temporary.string)
        cleanup.end()
        self.cleanup = nil
    }
}
