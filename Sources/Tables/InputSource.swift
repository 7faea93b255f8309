import Foundation

/// One input as a format reads it: its path as given, and the means to read its bytes (whole, or streamed in
/// chunks) and a companion file's. The tool's runner provides the reading, so that opening, hashing for the
/// provenance and progress stay at the edge and a format is tested on bytes in memory
/// (``init(path:contents:companions:)``).
public struct InputSource {
    /// The path as given on the command line (or found in a folder given there).
    public let path: String
    /// The folder given on the command line this file was found in; `nil` for a file given by itself.
    public let folder: String?
    private let reader: Reader

    /// How the bytes are reached: closures the runner (or a test) supplies.
    public struct Reader {
        /// The whole file.
        public var contents: () throws -> Data
        /// The file's size in bytes, of the file a symbolic link leads to.
        public var size: () throws -> Int
        /// The file in chunks of at most the given size, in order.
        public var stream: (_ chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
        /// Another file that belongs with this one (a sidecar), or `nil` when there is none at that path.
        public var companion: (_ path: String) throws -> Data?

        public init(contents: @escaping () throws -> Data, size: @escaping () throws -> Int,
                    stream: @escaping (Int, (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
                    companion: @escaping (String) throws -> Data?) {
            self.contents = contents
            self.size = size
            self.stream = stream
            self.companion = companion
        }
    }

    public init(path: String, folder: String? = nil, reader: Reader) {
        self.path = path
        self.folder = folder
        self.reader = reader
    }

    /// An input held in memory, with companion files by path (for tests and for callers that have the bytes).
    public init(path: String, contents: Data, companions: [String: Data] = [:]) {
        self.init(path: path, reader: Reader(
            contents: { contents },
            size: { contents.count },
            stream: { chunkSize, body in
                try contents.withUnsafeBytes { bytes in
                    var start = 0
                    repeat {
                        let end = min(bytes.count, start + max(1, chunkSize))
                        try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                        start = end
                    } while start < bytes.count
                }
            },
            companion: { companions[$0] }))
    }

    /// The whole file.
    public func contents() throws -> Data { try reader.contents() }

    /// The file's size in bytes.
    public func size() throws -> Int { try reader.size() }

    /// Streams the file in chunks of at most `chunkSize` bytes (an empty file gives one empty chunk).
    public func stream(chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try reader.stream(chunkSize, body)
    }

    /// The file at `path` when it exists (a sidecar the format looks for), else `nil`; it is recorded in the
    /// provenance like an input.
    public func companion(at path: String) throws -> Data? { try reader.companion(path) }

    /// The path of a file named `name` in the same folder as this input.
    public func sibling(named name: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return name }
        return String(path[...slash]) + name
    }

    /// The file name: the path's last component.
    public var fileName: String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}
