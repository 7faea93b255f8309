import Foundation
import TestSupport
import Testing
import ToolSupport

@Suite("Reading an input in chunks, hashed on the way")
struct InputFileTests {
    /// Deterministic bytes that are not periodic in any chunk size.
    static func bytes(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test("Every chunk arrives in order, whole, and the SHA-256 is Python's hashlib's", arguments: [
        (0, 4096), (1, 4096), (4096, 4096), (4097, 4096), (3 * 4096, 4096), (1_000_003, 65_536), (5_000, 7),
    ])
    func chunksAndHash(size: Int, chunkSize: Int) throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("input.bin").path
        let contents = InputFileTests.bytes(size)
        try Data(contents).write(to: URL(fileURLWithPath: path))
        var seen: [UInt8] = []
        var chunkSizes: [Int] = []
        let record = try InputFile.stream(path, chunkSize: chunkSize) { chunk in
            seen += chunk
            chunkSizes.append(chunk.count)
        }
        #expect(seen == contents)
        #expect(chunkSizes.dropLast().allSatisfy { $0 == chunkSize })
        #expect(record.size == size)
        #expect(record.sha256 == (try TestSupport.pythonSHA256(ofFile: path)))
    }

    @Test("An error thrown by the reader ends the stream at that chunk (the hashes queued meanwhile still finish safely)")
    func errorEndsTheStream() throws {
        struct Stop: Error {}
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("input.bin").path
        try Data(InputFileTests.bytes(100_000)).write(to: URL(fileURLWithPath: path))
        var chunks = 0
        #expect(throws: Stop.self) {
            _ = try InputFile.stream(path, chunkSize: 1000) { _ in
                chunks += 1
                if chunks == 3 { throw Stop() }
            }
        }
        #expect(chunks == 3)
    }
}
