// Removing a run's temporary files when it is stopped by SIGINT, SIGTERM or SIGHUP (conventions §3.1).
//
// The handler does only what is safe in a signal handler (POSIX async-signal-safe calls and raw syscalls): for each
// registered path, unlink(2) a file, or empty a folder one level deep (getdents64 + unlinkat) and rmdir(2) it; then
// it restores the default action and re-raises the signal, so the process ends by that signal (a shell reports 130
// for SIGINT, 143 for SIGTERM). Paths are copied into fixed slots when registered, so the handler allocates nothing.
// Between bb_cleanup_defer_begin() and bb_cleanup_defer_end() (a commit: a few renames) a signal is held and acted
// on at the end, so a commit is never cut in the middle by these signals.
#ifndef BRAINBATCH_SIGNAL_CLEANUP_H
#define BRAINBATCH_SIGNAL_CLEANUP_H

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (a signal the process ignores stays ignored). Idempotent.
void bb_cleanup_install(void);

/// Registers `path` (a file, or a folder when `is_folder`) for removal on a signal; returns the slot, or -1 when the
/// path is too long or every slot is taken (the path is then left to the next run's sweep of stale temporaries).
int bb_cleanup_register(const char *path, int is_folder);

/// Forgets a registered path (after it was renamed into place or removed).
void bb_cleanup_unregister(int slot);

/// Holds SIGINT/SIGTERM/SIGHUP (as far as this handler is concerned) until the matching bb_cleanup_defer_end().
void bb_cleanup_defer_begin(void);

/// Ends a deferred section; a signal that arrived meanwhile now removes the registered paths and ends the process.
void bb_cleanup_defer_end(void);

/// Removes every registered path now, as the handler would (for tests).
void bb_cleanup_remove_all(void);

/// For a child process: asks the kernel to send it SIGKILL when its parent ends (PR_SET_PDEATHSIG), then tells
/// whether its parent is still `parent` (0), or ended before the request took hold (1); -1 when prctl failed.
int bb_end_with_parent(int parent);

#endif
