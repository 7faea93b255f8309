import FileSystem
import Foundation
import SystemPackage
import Tables

/// Writes one signal as EDF+ or BDF+ (docs/bids.md), streaming in flat memory.
///
/// The physical range of each channel can only be chosen once every value is known (``PhysicalRange``: nothing
/// clips, the resolution is as fine as the format allows), so frames first go to a scratch file of float64 values
/// beside the destination (unlinked at once: the system removes it whatever happens). ``finish()`` then writes
/// the header and the data records, each with its annotation bytes, into the temporary sibling
/// (`.<name>.tmp-<pid>`) record by record, flushes it and renames it over the destination.
///
/// Records last 1 s when the rate is a whole number of Hz (else the shortest whole number of seconds holding a
/// whole number of samples, up to 60 s). The last record is completed with copies of the last frame, annotated
/// `BAD_padding`.
final class EDFWriter: SignalFileWriter {
    let path: String
    let kind: SignalFileKind
    private var description: SignalDescription?
    private var scratch: FileDescriptor?
    private var scratchBuffer: [Double] = []
    private var frames = 0
    private var low: [Double] = []
    private var high: [Double] = []
    private var annotations: [SignalAnnotation] = []
    private var temporary: FilePath

    /// Frames gathered before a write to the scratch file (64k values, 512 KiB).
    private static let bufferValues = 1 << 16

    init(path: String, kind: SignalFileKind) {
        self.path = path
        self.kind = kind
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
        self.description = description
        low = [Double](repeating: .infinity, count: description.channels.count)
        high = [Double](repeating: -.infinity, count: description.channels.count)
        let scratchPath = FileSystem.temporarySibling(of: FilePath(path + ".samples"))
        do {
            let file = try FileDescriptor.open(scratchPath, .readWrite, options: [.create, .truncate, .closeOnExec],
                                               permissions: [.ownerReadWrite])
            scratch = file
            unlink(scratchPath.string)
        } catch {
            throw SignalFileError.cannotWrite(path: path, reason: "\(error)")
        }
        scratchBuffer.reserveCapacity(Self.bufferValues + description.channels.count)
    }

    func append(_ values: UnsafeBufferPointer<Double>, frameCount: Int) throws {
        guard let description else { throw SignalFileError.invalidSignal(path: path, reason: "samples before the signal was started") }
        let channels = description.channels.count
        var failed: (channel: Int, frame: Int)?
        low.withUnsafeMutableBufferPointer { low in
            high.withUnsafeMutableBufferPointer { high in
                for frame in 0..<frameCount {
                    for channel in 0..<channels {
                        let value = values[frame * channels + channel]
                        if !value.isFinite { failed = (channel, frame); return }
                        if value < low[channel] { low[channel] = value }
                        if value > high[channel] { high[channel] = value }
                    }
                }
            }
        }
        if let failed {
            throw SignalFileError.notFinite(path: path, channel: description.channels[failed.channel].label,
                                            sample: frames + failed.frame)
        }
        scratchBuffer.append(contentsOf: values.prefix(frameCount * channels))
        frames += frameCount
        if scratchBuffer.count >= Self.bufferValues { try flushScratch() }
    }

    func annotate(_ annotation: SignalAnnotation) {
        annotations.append(annotation)
    }

    private func flushScratch() throws {
        guard let scratch, !scratchBuffer.isEmpty else { return }
        do {
            _ = try scratchBuffer.withUnsafeBytes { try scratch.writeAll($0) }
        } catch {
            throw SignalFileError.cannotWrite(path: path, reason: "\(error)")
        }
        scratchBuffer.removeAll(keepingCapacity: true)
    }

    /// Samples per record and the record's duration for a rate.
    private func recordLayout(_ rate: Double) throws -> (samples: Int, seconds: Double) {
        for seconds in 1...60 {
            let samples = rate * Double(seconds)
            if abs(samples - samples.rounded()) < 1e-6 * samples { return (Int(samples.rounded()), Double(seconds)) }
        }
        throw SignalFileError.samplingRate(path: path, rate: rate)
    }

