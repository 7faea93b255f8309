import Crypto
import Foundation
import Hashing
import Tables

extension InputRecord {
    /// Describes bytes already in memory (one read of the file serves parsing and hashing).
    public init(path: String, contents: Data) {
        self.init(path: path, size: contents.count, sha256: SHA256.hash(data: contents).hexString)
    }
}

/// Computes an ``InputRecord`` while a file is read in chunks, so large inputs are read once.
public struct InputHasher {
    private var hasher = SHA256()
    private var size = 0

    public init() {}

    /// Adds the next chunk of the file.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
        size += bytes.count
    }

    /// The record for the bytes seen so far.
    public func record(path: String) -> InputRecord {
        InputRecord(path: path, size: size, sha256: hasher.finalize().hexString)
    }
}
