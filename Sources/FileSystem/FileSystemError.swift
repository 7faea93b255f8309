import SystemPackage

/// A file-system call that failed: the path, what was attempted, and the system's reason, said in one line
/// (`out/x.csv: cannot create: Permission denied`).
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was attempted.
    public enum Operation: String, Sendable, Equatable {
        case create = "cannot create"
        case write = "cannot write"
        case sync = "cannot flush to disk"
        case close = "cannot close"
        case rename = "cannot move into place"
        case lock = "cannot lock"
        case open = "cannot open"
        case read = "cannot read"
    }

    /// The file the call was about (for a rename, the destination).
    public var path: FilePath
    public var operation: Operation
    /// The system's error number.
    public var errno: Errno

    public init(path: FilePath, operation: Operation, errno: Errno) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    /// From an error thrown by swift-system (always an `Errno`; anything else is reported as an I/O error).
    init(path: FilePath, operation: Operation, _ error: any Error) {
        self.init(path: path, operation: operation, errno: error as? Errno ?? .ioError)
    }

    /// The system's text for the error number, e.g. `Permission denied` (``FileSystem/message(_:)``).
    public var reason: String { FileSystem.message(errno) }

    public var description: String { "\(path.string): \(operation.rawValue): \(reason)" }
}
