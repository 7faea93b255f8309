import Crypto
import Foundation
import Hashing
import Synchronization
import Testing

/// The hasher's chunks, threads and buffers against a one-shot SHA-256 of the same bytes: whatever the chunk sizes
/// and however slow the work handed each chunk, the digest, the count and the bytes the work sees are the input's,
/// in order.
@Suite("Background SHA-256")
struct BackgroundSHA256Tests {
    /// Bytes from a fixed sequence.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Chunk sizes from 1 byte to a whole buffer, in a fixed order.
    static func chunkSizes(total: Int, bufferSize: Int) -> [Int] {
        var sizes: [Int] = [], left = total, k = 0
        while left > 0 {
            let size = min(left, [1, bufferSize, 17, bufferSize - 1, 4096, 3][k % 6])
            sizes.append(size)
            left -= size
            k += 1
        }
        return sizes
    }

    @Test("Work in the background sees every chunk once, in order, while later chunks are filled and hashed",
          arguments: [0, 1, 3])
    func backgroundWork(slowEvery: Int) throws {
        let input = Self.bytes(300_000, seed: 7)
        let hasher = BackgroundSHA256(bufferSize: 8192)
        let seen = Mutex<[UInt8]>([])
        var offset = 0, chunk = 0
        for size in Self.chunkSizes(total: input.count, bufferSize: hasher.bufferSize) {
            let slow = slowEvery > 0 && chunk % slowEvery == 0
            chunk += 1
            try hasher.fill({ buffer in
                buffer.copyBytes(from: input[offset..<(offset + size)])
                return size
            }, thenInBackground: { bytes in
                // A slow write: the next chunks are filled and hashed meanwhile, into the other buffers.
                if slow { usleep(200) }
                seen.withLock { $0 += bytes }
            })
            offset += size
        }
        try hasher.finishBackgroundWork()
        let (digest, size) = hasher.finalize()
        #expect(size == input.count)
        #expect(digest == Array(SHA256.hash(data: input)))
        #expect(seen.withLock { $0 } == input)
    }

    @Test("Work in line sees each chunk before the next is filled; the digest is the one-shot digest")
    func workInLine() {
        let input = Self.bytes(100_003, seed: 11)
        let hasher = BackgroundSHA256(bufferSize: 4096)
        var seen: [UInt8] = [], offset = 0
        for size in Self.chunkSizes(total: input.count, bufferSize: hasher.bufferSize) {
            hasher.fill({ buffer in
                buffer.copyBytes(from: input[offset..<(offset + size)])
                return size
            }, then: { seen += $0 })
            offset += size
        }
        #expect(seen == input)
        let (digest, size) = hasher.finalize()
        #expect(size == input.count && digest == Array(SHA256.hash(data: input)))
    }

    struct WriteFailed: Error, Equatable {
        var chunk: Int
    }

    @Test("The first error of the work is thrown by the next fill and by finishBackgroundWork; no chunk after it is handed on")
    func workError() {
        let hasher = BackgroundSHA256(bufferSize: 1024)
        let handed = Mutex<[Int]>([])
        var thrown: (any Error)?
        for chunk in 0..<50 {
            do {
                try hasher.fill({ buffer in
                    buffer.storeBytes(of: UInt8(chunk), as: UInt8.self)
                    return 1
                }, thenInBackground: { bytes in
                    let chunk = Int(bytes[0])
                    handed.withLock { $0.append(chunk) }
                    if chunk == 5 { throw WriteFailed(chunk: chunk) }
                })
            } catch {
                thrown = error
                break
            }
        }
        #expect(thrown as? WriteFailed == WriteFailed(chunk: 5))
        #expect(throws: WriteFailed(chunk: 5)) { try hasher.finishBackgroundWork() }
        #expect(handed.withLock { $0 } == Array(0...5))
    }
}
