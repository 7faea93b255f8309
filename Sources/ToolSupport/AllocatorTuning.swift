#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// Settings of the C allocator for tools that stream large batches.
public enum AllocatorTuning {
    /// Keeps freed memory in the process for the next batch instead of handing it back to the kernel.
    ///
    /// By default glibc serves each allocation of more than 128 KiB (a batch's column, a decoded block) with a
    /// fresh `mmap` and unmaps it when freed, so every batch pays for the kernel to find and zero its pages again
    /// (page faults were a fifth of `bt-decode`'s time). With `M_MMAP_THRESHOLD` at its largest (32 MiB) and a
    /// high `M_TRIM_THRESHOLD`, freed batches are reused as they are. Peak memory is unchanged: what is kept is
    /// what the last batches used.
    ///
    /// All threads share one pool (`M_ARENA_MAX` 1): a batch is made on one thread and freed on the writer's,
    /// and with glibc's pool per thread, each kept its own high-water mark (10 MB more for a 10-hour capture).
    /// The tools have at most three busy threads, so the pool's lock costs nothing measurable. A no-op on other C
    /// libraries.
    ///
    /// The heap is then grown once by ``hugePageHeap`` bytes, advised `MADV_HUGEPAGE`, so that the batches' memory
    /// is taken in 2 MiB pages as it is first used (as ``HugePageBuffer`` does for a signal's scratch): a 1-hour
    /// capture to BDF took about 4,400 page faults, several ms of its CPU time, and takes about 830. Nothing is
    /// taken before it is used, so a short run costs nothing more; where the kernel gives no huge pages, the heap
    /// works with small ones. Only the first call does anything (a runner's run may run inside another).
    public static func reuseFreedMemory() {
        _ = tuned
    }

    private static let tuned: Void = {
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
        adviseHugePages()
        #endif
    }()

    /// The part of the heap backed by 2 MiB pages: room for a run's batches in flight (a 1-hour capture's
    /// decoded samples, counts and analysis: about 12 MB), below the 32 MiB above which glibc maps blocks apart.
    static let hugePageHeap = 24 << 20

    #if canImport(Glibc)
    /// Grows the heap by ``hugePageHeap`` bytes (a block allocated and freed at once: with the thresholds above it
    /// comes from the heap, which keeps the room once it is freed) and advises the block's whole 2 MiB pages
    /// `MADV_HUGEPAGE`.
    private static func adviseHugePages() {
        let hugePage = 2 << 20
        guard let block = malloc(hugePageHeap) else { return }
        let start = (Int(bitPattern: block) + hugePage - 1) & ~(hugePage - 1)
        let end = (Int(bitPattern: block) + hugePageHeap) & ~(hugePage - 1)
        if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
        free(block)
    }
    #endif

    /// Hands the pages of freed memory back to the kernel, once the streaming part of a run is over.
    ///
    /// What the last batches left free stays resident under ``reuseFreedMemory()``, in pieces the tables and the
    /// report made at the end cannot always reuse, so they took new pages on top (a faulty 10-hour capture with
    /// `--report` peaked 2–5 MB higher). `malloc_trim` releases every free page inside the heap, not
    /// only at its top; the address space stays the process's, and a page used again is faulted back in.
    public static func releaseFreePages() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
