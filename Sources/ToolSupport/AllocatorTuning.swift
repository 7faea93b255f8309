#if canImport(Glibc)
import CMalloc
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
    public static func reuseFreedMemory() {
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
        #endif
    }

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
