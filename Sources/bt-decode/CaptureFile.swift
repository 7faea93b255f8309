import Brainiac
import Foundation
import Tables
import ToolSupport

/// Reading one capture file from disk through a ``CaptureStream``: the I/O edge of `bt-decode`.
struct CaptureFile {
    var record: InputRecord
    var events: [CaptureEvent]
    var recordings: Table
    var summary: String

    /// Streams the file once (hashing it on the way), handing decoded samples to `emit` in batches.
    static func decode(_ path: String, byteOrder: ByteOrderChoice, options: CaptureDecoderOptions,
                       progress: ProgressBar, emit: ([BrainiacSample]) throws -> Void) throws -> CaptureFile {
        try InputFile.checkReadable(path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        do {
            var stream = try CaptureStream(fileSize: size, byteOrder: byteOrder, options: options)
            // Whole packets per chunk, so that a clean capture decodes into batches of one length.
            let record = try InputFile.stream(path, chunkSize: 13_107 * BrainiacPacket.size) { chunk in
                let samples = try stream.feed(chunk)
                if !samples.isEmpty { try emit(samples) }
                progress.advance(bytes: chunk.count)
            }
            let last = try stream.finish()
            if !last.isEmpty { try emit(last) }
            let decision = stream.decision
            let finite = { (value: Double?) in value.flatMap { $0.isFinite ? $0 : nil } }
            let order = decision?.byteOrder ?? .be
            let recordings = CaptureTables.recordings(stream.segments, sourceFile: path, byteOrder: order,
                                                      scoreLE: finite(decision?.scoreLE),
                                                      scoreMixed: finite(decision?.scoreMixed))
            return CaptureFile(record: record, events: stream.events, recordings: recordings,
                               summary: summaryLine(path, stream.segments, order))
        } catch let error as CaptureDecodingError {
            throw ToolError.badInput("\(path): \(error.message)")
        }
    }

    /// One line: packets, samples, lost samples and %, wraps, byte order, segments (spec §2.3).
    static func summaryLine(_ path: String, _ segments: [CaptureSegment], _ order: BrainiacByteOrder) -> String {
        let packets = segments.reduce(0) { $0 + $1.packets }
        let samples = segments.reduce(0) { $0 + $1.samples }
        let lost = segments.reduce(0) { $0 + $1.lostSamples }
        let wraps = segments.reduce(0) { $0 + $1.wraps }
        let percent = samples + lost > 0 ? 100 * Double(lost) / Double(samples + lost) : 0
        return "\(path): \(packets) packets, \(samples) samples, \(lost) lost samples ("
            + String(format: "%.2f", percent) + " %), \(wraps) wraps, byte order \(order.rawValue), "
            + "\(segments.count) segment\(segments.count == 1 ? "" : "s")"
    }
}
