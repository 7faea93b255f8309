import FileSystem
import Foundation
import SystemPackage
import Tables

/// Where ``EDFWriter`` keeps a signal's values until every channel's range is known, and each channel's extremes.
///
/// The first ``defaultMemoryLimit`` bytes of values stay in memory (a 1-hour Brainiac capture's 14.4 MB of counts): no
/// file is written or read back for them. A longer signal spills to a scratch file beside the destination,
/// unlinked as soon as it is open (the system removes it whatever happens), written in blocks and read back a
/// chunk of records at a time, so memory stays flat whatever the length.
///
/// Values are stored as ``ScratchEncoding`` says: float64, or 32-bit counts of grid steps. Used from one thread at
/// a time (the writer's worker while frames come, the writer once they are all in).
final class SignalScratch: @unchecked Sendable {
    /// The destination, for messages.
    let path: String
    let channels: [SignalChannel]
    let encoding: ScratchEncoding
    private(set) var extremes: ChannelExtremes
    /// Frames taken in.
    private(set) var frames = 0
    private var file: FileDescriptor?
    /// Values not in the file: all of them until the scratch spills, then the next block to write.
    private var pending: HugePageBuffer?
    private var pendingBytes = 0

    /// Values gathered before a write to the file, once there is one (64k values, 256 or 512 KiB).
    private static let bufferValues = 1 << 16
    /// The bytes of values kept in memory before they spill to a file, unless a test asks for fewer (16 MiB).
    static let defaultMemoryLimit = 16 << 20
    let memoryLimit: Int

    /// A scratch for the destination `path` of a file of `kind`; its file, if it needs one, goes beside `path`.
    init(beside path: String, kind: SignalFileKind, channels: [SignalChannel],
         memoryLimit: Int = SignalScratch.defaultMemoryLimit) {
        self.path = path
        self.channels = channels
        self.memoryLimit = memoryLimit
        encoding = ScratchEncoding(kind: kind, channels: channels)
        extremes = ChannelExtremes(channels: channels.count)
        // Room for every value kept in memory (pages are only taken as they are written; see HugePageBuffer).
        pending = HugePageBuffer(byteCount: memoryLimit)
    }

    deinit { close() }

    /// Takes in `frameCount` frames (frame-major): their extremes, then their values.
    func append(_ values: UnsafeBufferPointer<Double>, frameCount: Int) throws {
        let channelCount = channels.count
        if let failed = extremes.include(values, frameCount: frameCount) {
            throw SignalFileError.notFinite(path: path, channel: channels[failed.channel].label,
                                            sample: frames + failed.frame)
        }
        if case .gridCounts(let stepsPerUnit) = encoding {
            // More than 2^31 grid steps from 0 (2.1 V at 1 nV) does not fit the count, nor any BDF range on this grid.
            let limit = Double(Int32.max) / stepsPerUnit
            if let channel = (0..<channelCount).first(where: { extremes.low[$0] < -limit || extremes.high[$0] > limit }) {
                throw SignalFileError.rangeTooWide(path: path, channel: channels[channel].label,
                                                   low: extremes.low[channel], high: extremes.high[channel])
            }
        }
        try store(frameCount: frameCount) { target, first, count in
            switch encoding {
            case .float64:
                target.copyMemory(from: values.baseAddress! + first, byteCount: count * 8)
            case .gridCounts(let stepsPerUnit):
                let counts = target.bindMemory(to: Int32.self, capacity: count)
                for index in 0..<count {
                    counts[index] = PhysicalRange.nearestCount(values[first + index] * stepsPerUnit)
                }
            }
        }
    }

    /// Takes in `frameCount` frames (frame-major) of counts of the scratch's own grid (its encoding must be
    /// ``ScratchEncoding/gridCounts(stepsPerUnit:)``): their extremes, then the counts as they are.
    func append(counts: UnsafeBufferPointer<Int32>, frameCount: Int) throws {
        guard case .gridCounts(let stepsPerUnit) = encoding else {
            throw SignalFileError.invalidSignal(path: path, reason: "grid counts for a scratch of float64 values")
        }
        extremes.include(counts: counts, frameCount: frameCount, stepsPerUnit: stepsPerUnit)
        try store(frameCount: frameCount) { target, first, count in
            target.copyMemory(from: counts.baseAddress! + first, byteCount: count * 4)
        }
    }

