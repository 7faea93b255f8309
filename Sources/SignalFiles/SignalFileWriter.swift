import FileSystem
import Foundation
import Tables

/// A writer of one signal file: a ``SignalSink`` that writes into temporary files beside the destination
/// (registered for removal on SIGINT, SIGTERM and SIGHUP), completes them on ``finishTemporaries()`` and puts them in
/// place on ``commit()`` (the data first, a BrainVision header last); ``discard()`` removes them.
///
/// A writer may take frames in on a thread of its own (EDF and BDF do): an error about some frames (a value that
/// is not finite) is then thrown by a later ``SignalSink/append(_:frameCount:)`` or by ``finishTemporaries()``,
/// with the same message, and nothing is put in place.
public protocol SignalFileWriter: SignalSink {
    /// Writes what is still to write into the temporary files and flushes them to the disk; nothing is in place
    /// yet (the caller writes its sidecar beside them first).
    func finishTemporaries() throws -> SignalFileSummary
    /// Renames the finished temporary files into place. Call it inside ``FileSystem/deferringSignals(_:)``, with
    /// the renames of the files that go with them.
    func commit() throws
    /// Removes every temporary file (a failed or abandoned run); the destination is untouched.
    func discard()
}

extension SignalFileWriter {
    /// ``finishTemporaries()`` and ``commit()``, the renames not cut by a signal: for a signal file without a sidecar.
    public func finish() throws -> SignalFileSummary {
        let summary = try finishTemporaries()
        try FileSystem.deferringSignals { try commit() }
        return summary
    }
}

/// Opens the writer for `-o path`.
public func makeSignalFileWriter(_ kind: SignalFileKind, path: String) -> SignalFileWriter {
    switch kind {
    case .edf, .bdf: EDFWriter(path: path, kind: kind)
    case .brainVision: BrainVisionWriter(path: path)
    }
}

/// What was written: for the stderr summary, the provenance sidecar and the BIDS sidecars.
public struct SignalFileSummary: Sendable, Equatable, Encodable {
    /// One channel as stored.
    public struct Channel: Sendable, Equatable, Encodable {
        public var label: String
        public var type: String
        public var unit: String
        /// Physical units per stored step (EDF/BDF); `nil` for BrainVision's float32.
        public var resolution: Double?
        /// Whether every value is stored exactly (its grid equals the resolution).
        public var exact: Bool
        public var physicalMinimum: Int?
        public var physicalMaximum: Int?
        /// The smallest and largest value written.
        public var minimum: Double?
        public var maximum: Double?

        enum CodingKeys: String, CodingKey {
            case label, type, unit, resolution, exact, physicalMinimum = "physical_minimum"
            case physicalMaximum = "physical_maximum", minimum, maximum
        }
    }

    public var format: String
    /// The files written, as paths given (data first).
    public var files: [String]
    /// The SHA-256 of each of ``files`` (32 bytes each), hashed from the bytes as they were written.
    public var digests: [[UInt8]]
    public var samplingRate: Double
    public var channels: [Channel]
    /// Frames of real data (the padding of a last EDF record not counted).
    public var frames: Int
    /// Frames added to complete the last EDF/BDF data record (a copy of the last frame; annotated `BAD_padding`).
    public var paddedFrames: Int
    /// Seconds per EDF data record; `nil` for BrainVision.
    public var recordDuration: Double?
    /// Every annotation written, in onset order.
    public var annotations: [SignalAnnotation]
    /// The recording's start as the file states it (ISO 8601, no zone: the input's clock), when known.
    public var start: String?

    enum CodingKeys: String, CodingKey {
        case format, files, samplingRate = "sampling_rate_hz", channels, frames, paddedFrames = "padded_frames"
        case recordDuration = "record_duration_s", annotations, start
    }

    /// One line for stderr: channels, samples, rate, resolution, annotations.
    public var line: String {
        let rate = samplingRate == samplingRate.rounded() ? String(Int(samplingRate)) : String(samplingRate)
        var text = "\(files.last ?? ""): \(format), \(channels.count) channels × \(frames) samples at \(rate) Hz"
        let steps = Set(channels.compactMap(\.resolution))
        if let step = steps.max() {
            let unit = channels.first?.unit ?? ""
            let exact = channels.allSatisfy(\.exact)
            text += exact ? ", exact (\(formatNumber(step)) \(unit) steps)"
                : ", resolution \(steps.count > 1 ? "up to " : "")\(formatNumber(step)) \(unit)"
        }
        if paddedFrames > 0 { text += ", last record padded by \(paddedFrames) samples" }
        text += ", \(annotations.count) annotation\(annotations.count == 1 ? "" : "s")"
        return text
    }
}

extension SignalStart {
    /// `yyyy-MM-ddTHH:mm:ss` with the fraction of a second when there is one.
    var iso8601: String {
        let whole = Int(second.rounded(.down))
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, whole)
        let micro = Int(((second - Double(whole)) * 1_000_000).rounded())
        if micro > 0 { text += String(format: ".%06d", micro) }
        return text
    }
}
