import FuzzSupport
import InteractLog

/// ilog-parse's line parser alone (``ParsedLog/parse(_:sourceFile:skipBadLines:)``: encoding, header, event
/// grammar of both programs, anomalies), with and without `--skip-bad-lines`, without the trial analysis and the
/// tables of ``FuzzInteractLog``: many more executions per second on the part that reads the bytes.
///
/// Checks what the parser promises: without `--skip-bad-lines` a log it accepts recorded no skipped line, so the
/// same bytes give the same events with it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInteractLogParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    let path = "fuzz/P07 (Trial 1) 2023-10-17 - 14-02-11.txt"
    let strict = try? ParsedLog.parse(data, sourceFile: path, skipBadLines: false)
    guard let lenient = try? ParsedLog.parse(data, sourceFile: path, skipBadLines: true) else {
        if strict != nil { fatalError("a log read without --skip-bad-lines is refused with it") }
        return 0
    }
    if let strict, strict.events.count != lenient.events.count {
        fatalError("\(strict.events.count) events without --skip-bad-lines, \(lenient.events.count) with it")
    }
    Fuzz.blackHole(lenient.anomalies)
    return 0
}

@_cdecl("FuzzInteractLogParser_main")
public func fuzzInteractLogParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzInteractLogParser)
}
