import FileSystem
import Foundation
import Hashing
import SystemPackage
import Tables
import TableWriters

/// Reading inputs, at the edge: whole files for text formats, chunks for large binary ones; either way each
/// file is read once, by its content (to its end, whatever `stat` says), and hashed for the provenance as it is
/// read.
///
/// Symbolic links are followed (DataLad and git-annex datasets are links into `.git/annex`), and an input need not
/// be a regular file: a named pipe, `/dev/stdin`, a process substitution (`<(zcat x.gz)`) or a device is read like
/// a file, once. A format that needs the size before it reads (``InputSource/size()``: `bt-decode`'s decoder tells a
/// truncated tail by it) gets a pipe copied first into an unnamed temporary file in `$TMPDIR` (removed from the
/// folder at once, so nothing is left behind), then read from there.
public enum InputFile {
    /// Opens `path` for reading, links followed: exit 66 when it is missing, not readable or a folder.
    static func open(_ path: String) throws(ToolError) -> FileDescriptor {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            let code = error as? Errno ?? .ioError
            throw .unreadable(path: path, reason: code == .noSuchFileOrDirectory ? "no such file"
                              : code == .permissionDenied ? "permission denied" : FileSystem.message(code))
        }
        var info = stat()
        if fstat(file.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            try? file.close()
            throw .unreadable(path: path, reason: "is a folder, not a file")
        }
        return file
    }

    /// Whether an open file is a regular file (else a pipe, a socket or a device: read once, to its end).
    static func isRegular(_ file: FileDescriptor) -> Bool {
        var info = stat()
        return fstat(file.rawValue, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Reads into `buffer` until it is full or the file ends (a pipe gives its bytes in pieces); returns the
    /// bytes read.
    static func readFully(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer,
                          path: String) throws(ToolError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count: Int
            do { count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) } catch {
                throw .unreadable(path: path, reason: FileSystem.message(error as? Errno ?? .ioError))
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Reads an open file from where it stands to its end. A regular file is read straight into the bytes
    /// returned (its size known: no second buffer of up to 16 MiB, no copy); whatever follows (a file that grew,
    /// a pipe) in 64 KiB pieces.
    static func readAll(_ file: FileDescriptor, path: String) throws(ToolError) -> Data {
        var info = stat()
        let expected = fstat(file.rawValue, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
        var data = Data(count: expected)
        var failure: ToolError?
        let first = data.withUnsafeMutableBytes { bytes -> Int in
            do throws(ToolError) { return try readFully(file, into: bytes, path: path) } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        if first < expected {
            // The file shrank since it was measured.
            data.removeSubrange(first...)
            return data
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try readFully(file, into: buffer, path: path)
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if count < buffer.count { return data }
        }
    }

    /// Reads a whole file, returning its bytes and its provenance record.
    public static func read(_ path: String) throws(ToolError) -> (contents: Data, record: InputRecord) {
        let file = try open(path)
        defer { try? file.close() }
        let data = try readAll(file, path: path)
        return (data, InputRecord(path: path, contents: data))
    }

    /// Streams a file in chunks of `chunkSize` bytes to `body`, hashing it on the way (on another thread).
    public static func stream(_ path: String, chunkSize: Int = 1 << 20,
                              _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> InputRecord {
        let file = try open(path)
        defer { try? file.close() }
        return try stream(file, path: path, chunkSize: chunkSize, body)
    }

    /// Streams an open file from where it stands (see ``stream(_:chunkSize:_:)``).
    static func stream(_ file: FileDescriptor, path: String, chunkSize: Int,
                       _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> InputRecord {
        // Hashing runs beside `body`, on the chunk before or the same one: SHA-256 is a tenth of decoding a capture.
        let hasher = BackgroundSHA256(bufferSize: chunkSize)
        while try hasher.fill({ buffer in try readFully(file, into: buffer, path: path) }, then: body) == chunkSize {}
        let (digest, size) = hasher.finalize()
        return InputRecord(path: path, size: size, sha256: digest.hexString)
    }

    /// The size in bytes of the file `path` names, a symbolic link followed (0 for a pipe: see
    /// ``reader(for:progress:recording:)``, which copies a pipe first when the size is asked for).
    public static func size(_ path: String) throws(ToolError) -> Int {
        let file = try open(path)
        defer { try? file.close() }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw .unreadable(path: path, reason: "cannot stat") }
        return Int(info.st_size)
    }

    /// An input opened once for a format that asks its size, then streams it: a regular file is read in place
    /// (its size from the open file); anything else is first copied to an unnamed temporary file, whose length is
    /// the size.
    final class Opened {
        let path: String
        private(set) var file: FileDescriptor?
        private(set) var size = 0

        init(path: String) { self.path = path }

        deinit { try? file?.close() }

        /// Opens the input (once) and returns its size in bytes.
        func open() throws(ToolError) -> Int {
            if file != nil { return size }
            let opened = try InputFile.open(path)
            var info = stat()
            if fstat(opened.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                file = opened
                size = Int(info.st_size)
                return size
            }
            defer { try? opened.close() }
            let spool = try InputFile.spool(opened, path: path)
            file = spool.file
            size = spool.size
            return size
        }

        /// Takes the open file (the caller closes it), or `nil` when ``open()`` was not called.
        func take() -> FileDescriptor? {
            defer { file = nil }
            return file
        }
    }

    /// Copies a pipe (or any file read once) to an unnamed temporary file in `$TMPDIR` (or `/tmp`), returning that
    /// file, rewound, and the bytes copied.
    static func spool(_ source: FileDescriptor, path: String) throws(ToolError) -> (file: FileDescriptor, size: Int) {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/.brainbatch-input-XXXXXX".utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else {
            throw .unreadable(path: path, reason: "cannot make a temporary copy of this stream in \(folder): "
                              + FileSystem.message(FileSystem.lastError))
        }
        // Unnamed from the start: nothing is left behind, whatever ends the run.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
        let copy = FileDescriptor(rawValue: raw)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        do throws(ToolError) {
            while true {
                let count = try readFully(source, into: buffer, path: path)
                if count == 0 { break }
                do { _ = try copy.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) } catch {
                    throw ToolError.unreadable(path: path, reason: "cannot make a temporary copy of this stream in \(folder): "
                                               + FileSystem.message(error as? Errno ?? .ioError))
                }
                total += count
            }
            guard lseek(raw, 0, SEEK_SET) == 0 else {
                throw ToolError.unreadable(path: path, reason: FileSystem.message(FileSystem.lastError))
            }
        } catch {
            try? copy.close()
            throw error
        }
        return (copy, total)
    }

    /// How a format reads `path` in a run: each read reports its bytes to `progress` and its provenance record to
    /// `recording`; a companion file that does not exist is `nil`. The input is opened once: a format that asks the
    /// size and then streams reads the same open file (for a pipe, its temporary copy).
    public static func reader(for path: String, progress: ProgressBar,
                              recording: @escaping (InputRecord) -> Void) -> InputSource.Reader {
        let opened = Opened(path: path)
        return InputSource.Reader(
            contents: {
                // Hashed once: `read(_:)` makes the record with the bytes.
                let data: Data, record: InputRecord
                if let file = opened.take() {
                    defer { try? file.close() }
                    data = try readAll(file, path: path)
                    record = InputRecord(path: path, contents: data)
                } else {
                    (data, record) = try read(path)
                }
                progress.advance(bytes: data.count)
                recording(record)
                return data
            },
            size: { try opened.open() },
            stream: { chunkSize, body in
                let file = try opened.take() ?? open(path)
                defer { try? file.close() }
                recording(try stream(file, path: path, chunkSize: chunkSize) { chunk in
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
