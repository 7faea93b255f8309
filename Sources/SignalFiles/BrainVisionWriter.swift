import Crypto
import FileSystem
import Foundation
import Hashing
import SystemPackage
import Tables

/// Writes one signal as BrainVision Core Data Format 1.0 (docs/bids.md): `<stem>.eeg` (IEEE float32, little
/// endian, multiplexed: one value per channel per sample), `<stem>.vmrk` (the annotations as markers) and
/// `<stem>.vhdr` (the header naming both), all UTF-8.
///
/// Samples go straight to the temporary sibling of the `.eeg` (flat memory); ``finishTemporaries()`` writes the
/// marker file and the header beside it, and ``commit()`` renames the data, the markers and the header last into
/// place. float32 keeps 24
/// significant bits: a value is stored within 2⁻²⁴ of itself (the Brainiac's nV within 1 nV up to 16.7 mV).
final class BrainVisionWriter: SignalFileWriter {
    let path: String
    private let dataPath: FilePath
    private let markerPath: FilePath
    private var temporaries: [FilePath]
    /// The temporaries' removal on a signal, from the start of the signal until they are committed or discarded.
    private var cleanups: [FileSystem.SignalCleanup] = []
    private var description: SignalDescription?
    private var data: FileDescriptor?
    /// Hashes the `.eeg` as it is written; its buffers hold the float32 values on their way to the file.
    private let dataHasher = BackgroundSHA256(bufferSize: 1 << 19)
    private var frames = 0
    private var extremes = ChannelExtremes(channels: 0)
    private var annotations = AnnotationList()

    init(path: String) {
        self.path = path
        let files = SignalFileKind.brainVision.files(for: path)
        dataPath = FilePath(files[0])
        markerPath = FilePath(files[1])
        temporaries = files.map { FileSystem.temporarySibling(of: FilePath($0)) }
    }

    deinit { discard() }

    func begin(_ description: SignalDescription) throws {
        guard self.description == nil else { throw SignalFileError.invalidSignal(path: path, reason: "the signal was started twice") }
        guard !description.channels.isEmpty else { throw SignalFileError.invalidSignal(path: path, reason: "the input has no channels") }
        guard description.samplingRate > 0, description.samplingRate.isFinite else {
            throw SignalFileError.samplingRate(path: path, rate: description.samplingRate)
        }
        self.description = description
        extremes = ChannelExtremes(channels: description.channels.count)
        cleanups = temporaries.map { FileSystem.removeOnSignal($0) }
        do { data = try FileSystem.create(temporaries[0]) } catch {
            discard()
            throw SignalFileError.cannotWrite(path: dataPath.string, reason: error.reason)
        }
    }

    func append(_ values: UnsafeBufferPointer<Double>, frameCount: Int) throws {
        guard let description, let data else { throw SignalFileError.invalidSignal(path: path, reason: "samples before the signal was started") }
        let channels = description.channels.count
        let count = frameCount * channels
        // A value beyond float32's range would be stored as infinite: as unstorable as one that is not finite.
        let limit = Double(Float.greatestFiniteMagnitude)
        var failed = extremes.include(values, frameCount: frameCount)
        if failed == nil, extremes.low.contains(where: { $0 < -limit }) || extremes.high.contains(where: { $0 > limit }),
           let index = (0..<count).first(where: { abs(values[$0]) > limit }) {
            failed = (index % channels, index / channels)
        }
        if let failed {
            throw SignalFileError.notFinite(path: path, channel: description.channels[failed.channel].label,
                                            sample: frames + failed.frame)
        }
        // x86-64 and arm64 are little-endian: the floats' bytes are the file's.
        do {
            var done = 0
            while done < count {
                try dataHasher.fill({ buffer in
                    let floats = buffer.bindMemory(to: Float.self)
                    let piece = min(floats.count, count - done)
                    for index in 0..<piece { floats[index] = Float(values[done + index]) }
                    done += piece
                    return piece * MemoryLayout<Float>.size
                }, then: { try FileSystem.write($0, to: data, path: temporaries[0]) })
            }
        } catch let error as FileSystemError {
            throw SignalFileError.fileSystem(error, path: dataPath.string)
        } catch {
            throw SignalFileError.writeFailed(path: dataPath.string, reason: "\(error)")
        }
        frames += frameCount
    }

    func annotate(_ annotation: SignalAnnotation) {
        annotations.append(annotation)
    }

    func finishTemporaries() throws -> SignalFileSummary {
        guard let description, let data else { throw SignalFileError.invalidSignal(path: path, reason: "the input gave no signal") }
        guard frames > 0 else { throw SignalFileError.invalidSignal(path: path, reason: "the input has no samples") }
        let notes = annotations.takeInOnsetOrder()
        let dataName = dataPath.lastComponent?.string ?? dataPath.string
        let markerName = markerPath.lastComponent?.string ?? markerPath.string
        let headerBytes = Array(header(description, dataName, markerName).utf8)
        let markerDigest: [UInt8]
        do {
            try FileSystem.sync(data, path: temporaries[0])
            self.data = nil
            try FileSystem.close(data, path: temporaries[0])
            markerDigest = try writeMarkers(notes, description, dataName)
            try FileSystem.replaceAtomically(temporaries[2], with: headerBytes)
        } catch let error as FileSystemError {
            // Named by the file it was for (the hidden temporary's name would mean nothing to the user).
            let file = error.path == temporaries[1] ? markerPath : error.path
            throw SignalFileError.fileSystem(error, path: file.string)
        }
        let channels = description.channels.enumerated().map { index, channel in
            SignalFileSummary.Channel(label: channel.label, type: channel.type, unit: channel.unit, resolution: nil,
                                      exact: false, physicalMinimum: nil, physicalMaximum: nil,
                                      minimum: extremes.low[index], maximum: extremes.high[index])
        }
        return SignalFileSummary(format: SignalFileKind.brainVision.displayName,
                                 files: SignalFileKind.brainVision.files(for: path),
                                 digests: [dataHasher.finalize().digest, markerDigest, Array(SHA256.hash(data: headerBytes))],
                                 samplingRate: description.samplingRate, channels: channels, frames: frames,
                                 paddedFrames: 0, recordDuration: nil, annotations: notes, start: description.start?.iso8601)
    }

