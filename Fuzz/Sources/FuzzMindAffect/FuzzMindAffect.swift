import Foundation
import FuzzSupport
import MindAffect
import Tables

/// nt-analyze's reading: a MindAffect hub save file through ``MindAffectFormat`` (line grammar, modes, trials,
/// sample timeline, stimuli, code agreement) into its tables and arrays, with and without `--skip-bad-lines`;
/// and the same bytes as a PMB noise-code table (`--codes FILE.txt`; its check against the Gold-code families,
/// `codes --check`, is left out: it regenerates every family on each call).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMindAffect(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let input = InputSource(path: "fuzz/mindaffectBCI_fuzz_261123_1200.txt", contents: data)
    for skipBadLines in [false, true] {
        let format = MindAffectFormat(options: .init(skipBadLines: skipBadLines))
        guard let parsed = try? format.read(input) else { continue }
        let output = format.tables([parsed])
        Fuzz.exercise(output.tables)
        Fuzz.blackHole(output.arrays.count)
    }
    if let table = try? NoiseCodeTable.parsePMBText(String(decoding: data, as: UTF8.self), sourceFile: "fuzz/codes.txt") {
        Fuzz.blackHole(table.codes.count)
    }
    return 0
}

@_cdecl("FuzzMindAffect_main")
public func fuzzMindAffectMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzMindAffect)
}
