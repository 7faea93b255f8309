import Crypto
import Dispatch
import Synchronization

/// The SHA-256 of bytes that pass through in chunks, computed on a queue of its own while the caller goes on with
/// them: an input read and decoded, an output made and written. The hash is a sixth of a capture's conversion; on
/// a second core it costs next to nothing.
///
/// The hasher owns a few buffers (three, or two), used in turn: ``fill(_:then:)`` lets the caller fill the next one, queues its
/// hash, and hands the filled bytes to the caller's work (which may only read them). A buffer is filled again only
/// once its hash (and its queued work) is done, so neither side ever sees bytes change under it.
/// ``fill(_:thenInBackground:)`` queues the work too, on a third thread once the chunk is hashed (an output's write:
/// the caller makes the next chunk, the hasher hashes it, while the last one is written).
public final class BackgroundSHA256: @unchecked Sendable {
    // @unchecked: `hasher` and `size` are touched only on `queue`; each buffer is written only after its semaphore
    // is taken back from the hash (and work) that reads it, and is otherwise read-only.
    private let queue = DispatchQueue(label: "brainbatch.sha256")
    /// Runs the work of ``fill(_:thenInBackground:)``, in order, each chunk's once it is hashed.
    private let workQueue = DispatchQueue(label: "brainbatch.sha256.work")
    private var hasher = SHA256()
    private var size = 0
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let free: [DispatchSemaphore]
    private var next = 0
    /// The first error of work queued by ``fill(_:thenInBackground:)``.
    private let backgroundError = Mutex<(any Error)?>(nil)

    /// `bufferCount` buffers (at least two) of `bufferSize` bytes. Three: one being filled, one being hashed, one
    /// handed to the work (with two, a BDF's chunk waited for the last chunk's write, and the file was made at the
    /// pace of both). Two where many hashers are open at once and memory counts more (a CSV folder's tables).
    public init(bufferSize: Int, bufferCount: Int = 3) {
        buffers = (0..<max(2, bufferCount)).map { _ in .allocate(byteCount: max(1, bufferSize), alignment: 16) }
        free = (0..<max(2, bufferCount)).map { _ in DispatchSemaphore(value: 1) }
    }

    // Each queued hash holds the hasher, so this runs once the last one is done (perhaps on the queue).
    deinit { buffers.forEach { $0.deallocate() } }

    /// The size of each buffer in bytes.
    public var bufferSize: Int { buffers[0].count }

    /// Lets `fill` write the next chunk into a buffer no hash is reading (it returns how many bytes it wrote, at
    /// most the buffer's size), hashes them in the background, and hands them to `body`. Returns the count.
    @discardableResult
    public func fill(_ fill: (UnsafeMutableRawBufferPointer) throws -> Int,
                     then body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Int {
        guard let (index, count) = try take(fill) else { return 0 }
        queue.async { [self] in
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffers[index][0..<count]))
            size += count
            free[index].signal()
        }
        try body(UnsafeRawBufferPointer(rebasing: buffers[index][0..<count]))
        return count
    }

    /// Like ``fill(_:then:)``, but `body` runs on a thread of its own once the chunk is hashed (the chunks' bodies
    /// one at a time, in order), while the caller fills the next buffer and the hasher hashes the last one; `body`'s
    /// first error is thrown by the next call and by ``finishBackgroundWork()`` (after it, no chunk is handed on).
    @discardableResult
    public func fill(_ fill: (UnsafeMutableRawBufferPointer) throws -> Int,
                     thenInBackground body: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        if let error = backgroundError.withLock({ $0 }) { throw error }
        guard let (index, count) = try take(fill) else { return 0 }
        queue.async { [self] in
            let bytes = UnsafeRawBufferPointer(rebasing: buffers[index][0..<count])
            hasher.update(bufferPointer: bytes)
            size += count
            workQueue.async { [self] in
                defer { free[index].signal() }
                guard backgroundError.withLock({ $0 == nil }) else { return }
                do { try body(UnsafeRawBufferPointer(rebasing: buffers[index][0..<count])) } catch {
                    backgroundError.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        return count
    }

    /// Waits until the next buffer is free and lets `fill` write into it: the buffer's index and the count, with the
    /// buffer still taken (the queued hash frees it), or `nil` when nothing was written (the buffer freed again).
    private func take(_ fill: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> (index: Int, count: Int)? {
        let index = next
        next = (next + 1) % buffers.count
        free[index].wait()
        let count: Int
        do { count = min(try fill(buffers[index]), buffers[index].count) } catch {
            free[index].signal()
            throw error
        }
        guard count > 0 else {
            free[index].signal()
            return nil
        }
        return (index, count)
    }

    /// Waits for the work queued by ``fill(_:thenInBackground:)`` and throws its first error.
    public func finishBackgroundWork() throws {
        waitForQueuedWork()
        if let error = backgroundError.withLock({ $0 }) { throw error }
    }

    /// Waits until every queued hash and work is done (before closing what the work writes to, after an error).
    public func waitForQueuedWork() {
        // Work is queued by the hashes: once they are done, all of it is queued.
        queue.sync {}
        workQueue.sync {}
    }

    /// The digest (32 bytes) and the byte count of every chunk so far, once their hashes are done.
    public func finalize() -> (digest: [UInt8], size: Int) {
        queue.sync { (Array(hasher.finalize()), size) }
    }
}
