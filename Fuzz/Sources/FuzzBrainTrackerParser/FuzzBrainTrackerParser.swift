import BrainTracker
import FuzzSupport

/// rt-stats's row parsers alone: the bytes as ``TextLines`` (UTF-8, else Windows-1252), the format told from the
/// first line as the tool does, then ``ResultsFile/parse(_:sourceFile:skipBadLines:)`` or
/// ``SethRExport/parse(_:sourceFile:skipBadLines:)``, with and without `--skip-bad-lines`; without the session
/// analysis and the tables of ``FuzzBrainTracker``.
///
/// Checks what the parsers promise: a file accepted without `--skip-bad-lines` gives the same rows with it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrainTrackerParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = TextLines(Fuzz.data(start, count))
    let path = "fuzz/BrainTrackerResultsFile.csv"
    func rowCount(skipBadLines: Bool) -> Int? {
        switch BrainTrackerFormat.detectFormat(text) {
        case .brt: (try? ResultsFile.parse(text, sourceFile: path, skipBadLines: skipBadLines))?.rows.count
        case .sethR: (try? SethRExport.parse(text, sourceFile: path, skipBadLines: skipBadLines))?.rows.count
        }
    }
    let strict = rowCount(skipBadLines: false)
    let lenient = rowCount(skipBadLines: true)
    if let strict, strict != lenient {
        fatalError("\(strict) rows without --skip-bad-lines, \(lenient.map(String.init) ?? "a refusal") with it")
    }
    return 0
}

@_cdecl("FuzzBrainTrackerParser_main")
public func fuzzBrainTrackerParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzBrainTrackerParser)
}
