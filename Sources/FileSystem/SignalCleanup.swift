import CSignalCleanup
import SystemPackage

/// Temporary files and folders removed when the process is stopped by SIGINT, SIGTERM or SIGHUP (conventions
/// §3.1), so that an interrupted run leaves nothing beside its output.
///
/// The choice: an async-signal-safe handler (in C, `CSignalCleanup`) that unlinks the registered paths (a folder:
/// its entries, then the folder) and re-raises the signal, so the process ends by it (exit status 130 for SIGINT,
/// 143 for SIGTERM in a shell). The alternative, a flag the run polls while it unwinds, would need a check in every
/// loop of every format and in the HDF5 writer, and a run blocked in a read of a pipe would never see it. Paths
/// are copied into fixed slots when registered, so the handler allocates nothing and takes no lock. A commit (a
/// few renames) runs with these signals deferred (``deferringSignals(_:)``): a signal then acts once the commit is
/// done. SIGKILL cannot be caught; what it leaves is removed by the next run writing the same output
/// (``staleTemporaries(of:)``).
extension FileSystem {
    /// Installs the handler (once; a signal the process ignores, such as SIGHUP under `nohup`, stays ignored).
    public static func removeTemporariesOnSignals() {
        bb_cleanup_install()
    }

    /// A path registered for removal on a signal; ``end()`` forgets it (once it is renamed into place or removed).
    public struct SignalCleanup: Sendable {
        let slot: Int32

        /// Forgets the path.
        public func end() { bb_cleanup_unregister(slot) }
    }

    /// Registers `path` (a file, or a folder whose files are removed with it) for removal on a signal. Register a
    /// temporary before creating it.
    public static func removeOnSignal(_ path: FilePath, isFolder: Bool = false) -> SignalCleanup {
        SignalCleanup(slot: path.withPlatformString { bb_cleanup_register($0, isFolder ? 1 : 0) })
    }

    /// Runs `body` (a commit) with SIGINT, SIGTERM and SIGHUP held: one that arrives meanwhile removes the
    /// registered paths and ends the process once `body` returns.
    public static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        bb_cleanup_defer_begin()
        defer { bb_cleanup_defer_end() }
        return try body()
    }
}
