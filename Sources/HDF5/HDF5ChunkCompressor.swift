import CLibDeflate
import Dispatch

/// What HDF5's shuffle and deflate filters do to a chunk, done outside the library, so that the chunks of a batch
/// can be compressed on every core at once (HDF5 runs its filters one chunk at a time on the calling thread) and
/// then stored with `H5Dwrite_chunk`. Readers undo them as for any chunk HDF5 compressed itself: the shuffle
/// filter's byte transposition and the deflate filter's zlib stream are fixed formats.
public struct HDF5ChunkCompressor: Sendable, Equatable {
    /// The deflate level, 1…9.
    public let level: Int
    /// Bytes per element (the shuffle filter's unit).
    public let elementSize: Int
    /// Whether the dataset has the shuffle filter before deflate.
    public let shuffle: Bool

    public init(level: Int, elementSize: Int, shuffle: Bool) {
        self.level = min(9, max(1, level))
        self.elementSize = max(1, elementSize)
        self.shuffle = shuffle
    }

    /// The chunk as the dataset's filters would store it.
    public func compress(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        guard shuffle && elementSize > 1 else { return deflate(raw) }
        // Shuffle: byte j of element i goes to j·n + i, so that like bytes of neighbouring values sit together.
        let n = raw.count / elementSize
        let shuffled = [UInt8](unsafeUninitializedCapacity: raw.count) { out, initialized in
            for j in 0..<elementSize {
                for i in 0..<n { out[j * n + i] = raw[i * elementSize + j] }
            }
            // Bytes past the last whole element stay where they are, as the filter leaves them.
            for k in (n * elementSize)..<raw.count { out[k] = raw[k] }
            initialized = raw.count
        }
        return shuffled.withUnsafeBytes { deflate($0) }
    }

    /// A zlib stream of the bytes at this level (libdeflate's; HDF5's filter would call zlib's `compress2`, whose
    /// stream differs in its bytes but inflates to the same chunk).
    private func deflate(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        // A compressor is not thread-safe; one per chunk is cheap next to compressing it.
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            preconditionFailure("libdeflate could not allocate a compressor (out of memory)")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        return [UInt8](unsafeUninitializedCapacity: bound) { destination, initialized in
            initialized = libdeflate_zlib_compress(compressor, bytes.baseAddress, bytes.count,
                                                   destination.baseAddress, bound)
            // The bound is what the stream can take at the most, so the call cannot run out of room.
            precondition(initialized > 0, "libdeflate_zlib_compress found no room within its own bound")
        }
    }

    /// Compresses every chunk, on all cores at once; results in the order given.
    static func compressAll(_ jobs: [(compressor: HDF5ChunkCompressor, raw: [UInt8])]) -> [[UInt8]] {
        guard jobs.count > 1 else { return jobs.map { job in job.raw.withUnsafeBytes { job.compressor.compress($0) } } }
        let results = ResultSlots(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index]
            results.set(index, job.raw.withUnsafeBytes { job.compressor.compress($0) })
        }
        return results.values
    }
}

/// One slot per job, each written by exactly one iteration of a concurrent loop.
private final class ResultSlots: @unchecked Sendable {
    // @unchecked: `concurrentPerform` gives every index to one iteration only, and `values` is read after it returns.
    private let slots: UnsafeMutableBufferPointer<[UInt8]>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: [])
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: [UInt8]) { slots[index] = value }

    var values: [[UInt8]] { Array(slots) }
}
