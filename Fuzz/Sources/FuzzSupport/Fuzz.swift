import Foundation
import Tables

/// The signature of `LLVMFuzzerTestOneInput`: one input's bytes; returns 0.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// libFuzzer's driver (in `libclang_rt.fuzzer`, linked by `-sanitize=fuzzer`).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTestOneInput
) -> CInt

/// What every fuzz target shares: the driver, the input's bytes, sample files, and the checks on the tables a
/// parser made.
///
/// A target's `LLVMFuzzerTestOneInput` reads one input the way the tool does and makes its tables. A thrown
/// error is a normal outcome (the tool reports it as one line and exit 65); only a crash, a trap, a leak or
/// allocation of huge memory, or a hang is a finding.
public enum Fuzz {
    /// The entry point of a target. SwiftPM links an executable with `main` renamed to `<Module>_main`; each
    /// target defines that symbol with `@_cdecl` and calls this, which hands the command line to libFuzzer.
    public static func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ body: FuzzTestOneInput) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, body)
    }

    /// The input's bytes.
    public static func data(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let start, count > 0 else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// The repository root (Fuzz/Sources/FuzzSupport/Fuzz.swift is four levels below it).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of SampleData/ (relative path), which a target uses as the fixed half of an input pair.
    public static func sample(_ relativePath: String) -> Data {
        let url = packageRoot.appendingPathComponent("SampleData").appendingPathComponent(relativePath)
        guard let data = try? Data(contentsOf: url) else { fatalError("fuzz target setup: cannot read \(url.path)") }
        return data
    }

    /// Checks what the writers rely on: every column of a table has as many values as the table has rows (the
    /// CSV and HDF5 writers index every column by the first one's rows). And spells every time as the CSV writer
    /// does (`CellFormatting`: a calendar date of any value a file can hold); numbers and text are spelled by
    /// the standard library, which takes any value. A broken table traps here, which the fuzzer reports as a crash.
    public static func exercise(_ tables: [Table]) {
        for table in tables {
            let rows = table.rowCount
            for column in table.columns {
                let count = column.values.count
                if count != rows {
                    fatalError("table \(table.name): column \(column.name) has \(count) values, the table \(rows) rows")
                }
                var length = 0
                switch column.values {
                case .timestamp(let v): for value in v { length &+= CellFormatting.timestamp(value)?.utf8.count ?? 0 }
                case .localTimestamp(let v): for value in v { length &+= CellFormatting.localTimestamp(value)?.utf8.count ?? 0 }
                default: break
                }
                blackHole(length)
            }
        }
    }

    /// Keeps a value alive so that the work that made it is not optimised away.
    @inline(never)
    public static func blackHole<T>(_ value: T) {
        withExtendedLifetime(value) {}
    }
}
