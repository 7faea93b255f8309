#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A large buffer filled once from its start (``SignalScratch``'s values), in memory the kernel is asked to back
/// with 2 MiB pages.
///
/// The buffer is mapped on its own (`mmap`), aligned to 2 MiB, and advised `MADV_HUGEPAGE`, which Linux honours
/// where transparent huge pages are set to `madvise` (the common default) or `always`. Filling 14.4 MB (a 1-hour
/// Brainiac capture's values) then costs 8 page faults instead of about 3,500, which were more than half of
/// `bt-decode`'s page faults. As with any anonymous memory, pages are only taken as they are first written, so
/// what is never written costs nothing. A buffer under 4 MiB, or one whose mapping the system refuses, is ordinary
/// heap memory instead.
final class HugePageBuffer {
    /// The buffer: `byteCount` bytes, uninitialised.
    let bytes: UnsafeMutableRawBufferPointer
    /// The whole mapping (the buffer and its alignment margin), to unmap; `nil` for heap memory.
    private let mapping: (start: UnsafeMutableRawPointer, length: Int)?

    private static let hugePage = 2 << 20

    init(byteCount: Int) {
        let size = max(byteCount, 0)
        #if os(Linux)
        if size >= 2 * Self.hugePage {
            let length = size + Self.hugePage
            let region = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let region, region != UnsafeMutableRawPointer(bitPattern: -1) {
                let aligned = (Int(bitPattern: region) + Self.hugePage - 1) & ~(Self.hugePage - 1)
                let start = UnsafeMutableRawPointer(bitPattern: aligned)!
                // Advice only: where the kernel has no huge pages to give, the buffer works with small ones.
                _ = madvise(start, (size + Self.hugePage - 1) & ~(Self.hugePage - 1), MADV_HUGEPAGE)
                bytes = UnsafeMutableRawBufferPointer(start: start, count: size)
                mapping = (region, length)
                return
            }
        }
        #endif
        bytes = .allocate(byteCount: size, alignment: 16)
        mapping = nil
    }

    deinit {
        if let mapping {
            munmap(mapping.start, mapping.length)
        } else {
            bytes.deallocate()
        }
    }
}
