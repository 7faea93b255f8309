import FuzzSupport
import MindAffect

/// nt-analyze's line parser alone (``SaveFile/parse(_:sourceFile:skipBadLines:)``: the line grammar, message
/// kinds, DATAPACKET samples), with and without `--skip-bad-lines`, without the analysis and the tables of
/// ``FuzzMindAffect``.
///
/// Checks what the parser promises: the samples are whole (`channelCount` values each), and a file accepted
/// without `--skip-bad-lines` gives the same messages and samples with it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMindAffectParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let path = "fuzz/mindaffectBCI_fuzz_261123_1200.txt"
    let strict = try? SaveFile.parse(data, sourceFile: path, skipBadLines: false)
    let lenient = try? SaveFile.parse(data, sourceFile: path, skipBadLines: true)
    for file in [strict, lenient].compactMap({ $0 }) {
        if let channels = file.channelCount, channels <= 0 || file.sampleValues.count % channels != 0 {
            fatalError("\(file.sampleValues.count) sample values in packets of \(channels) channels")
        }
    }
    if let strict {
        guard let lenient, lenient.messages.count == strict.messages.count,
              lenient.sampleValues.count == strict.sampleValues.count else {
            fatalError("a save file read without --skip-bad-lines reads differently with it")
        }
    }
    return 0
}

@_cdecl("FuzzMindAffectParser_main")
public func fuzzMindAffectParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzMindAffectParser)
}
