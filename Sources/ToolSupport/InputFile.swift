import FileSystem
import Foundation
import Tables
import TableWriters

/// Reading inputs, at the edge: whole files for text formats, chunks for large binary ones; either way each
/// file is read once and hashed for the provenance as it is read.
public enum InputFile {
    /// Checks that a path names a readable regular file (exit 66 otherwise).
    public static func checkReadable(_ path: String) throws(ToolError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        if isFolder.boolValue { throw .unreadable(path: path, reason: "is a folder, not a file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: "permission denied")
        }
    }

    /// Reads a whole file, returning its bytes and its provenance record.
    public static func read(_ path: String) throws(ToolError) -> (contents: Data, record: InputRecord) {
        try checkReadable(path)
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return (data, InputRecord(path: path, contents: data))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
    }

    /// Streams a file in chunks of `chunkSize` bytes to `body`, hashing it on the way (on another thread).
    public static func stream(_ path: String, chunkSize: Int = 1 << 20,
                              _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> InputRecord {
        try checkReadable(path)
        guard let file = fopen(path, "rb") else {
            throw ToolError.unreadable(path: path, reason: FileSystem.message(FileSystem.lastError))
        }
        defer { fclose(file) }
        // Hashing runs beside `body`, on the chunk before or the same one: SHA-256 is a tenth of decoding a capture.
        let hasher = BackgroundInputHasher(chunkSize: chunkSize)
        while true {
            let count = try hasher.nextChunk(read: { fread($0.baseAddress, 1, chunkSize, file) }, body)
            if count < chunkSize {
                if ferror(file) != 0 { throw ToolError.unreadable(path: path, reason: "read error") }
                break
            }
        }
        return hasher.record(path: path)
    }

    /// The size in bytes of the file `path` names, a symbolic link followed.
    public static func size(_ path: String) throws(ToolError) -> Int {
        try checkReadable(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable(path: path, reason: "cannot stat") }
        return Int(info.st_size)
    }

    /// How a format reads `path` in a run: each read reports its bytes to `progress` and its provenance record to
    /// `recording`; a companion file that does not exist is `nil`.
    public static func reader(for path: String, progress: ProgressBar,
                              recording: @escaping (InputRecord) -> Void) -> InputSource.Reader {
        InputSource.Reader(
            contents: {
                let (data, record) = try read(path)
                progress.advance(bytes: data.count)
                recording(record)
                return data
            },
            size: { try size(path) },
            stream: { chunkSize, body in
                recording(try stream(path, chunkSize: chunkSize) { chunk in
                    try body(chunk)
                    progress.advance(bytes: chunk.count)
                })
            },
            companion: { companion in
                guard FileManager.default.fileExists(atPath: companion) else { return nil }
                let (data, record) = try read(companion)
                recording(record)
                return data
            })
    }
}
