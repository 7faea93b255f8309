import FileSystem
import Foundation
import FuzzSupport
import MYND
import Tables

/// The prefix of the folders inputs are written to; the process id follows.
private let folderPrefix = "brainbatch-fuzz-hdf5-"

/// Where each input is written for libhdf5 to open: a folder of this process in /dev/shm (memory), else in
/// the temporary folder; removed at exit. In fork mode libFuzzer runs the target in child processes that libhdf5's
/// crashes end without an exit, so each new process first removes the folders of processes that are gone.
private let folder: String = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(folderPrefix) {
        let entry = base + "/" + name
        guard let pid = pid_t(name.dropFirst(folderPrefix.count)), pid != getpid() else { continue }
        let changed = (try? FileManager.default.attributesOfItem(atPath: entry)[.modificationDate] as? Date)
            .map { Int($0.timeIntervalSince1970) } ?? 0
        if FileSystem.isGone(pid: pid, changedAt: changed) { try? FileManager.default.removeItem(atPath: entry) }
    }
    let path = base + "/" + folderPrefix + "\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: folder) }
    return path
}()
private let path = folder + "/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf"

/// mynd-parse's HDF5 reading in this process: the input written to a file and read by
/// ``RecordingReader/inProcess`` (libhdf5, then our layout reader: extents checked, attributes of any type and
/// character set decoded, the row-0 quirk, channel names, paradigm), then analysed (epochs, Welch band power,
/// signal quality) into the tables.
///
/// The tool reads recordings in a child process because libhdf5 1.10 itself crashes or loops forever on some
/// corrupt files. Here those faults end the fuzzing process: `make fuzz` runs this target with
/// `-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1` and `Fuzz/triage.sh` sorts every crash it
/// saved into libhdf5's own (every frame below the fault in libhdf5 or the C library) and ours (a frame of
/// BrainBatch's code): only the latter are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMYNDHDF5(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    guard (try? data.write(to: URL(fileURLWithPath: path))) != nil else { fatalError("cannot write \(path)") }
    var study = MYNDStudy()
    if let item = try? MYNDStudy.read(path: path, data: data, options: RecordingAnalysisOptions(),
                                      recordingReader: .inProcess) {
        study.add(item)
        // Only a samples scratch file that cannot be read back throws here, and this study keeps none: a finding.
        do { Fuzz.exercise(try study.tables(definitions: nil, dateOrder: nil).tables) } catch {
            fatalError("the tables of a study held in memory threw: \(error)")
        }
    }
    return 0
}

@_cdecl("FuzzMYNDHDF5_main")
public func fuzzMYNDHDF5Main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzMYNDHDF5)
}
