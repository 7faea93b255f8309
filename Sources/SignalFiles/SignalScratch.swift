import FileSystem
import Foundation
import SystemPackage
import Tables

/// Where ``EDFWriter`` keeps a signal's values until every channel's range is known: a scratch file beside the
/// destination, unlinked as soon as it is open (the system removes it whatever happens), written in blocks and
/// read back a chunk of records at a time; and each channel's extremes.
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
    private var doubles: [Double] = []
    private var counts: [Int32] = []

    /// Values gathered before a write to the file (64k values, 256 or 512 KiB).
    private static let bufferValues = 1 << 16

    /// Opens the scratch file beside `path`, the destination of a file of `kind`.
    init(beside path: String, kind: SignalFileKind, channels: [SignalChannel]) throws {
        self.path = path
        self.channels = channels
        encoding = ScratchEncoding(kind: kind, channels: channels)
        extremes = ChannelExtremes(channels: channels.count)
        let scratchPath = FileSystem.temporarySibling(of: FilePath(path + ".samples"))
        do {
            file = try FileDescriptor.open(scratchPath, .readWrite, options: [.create, .truncate, .closeOnExec],
                                           permissions: [.ownerReadWrite])
            unlink(scratchPath.string)
        } catch {
            throw SignalFileError.cannotWrite(path: path, reason: "\(error)")
        }
        switch encoding {
        case .float64: doubles.reserveCapacity(Self.bufferValues + channels.count)
        case .gridCounts: counts.reserveCapacity(Self.bufferValues + channels.count)
        }
    }

    deinit { close() }

    /// Takes in `frameCount` frames (frame-major): their extremes, then their values.
    func append(_ values: UnsafeBufferPointer<Double>, frameCount: Int) throws {
        let channelCount = channels.count
        if let failed = extremes.include(values, frameCount: frameCount) {
            throw SignalFileError.notFinite(path: path, channel: channels[failed.channel].label,
                                            sample: frames + failed.frame)
        }
        let count = frameCount * channelCount
        switch encoding {
        case .float64:
            doubles.append(contentsOf: values.prefix(count))
        case .gridCounts(let stepsPerUnit):
            // More than 2^31 grid steps from 0 (2.1 V at 1 nV) does not fit the count, nor any BDF range on this grid.
            let limit = Double(Int32.max) / stepsPerUnit
            if let channel = (0..<channelCount).first(where: { extremes.low[$0] < -limit || extremes.high[$0] > limit }) {
                throw SignalFileError.rangeTooWide(path: path, channel: channels[channel].label,
                                                   low: extremes.low[channel], high: extremes.high[channel])
            }
            let start = counts.count
            counts.append(contentsOf: repeatElement(0, count: count))
            counts.withUnsafeMutableBufferPointer { counts in
                for index in 0..<count {
                    counts[start + index] = PhysicalRange.nearestCount(values[index] * stepsPerUnit)
                }
            }
        }
        frames += frameCount
        if doubles.count + counts.count >= Self.bufferValues { try flush() }
    }

    /// Writes the values gathered so far to the file.
    func flush() throws {
        guard let file else { return }
        do {
            if !doubles.isEmpty { _ = try doubles.withUnsafeBytes { try file.writeAll($0) } }
            if !counts.isEmpty { _ = try counts.withUnsafeBytes { try file.writeAll($0) } }
        } catch {
            throw SignalFileError.cannotWrite(path: path, reason: "\(error)")
        }
        doubles.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
    }

    /// Fills `buffer` with the values from frame `first` on (flushed before).
    func read(fromFrame first: Int, into buffer: UnsafeMutableRawBufferPointer) throws {
        guard let file else { throw SignalFileError.cannotWrite(path: path, reason: "the scratch file is closed") }
        let offset = first * channels.count * encoding.bytesPerValue
        var done = 0
        while done < buffer.count {
            let read = try file.read(fromAbsoluteOffset: Int64(offset + done),
                                     into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            guard read > 0 else { throw SignalFileError.cannotWrite(path: path, reason: "the scratch file ended early") }
            done += read
        }
    }

    /// Closes (and so removes) the file.
    func close() {
        try? file?.close()
        file = nil
    }
}