    func finish() throws -> SignalFileSummary {
        guard let description, let scratch else {
            throw SignalFileError.invalidSignal(path: path, reason: "the input gave no signal")
        }
        guard frames > 0 else { throw SignalFileError.invalidSignal(path: path, reason: "the input has no samples") }
        try flushScratch()
        let channels = description.channels
        let (perRecord, seconds) = try recordLayout(description.samplingRate)
        let recordCount = (frames + perRecord - 1) / perRecord
        let padded = recordCount * perRecord - frames
        var ranges: [PhysicalRange] = []
        for (index, channel) in channels.enumerated() {
            guard let range = PhysicalRange(low: low[index], high: high[index], bits: kind.bits, grid: channel.grid) else {
                throw SignalFileError.rangeTooWide(path: path, channel: channel.label, low: low[index], high: high[index])
            }
            ranges.append(range)
        }
        var notes = annotations.inOnsetOrder()
        if padded > 0 {
            notes.append(SignalAnnotation(onset: Double(frames) / description.samplingRate,
                                          duration: Double(padded) / description.samplingRate,
                                          description: "BAD_padding"))
        }
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
        do { output = try FileSystem.create(temporary) } catch {
            throw SignalFileError.cannotWrite(path: path, reason: error.reason)
        }
        do {
            try FileSystem.write(header.bytes, to: output, path: temporary)
            // Records in chunks of about 1 MiB of scratch.
            let count = channels.count
            let chunkRecords = max(1, (1 << 17) / (perRecord * count))
            var values = [Double](repeating: 0, count: chunkRecords * perRecord * count)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(chunkRecords * (perRecord * count * sampleBytes + layout.bytesPerRecord))
            var record = 0
            while record < recordCount {
                let records = min(chunkRecords, recordCount - record)
                let firstFrame = record * perRecord
                let available = min(records * perRecord, frames - firstFrame)
                try values.withUnsafeMutableBytes { buffer in
                    let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(available * count * 8)])
                    var done = 0
                    while done < wanted.count {
                        let read = try scratch.read(fromAbsoluteOffset: Int64(firstFrame * count * 8 + done),
                                                    into: UnsafeMutableRawBufferPointer(rebasing: wanted[done...]))
                        guard read > 0 else { throw SignalFileError.cannotWrite(path: path, reason: "the scratch file ended early") }
                        done += read
                    }
                }
                // The last record: copies of the last frame.
                if available < records * perRecord {
                    for frame in available..<(records * perRecord) {
                        for channel in 0..<count { values[frame * count + channel] = values[(available - 1) * count + channel] }
                    }
                }
                let recordBytes = perRecord * count * sampleBytes
                let annotationBytes = layout.bytesPerRecord
                bytes.removeAll(keepingCapacity: true)
                bytes.append(contentsOf: repeatElement(0, count: records * (recordBytes + annotationBytes)))
                bytes.withUnsafeMutableBufferPointer { out in
                    values.withUnsafeBufferPointer { values in
                        var at = 0
                        for r in 0..<records {
                            for channel in 0..<count {
                                let range = ranges[channel]
                                var index = r * perRecord * count + channel
                                for _ in 0..<perRecord {
                                    let digit = range.digital(values[index])
                                    index += count
                                    out[at] = UInt8(truncatingIfNeeded: digit)
                                    out[at + 1] = UInt8(truncatingIfNeeded: digit >> 8)
                                    if sampleBytes == 3 { out[at + 2] = UInt8(truncatingIfNeeded: digit >> 16) }
                                    at += sampleBytes
                                }
                            }
                            for byte in layout.bytes(record: record + r) {
                                out[at] = byte
                                at += 1
                            }
                        }
                    }
                }
                try FileSystem.write(bytes, to: output, path: temporary)
                record += records
            }
            try FileSystem.sync(output, path: temporary)
            try FileSystem.close(output, path: temporary)
            try FileSystem.rename(temporary, to: FilePath(path))
        } catch let error as FileSystemError {
            try? output.close()
            unlink(temporary.string)
            throw SignalFileError.cannotWrite(path: path, reason: error.reason)
        } catch {
            try? output.close()
            unlink(temporary.string)
            throw error
        }
        try? scratch.close()
        self.scratch = nil
        let summaryChannels = zip(channels, ranges).enumerated().map { index, pair in
            let (channel, range) = pair
            return SignalFileSummary.Channel(
                label: channel.label, type: channel.type, unit: channel.unit, resolution: range.resolution,
                exact: channel.grid.map { abs($0 - range.resolution) <= 1e-9 * $0 } ?? false,
                physicalMinimum: range.physicalMinimum, physicalMaximum: range.physicalMaximum,
                minimum: low[index], maximum: high[index])
        }
        return SignalFileSummary(format: kind.displayName, files: [path], samplingRate: description.samplingRate,
                                 channels: summaryChannels, frames: frames, paddedFrames: padded,
                                 recordDuration: seconds, annotations: notes, start: description.start?.iso8601)
    }

    func discard() {
        if let scratch { try? scratch.close() }
        scratch = nil
        unlink(temporary.string)
    }
}