    /// Stores the values of `frameCount` frames after those taken in so far, in memory or, once the scratch has
    /// spilled, through its write buffer: `copy(target, first, count)` puts values `first..<first + count` of the
    /// frames, in the scratch's encoding, at `target`.
    private func store(frameCount: Int, _ copy: (UnsafeMutableRawPointer, Int, Int) -> Void) throws {
        let count = frameCount * channels.count, valueBytes = encoding.bytesPerValue
        // Spilled before the values that would pass the limit are added, so memory holds at most the limit.
        if file == nil, pendingBytes + count * valueBytes > memoryLimit { try spill() }
        var done = 0
        while done < count {
            guard let pending else { throw SignalFileError.writeFailed(path: path, reason: "the scratch was closed") }
            let room = (pending.bytes.count - pendingBytes) / valueBytes
            if room == 0 {
                // Only once there is a file: in memory the check above left room for the whole batch.
                if file == nil { try spill() } else { try flush() }
                continue
            }
            let piece = min(room, count - done)
            copy(pending.bytes.baseAddress! + pendingBytes, done, piece)
            pendingBytes += piece * valueBytes
            done += piece
        }
        frames += frameCount
        if file != nil, pendingBytes >= Self.bufferValues * valueBytes { try flush() }
    }

    /// Writes the values held in memory to the file, opening it first if the scratch has none yet.
    func spill() throws {
        if file == nil {
            let scratchPath = FileSystem.temporarySibling(of: FilePath(path + ".samples"))
            do {
                file = try FileDescriptor.open(scratchPath, .readWrite, options: [.create, .truncate, .closeOnExec],
                                               permissions: [.ownerReadWrite])
                unlink(scratchPath.string)
            } catch {
                throw SignalFileError.cannotWrite(path: path, reason: "\(error)")
            }
        }
        try flush()
        // Back to blocks of the write size: what memory held is in the file now.
        pending = HugePageBuffer(byteCount: Self.bufferValues * encoding.bytesPerValue)
    }

    /// Once the scratch has a file: writes the values gathered so far to it (before reading back). Without one,
    /// the values stay where they are, in memory.
    func flush() throws {
        guard let file, let pending, pendingBytes > 0 else { return }
        do {
            _ = try file.writeAll(UnsafeRawBufferPointer(rebasing: pending.bytes[0..<pendingBytes]))
        } catch {
            throw SignalFileError.writeFailed(path: path, reason: "\(error)")
        }
        pendingBytes = 0
    }

    /// Fills `buffer` with the values from frame `first` on (flushed before).
    func read(fromFrame first: Int, into buffer: UnsafeMutableRawBufferPointer) throws {
        let offset = first * channels.count * encoding.bytesPerValue
        guard let file else {
            // Everything is in memory.
            guard let pending, offset >= 0, offset + buffer.count <= pendingBytes else {
                throw SignalFileError.writeFailed(path: path, reason: "the scratch ended early")
            }
            if buffer.count > 0 {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: pending.bytes[offset..<(offset + buffer.count)]))
            }
            return
        }
        var done = 0
        while done < buffer.count {
            let read: Int
            do {
                read = try file.read(fromAbsoluteOffset: Int64(offset + done),
                                     into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            } catch {
                throw SignalFileError.writeFailed(path: path, reason: "reading the scratch file back: \(error)")
            }
            guard read > 0 else { throw SignalFileError.writeFailed(path: path, reason: "the scratch file ended early") }
            done += read
        }
    }

    /// The values of `frameCount` frames from frame `first` on, where they lie in memory; `nil` once the scratch
    /// has spilled to its file (read them with ``read(fromFrame:into:)``). Valid until ``close()``.
    func valuesInMemory(fromFrame first: Int, frameCount: Int) -> UnsafeRawBufferPointer? {
        let frameBytes = channels.count * encoding.bytesPerValue
        guard file == nil, let pending, first >= 0, frameCount >= 0,
              (first + frameCount) * frameBytes <= pendingBytes else { return nil }
        return UnsafeRawBufferPointer(rebasing: pending.bytes[(first * frameBytes)..<((first + frameCount) * frameBytes)])
    }

    /// Closes (and so removes) the file, and lets go of the values in memory.
    func close() {
        try? file?.close()
        file = nil
        pending = nil
        pendingBytes = 0
    }
}
