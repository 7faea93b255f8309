import Brainiac
import FuzzSupport

/// The Brainiac capture decoder alone (``CaptureStream``: byte-order detection, packet chaining, gaps, resyncs,
/// segments), without the SDK analysis and the tables of ``FuzzBrainiac``: many more executions per second on the
/// part of bt-decode that reads the bytes.
///
/// The input is the capture; its last byte chooses the options as in FuzzBrainiac: bits 0–1 `--byte-order`, bit 4
/// `--gaps fill`, bit 5 `--no-split`, bits 6–7 the chunk size (whole, 4096, 97 or 20 bytes). Checks what the
/// decoder promises: segments in order, within a segment the sample index grows, and a filled sample only under
/// `--gaps fill`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrainiacDecoder(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let selector = Int(data.last ?? 0)
    let order = ByteOrderChoice.allCases[selector & 3]
    let fill = selector & 16 != 0
    let options = CaptureDecoderOptions(splitSegments: selector & 32 == 0, gaps: fill ? .fill : .sdk)
    let chunk = [0, 4096, 97, 20][selector >> 6]
    guard var stream = try? CaptureStream(fileSize: data.count, byteOrder: order, options: options) else { return 0 }
    var samples: [BrainiacSample] = []
    let decoded: Bool = data.withUnsafeBytes { bytes in
        let size = chunk == 0 ? max(1, bytes.count) : chunk
        var from = 0
        do {
            repeat {
                let to = min(bytes.count, from + size)
                samples += try stream.feed(UnsafeRawBufferPointer(rebasing: bytes[from..<to]))
                from = to
            } while from < bytes.count
            samples += try stream.finish()
            return true
        } catch {
            return false
        }
    }
    guard decoded else { return 0 }
    var previous: BrainiacSample?
    for sample in samples {
        if sample.filled && !fill { fatalError("a filled sample under --gaps sdk") }
        if let previous, previous.segment == sample.segment, sample.sampleIndex <= previous.sampleIndex {
            fatalError("sample index \(sample.sampleIndex) after \(previous.sampleIndex) in segment \(sample.segment)")
        }
        if let previous, sample.segment < previous.segment { fatalError("segment \(sample.segment) after \(previous.segment)") }
        previous = sample
    }
    Fuzz.blackHole(stream.events.count)
    return 0
}

@_cdecl("FuzzBrainiacDecoder_main")
public func fuzzBrainiacDecoderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzBrainiacDecoder)
}
