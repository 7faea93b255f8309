// Linux's renameat2(2) with RENAME_EXCHANGE: two paths swapped in one step, so a folder output is replaced with
// no moment at which neither the old nor the new folder is in place. Called through syscall(2) because glibc
// declares renameat2 only under _GNU_SOURCE.
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int bb_rename_exchange(const char *from, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}
