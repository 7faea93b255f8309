import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An anonymous scratch file that holds recordings' samples between reading and writing, so that a run keeps
/// one recording's samples in memory rather than every recording's (`mynd-parse`'s `samples` table is written
/// after the last input is read: the date order of a subject is decided across its files).
///
/// The file has no name: it is made with `O_TMPFILE` in `$TMPDIR` (else `/tmp`), or, where the file system cannot
/// (`EOPNOTSUPP`), made and unlinked at once; it is gone when the process ends, however it ends. Values are
/// stored as the float64 they are, channel after channel, so that they read back bit for bit.
public final class SampleScratch: @unchecked Sendable {
    // @unchecked: `descriptor` and `end` are touched behind `lock` only.
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var end = 0

    public init() {}

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The file's descriptor once made (−1 before the first recording is stored); for tests.
    var fileDescriptor: Int32 { lock.lock(); defer { lock.unlock() }; return descriptor }

    /// The folder the scratch file is made in: `$TMPDIR`, else `/tmp`.
    static var folder: String {
        if let folder = ProcessInfo.processInfo.environment["TMPDIR"], !folder.isEmpty { return folder }
        return "/tmp"
    }

    /// Writes `channels` (of equal length) at the end of the file and returns where they are.
    func store(_ channels: [[Double]], frames: Int) throws(ScratchError) -> StoredSamples {
        lock.lock(); defer { lock.unlock() }
        if descriptor < 0 { descriptor = try Self.open() }
        let start = end
        for channel in channels {
            let failure = channel.prefix(frames).withUnsafeBytes { bytes -> ScratchError? in
                do throws(ScratchError) { try write(bytes, at: end) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            end += frames * MemoryLayout<Double>.stride
        }
        return StoredSamples(scratch: self, offset: start, frames: frames, channelCount: channels.count)
    }

    /// Reads `target.count` values of channel `channel` of `samples`, from frame `first` on, into `target`. A file
    /// this process wrote and holds open that cannot be read back is a fault of the system (an I/O error of the
    /// disk), not of any input: a ``ScratchError`` (exit 74), like one that cannot be written.
    func read(_ samples: StoredSamples, channel: Int, from first: Int,
              into target: UnsafeMutableBufferPointer<Double>) throws(ScratchError) {
        guard !target.isEmpty else { return }
        let stride = MemoryLayout<Double>.stride
        precondition(channel < samples.channelCount && first >= 0 && first + target.count <= samples.frames)
        let offset = samples.offset + (channel * samples.frames + first) * stride
        let bytes = UnsafeMutableRawBufferPointer(target)
        lock.lock(); defer { lock.unlock() }
        var done = 0
        while done < bytes.count {
            let n = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ScratchError(folder: Self.folder, reason: "cannot be read back: "
                                   + (n < 0 ? String(cString: strerror(errno)) : "it ended early"))
            }
            done += n
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ScratchError) {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ScratchError(folder: Self.folder, reason: String(cString: strerror(errno))) }
            done += n
        }
    }

    /// A file without a name in ``folder``.
    private static func open() throws(ScratchError) -> Int32 {
        let folder = Self.folder
        if let flag = temporaryFileFlag {
            let anonymous = Glibc.open(folder, flag | O_RDWR | O_CLOEXEC, 0o600)
            if anonymous >= 0 { return anonymous }
            guard errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL else {
                throw ScratchError(folder: folder, reason: String(cString: strerror(errno)))
            }
        }
        // A file system (or kernel) without O_TMPFILE: a named file, unlinked as soon as it is made.
        var template = Array((folder + "/.mynd-samples-XXXXXX").utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else { throw ScratchError(folder: folder, reason: String(cString: strerror(errno))) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        _ = fcntl(named, F_SETFD, FD_CLOEXEC)
        return named
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`; Glibc's macro does not reach Swift), where its value is
    /// known: the generic one of x86-64 and arm64.
    private static var temporaryFileFlag: Int32? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        return 0o20000000 | O_DIRECTORY
        #else
        return nil
        #endif
    }
}

/// Where one recording's samples are in a ``SampleScratch``: `channelCount` runs of `frames` float64 values.
public struct StoredSamples: Sendable {
    let scratch: SampleScratch
    let offset: Int
    public let frames: Int
    public let channelCount: Int
}

/// The scratch file cannot be made, written or read back (a full disk, a folder that is not writable, an I/O
/// error): exit 74, and the run ends (it is no fault of the input).
public struct ScratchError: Error, Equatable, CustomStringConvertible {
    public var folder: String
    public var reason: String
    /// The recording whose samples were to be kept, once known.
    public var file: String?
    public var description: String {
        (file.map { "\($0): " } ?? "") + "cannot keep the samples until the tables are written: a scratch file in "
            + "\(folder) failed (\(reason)); set TMPDIR to a folder with space"
    }
}
