@testable import Brainiac

/// Decodes a whole capture in memory, in chunks of `chunk` bytes, as bt-decode streams it.
func decodeCapture(_ bytes: [UInt8], byteOrder: ByteOrderChoice = .auto, options: CaptureDecoderOptions = .init(),
                   chunk: Int = 4096) throws -> (samples: [BrainiacSample], stream: CaptureStream) {
    var stream = try CaptureStream(fileSize: bytes.count, byteOrder: byteOrder, options: options)
    var samples: [BrainiacSample] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        samples += try bytes[offset..<end].withUnsafeBytes { try stream.feed($0) }
        offset = end
    }
    samples += try stream.finish()
    return (samples, stream)
}

/// A synthesized capture with the given settings changes.
func synthesize(_ change: (inout CaptureSynthesizer.Settings) -> Void = { _ in }) throws -> ([UInt8], SynthTruth) {
    var settings = CaptureSynthesizer.Settings()
    change(&settings)
    let result = try CaptureSynthesizer(settings).synthesize()
    return (result.bytes, result.truth)
}

/// Bytes decoded plus bytes skipped: must equal the file size.
func accountedBytes(_ stream: CaptureStream) -> Int {
    stream.segments.reduce(0) { $0 + 20 * $1.packets } + stream.events.reduce(0) { $0 + $1.skippedBytes }
}
