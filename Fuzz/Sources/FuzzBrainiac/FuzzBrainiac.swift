import Brainiac
import Foundation
import FuzzSupport
import Tables

/// bt-decode's reading: a Brainiac capture streamed through ``CaptureFormat`` (decoder, byte-order detection,
/// SDK analysis, band power) into its tables.
///
/// The input is the capture. Its last byte also chooses the options, so that a capture keeps its options while
/// the rest of it is mutated: bits 0–1 `--byte-order` (auto, be, le, mixed); bits 2–3 the analysis (none; the
/// defaults; or a baseline at the earliest start with a delay of 0 or 250 samples and 1-s band-power windows, so
/// that the baseline and indicators are reached within a short input); bit 4 `--gaps fill`; bit 5 `--no-split`;
/// bits 6–7 the chunk size the capture is streamed in (as asked, 4096, 97 or 20 bytes: chunk boundaries inside
/// packets, as in a long capture).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrainiac(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let selector = Int(data.last ?? 0)
    let order = ByteOrderChoice.allCases[selector & 3]
    let analysis: BrainiacAnalysisOptions?
    switch (selector >> 2) & 3 {
    case 0: analysis = nil
    case 1: analysis = BrainiacAnalysisOptions()
    case 2: analysis = BrainiacAnalysisOptions(baselineDelay: 0, indicatorRules: .corrected, windowSeconds: 1)
    default: analysis = BrainiacAnalysisOptions(baselineDelay: 250, indicatorRules: .sdk, windowSeconds: 1)
    }
    let decoder = CaptureDecoderOptions(splitSegments: selector & 32 == 0, gaps: selector & 16 == 0 ? .sdk : .fill)
    let chunk = [0, 4096, 97, 20][selector >> 6]
    let path = "fuzz/capture.bin"
    let format = CaptureFormat(options: .init(byteOrder: order, decoder: decoder, analysis: analysis), inputs: [path])
    let input = InputSource(path: path, reader: InputSource.Reader(
        contents: { data },
        size: { data.count },
        stream: { asked, body in
            let size = chunk == 0 ? max(1, asked) : chunk
            try data.withUnsafeBytes { bytes in
                var from = 0
                repeat {
                    let to = min(bytes.count, from + size)
                    try body(UnsafeRawBufferPointer(rebasing: bytes[from..<to]))
                    from = to
                } while from < bytes.count
            }
        },
        companion: { _ in nil }))
    var batches: [Table] = []
    let decoded = try? format.read(input) { batches.append($0) }
    Fuzz.exercise(batches)
    Fuzz.exercise(format.tables(decoded.map { [$0] } ?? []).tables)
    return 0
}

@_cdecl("FuzzBrainiac_main")
public func fuzzBrainiacMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzBrainiac)
}