    /// The `.vhdr` text. Channel names escape `,` as `\1` (the format's rule); units in UTF-8 (`µV`).
    func header(_ description: SignalDescription, _ dataName: String, _ markerName: String) -> String {
        var lines = [
            "Brain Vision Data Exchange Header File Version 1.0",
            "; Written by BrainBatch",
            "",
            "[Common Infos]",
            "Codepage=UTF-8",
            "DataFile=\(dataName)",
            "MarkerFile=\(markerName)",
            "DataFormat=BINARY",
            "; Data orientation: MULTIPLEXED=ch1,pt1, ch2,pt1 ...",
            "DataOrientation=MULTIPLEXED",
            "NumberOfChannels=\(description.channels.count)",
            "; Sampling interval in microseconds",
            "SamplingInterval=\(formatNumber(1_000_000 / description.samplingRate, maxFractionDigits: 9))",
            "",
            "[Binary Infos]",
            "BinaryFormat=IEEE_FLOAT_32",
            "",
            "[Channel Infos]",
            "; Each entry: Ch<Channel number>=<Name>,<Reference channel name>,<Resolution in \"Unit\">,<Unit>",
        ]
        for (index, channel) in description.channels.enumerated() {
            let name = channel.label.replacingOccurrences(of: ",", with: "\\1")
            lines.append("Ch\(index + 1)=\(name),,1,\(Self.unit(channel.unit))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `.vmrk` text: a `New Segment` at the first sample (with the start time when known), then each
    /// annotation as a `Comment` marker at its nearest sample (1-based), lasting its duration in samples.
    /// Writes the `.vmrk` into its temporary file, flushed to disk, a block of lines at a time (a faulty 10-hour
    /// capture has 300,000 markers: made whole, their text took 60 MB), and returns its SHA-256.
    func writeMarkers(_ notes: [SignalAnnotation], _ description: SignalDescription,
                      _ dataName: String) throws -> [UInt8] {
        let path = temporaries[1]
        let file = try FileSystem.create(path)
        var hasher = SHA256()
        var block: [UInt8] = []
        let blockBytes = 1 << 16
        block.reserveCapacity(blockBytes + 1024)
        do {
            func flush() throws {
                hasher.update(data: block)
                try FileSystem.write(block, to: file, path: path)
                block.removeAll(keepingCapacity: true)
            }
            try markerLines(notes, description, dataName) { line in
                block += line.utf8
                block.append(UInt8(ascii: "\n"))
                if block.count >= blockBytes { try flush() }
            }
            try flush()
            try FileSystem.sync(file, path: path)
        } catch {
            try? file.close()
            throw error
        }
        try FileSystem.close(file, path: path)
        return Array(hasher.finalize())
    }

    /// The `.vmrk` text, a line at a time (without its line end) to `line`.
    func markerLines(_ notes: [SignalAnnotation], _ description: SignalDescription, _ dataName: String,
                     _ line: (String) throws -> Void) rethrows {
        let lines = [
            "Brain Vision Data Exchange Marker File, Version 1.0",
            "",
            "[Common Infos]",
            "Codepage=UTF-8",
            "DataFile=\(dataName)",
            "",
            "[Marker Infos]",
            "; Each entry: Mk<Marker number>=<Type>,<Description>,<Position in data points>,<Size in data points>,<Channel number (0 = marker is related to all channels)>",
        ]
        for text in lines { try line(text) }
        var segment = "Mk1=New Segment,,1,1,0"
        if let start = description.start {
            let micro = Int((start.second * 1_000_000).rounded())
            segment += "," + String(format: "%04d%02d%02d%02d%02d%02d%06d", start.year, start.month, start.day,
                                    start.hour, start.minute, micro / 1_000_000, micro % 1_000_000)
        }
        try line(segment)
        for (index, note) in notes.enumerated() {
            let position = Int((note.onset * description.samplingRate).rounded()) + 1
            let size = max(1, Int((note.duration * description.samplingRate).rounded()))
            let text = note.description.replacingOccurrences(of: ",", with: "\\1")
            try line("Mk\(index + 2)=Comment,\(text),\(position),\(size),0")
        }
    }

    /// BrainVision's spelling of a unit (`uV` → `µV`).
    static func unit(_ unit: String) -> String {
        unit == "uV" ? "µV" : unit
    }

    func commit() throws {
        guard description != nil, data == nil, !cleanups.isEmpty else {
            throw SignalFileError.invalidSignal(path: path, reason: "the files were not finished")
        }
        do {
            try FileSystem.rename(temporaries[0], to: dataPath)
            try FileSystem.rename(temporaries[1], to: markerPath)
            try FileSystem.rename(temporaries[2], to: FilePath(path))
        } catch {
            throw SignalFileError.fileSystem(error, path: error.path.string)
        }
        cleanups.forEach { $0.end() }
        cleanups = []
    }

    func discard() {
        if let data { try? data.close() }
        data = nil
        guard !cleanups.isEmpty else { return }
        for file in temporaries { unlink(file.string) }
        cleanups.forEach { $0.end() }
        cleanups = []
    }
}
