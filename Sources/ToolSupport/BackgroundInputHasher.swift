import Dispatch
import Tables
import TableWriters

/// Hashes a file's chunks on a queue of its own while the caller decodes them, for ``InputFile/stream``.
///
/// Chunks are read into two buffers in turn: while the caller works on one, the hash of the other (or of the
/// same) runs beside it. A buffer is read into again only once its hash is done, so neither side ever sees a
/// chunk change under it.
final class BackgroundInputHasher: @unchecked Sendable {
    // @unchecked: `hasher` is touched only on `queue`; each buffer is written only after its semaphore is taken
    // back from the hash that reads it, and is otherwise read-only.
    private let queue = DispatchQueue(label: "brainbatch.input-hasher")
    private var hasher = InputHasher()
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let free: [DispatchSemaphore]
    private var next = 0

    /// Two buffers of `chunkSize` bytes.
    init(chunkSize: Int) {
        buffers = (0..<2).map { _ in .allocate(byteCount: max(1, chunkSize), alignment: 16) }
        free = (0..<2).map { _ in DispatchSemaphore(value: 1) }
    }

    // Each queued hash holds the hasher, so this runs once the last one is done (perhaps on the queue).
    deinit { buffers.forEach { $0.deallocate() } }

    /// Reads the next chunk with `read` into a buffer no hash is reading, hashes it in the background and hands it
    /// to `body`; returns the bytes read.
    func nextChunk(read: (UnsafeMutableRawBufferPointer) -> Int,
                   _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Int {
        let index = next
        next = 1 - next
        free[index].wait()
        let count = read(buffers[index])
        guard count > 0 else {
            free[index].signal()
            return 0
        }
        queue.async { [self] in
            hasher.update(UnsafeRawBufferPointer(rebasing: buffers[index][0..<count]))
            free[index].signal()
        }
        try body(UnsafeRawBufferPointer(rebasing: buffers[index][0..<count]))
        return count
    }

    /// The record of every chunk read, once their hashes are done.
    func record(path: String) -> InputRecord {
        queue.sync { hasher.record(path: path) }
    }
}
