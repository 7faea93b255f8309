import BrainTracker
import Foundation
import FuzzSupport
import Tables

/// rt-stats's reading: a BrainTracker `BrainTrackerResultsFile.csv` or a Seth Roberts R export (told apart by
/// the first line, as the tool does) through ``BrainTrackerFormat`` (row grammar, sessions, scores,
/// percentiles) into its tables, with and without `--skip-bad-lines`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrainTracker(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let input = InputSource(path: "fuzz/BrainTrackerResultsFile.csv", contents: data)
    for skipBadLines in [false, true] {
        let format = BrainTrackerFormat(options: .init(skipBadLines: skipBadLines))
        guard let parsed = try? format.read(input) else { continue }
        Fuzz.exercise(format.tables([parsed]).tables)
    }
    return 0
}

@_cdecl("FuzzBrainTracker_main")
public func fuzzBrainTrackerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzBrainTracker)
}
