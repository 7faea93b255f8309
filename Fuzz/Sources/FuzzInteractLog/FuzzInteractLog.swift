import Foundation
import FuzzSupport
import InteractLog
import Tables

/// The iPad log of SampleData that the sidecar inputs are paired with.
private let ipadLogPath = "experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt"
private let ipadLog = Fuzz.sample("interactlog/" + ipadLogPath)

/// ilog-parse's reading: an InteractLog log through ``InteractLogFormat`` (header, event grammar, strokes, keys,
/// stimulus views, the trial analysis) into its tables, with and without `--skip-bad-lines`.
///
/// An input starting with `{` is an iPad app's `InteractLog.json` sidecar instead, read beside the iPad log of
/// SampleData (the join of the log's events with the sidecar's actions).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInteractLog(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let isSidecar = data.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{")
    let folder = "fuzz/6610E5B7-1005-4295-9B04-BD9A46F1454F/"
    let logPath = folder + "P07 (Trial 1) 2023-10-17 - 14-02-11.txt"
    let input = isSidecar
        ? InputSource(path: logPath, contents: ipadLog, companions: [folder + "InteractLog.json": data])
        : InputSource(path: logPath, contents: data)
    for skipBadLines in [false, true] {
        let format = InteractLogFormat(options: .init(skipBadLines: skipBadLines))
        guard let parsed = try? format.read(input) else { continue }
        // Twice, as two logs of one participant's trial: the checks across logs too.
        Fuzz.exercise(format.tables([parsed, parsed]).tables)
    }
    return 0
}

@_cdecl("FuzzInteractLog_main")
public func fuzzInteractLogMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzInteractLog)
}
