import Tables

/// Why a MYND file cannot be read (spec §9). Every message names the file and, where one applies, the line and
/// column (JSON) or the HDF5 path.
public enum MYNDError: Error, Equatable, CustomStringConvertible {
    /// The file is empty or holds only whitespace.
    case empty(file: String)
    /// An OpenPGP message (the app's `.asc` files); `keyID` is the recipient key when it could be read.
    case encrypted(file: String, armored: Bool, keyID: String?, expected: String)
    /// The content is not what the tool reads (another app's file, a PDF, a definition file, …).
    case wrongContent(file: String, expected: String, found: String)
    /// A JSON syntax error or a value of the wrong type, at a 1-based line and column.
    case json(file: String, line: Int, column: Int, message: String)
    /// An HDF5 file whose layout is not the app's (a missing object, a wrong shape or type).
    case layout(file: String, path: String, message: String)
    /// The HDF5 library could not read the file.
    case hdf5(file: String, message: String)
    /// The process that read an HDF5 recording failed; `message` names the file and what happened.
    case readerProcess(message: String)
    /// The process that read an HDF5 recording stopped on a trap of BrainBatch's own code (a bug, exit 70).
    case readerFault(message: String)
    /// No input was a questionnaire or a recording: every file read was set aside.
    case nothingToRead(setAside: [Anomaly])
    /// An HDF5 recording given as a pipe (or another stream): libhdf5 needs a file it can seek in.
    case notSeekable(file: String)

    public var description: String {
        switch self {
        case .empty(let file):
            return "\(file): empty file; expected a MYND questionnaire (JSON) or recording (HDF5)"
        case .encrypted(let file, let armored, let keyID, let expected):
            let form = armored ? "ASCII armor" : "binary"
            let key = keyID.map { ", key 0x\($0)" } ?? ""
            let name = file.split(separator: "/").last.map(String.init) ?? file
            let plain = name.hasSuffix(".asc") ? String(name.dropLast(4)) : name + ".decrypted"
            return "\(file): encrypted OpenPGP message (\(form)\(key)); expected \(expected). Decrypt with the "
                + "study's private key (gpg --output \(plain) --decrypt \(name)) and run again"
        case .wrongContent(let file, let expected, let found):
            return "\(file): expected \(expected), found \(found)"
        case .json(let file, let line, let column, let message):
            return "\(file):\(line):\(column): \(message)"
        case .layout(let file, let path, let message):
            return "\(file):\(path): \(message)"
        case .hdf5(let file, let message):
            return "\(file): \(message)"
        case .nothingToRead(let setAside) where setAside.isEmpty:
            return "nothing to read: the inputs hold no files (an empty folder?)"
        case .nothingToRead(let setAside):
            let example = setAside.first.map { " (e.g. \($0.sourceFile): \($0.message))" } ?? ""
            return "nothing to read: no MYND questionnaire or recording among the inputs; \(setAside.count) file\(setAside.count == 1 ? "" : "s") set aside\(example)"
        case .readerProcess(let message), .readerFault(let message):
            return message
        case .notSeekable(let file):
            return "\(file): an HDF5 recording is read by seeking in the file, and this is a pipe or another stream; "
                + "save it to a file and give that file's path"
        }
    }
}
