#define _GNU_SOURCE
#include "signal_cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { SLOTS = 256, PATH_BYTES = 4096 };
enum { FREE = 0, WRITING = 1, FILE_PATH = 2, FOLDER_PATH = 3 };

static _Atomic int states[SLOTS];
static char paths[SLOTS][PATH_BYTES];
static _Atomic int installed;
static _Atomic int deferring;
static _Atomic int pending;
static _Atomic int cleaning;
static _Atomic int cleaned;

// The layout of a getdents64 record (struct linux_dirent64, which glibc does not declare).
struct dirent64_record {
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[];
};

// Removes the entries of a folder one level deep (a CSV folder output has no subfolders), with raw syscalls only.
static void empty_folder(const char *path) {
    int folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (folder < 0) return;
    char buffer[4096] __attribute__((aligned(8)));
    for (int rounds = 0; rounds < 1024; rounds++) {
        long count = syscall(SYS_getdents64, folder, buffer, sizeof buffer);
        if (count <= 0) break;
        for (long at = 0; at < count;) {
            struct dirent64_record *entry = (struct dirent64_record *)(buffer + at);
            at += entry->length;
            const char *name = entry->name;
            if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
            unlinkat(folder, name, 0);
        }
    }
    close(folder);
}

void bb_cleanup_remove_all(void) {
    // Files first, then folders (a folder is emptied, then removed).
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&states[i]) == FILE_PATH) unlink(paths[i]);
    }
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&states[i]) == FOLDER_PATH) {
            empty_folder(paths[i]);
            rmdir(paths[i]);
        }
    }
}

static void clean_and_die(int signal_number) {
    // One thread cleans; a signal delivered to another thread meanwhile waits until that is done.
    if (atomic_exchange(&cleaning, 1) == 0) {
        bb_cleanup_remove_all();
        atomic_store(&cleaned, 1);
    } else {
        struct timespec pause = {0, 1000000};
        for (int i = 0; i < 5000 && !atomic_load(&cleaned); i++) nanosleep(&pause, NULL);
    }
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void handler(int signal_number) {
    int saved = errno;
    if (atomic_load(&deferring) > 0) {
        int none = 0;
        atomic_compare_exchange_strong(&pending, &none, signal_number);
        errno = saved;
        return;
    }
    // The signal is blocked while its handler runs: raised again, it ends the process once the handler returns.
    clean_and_die(signal_number);
    errno = saved;
}

void bb_cleanup_install(void) {
    if (atomic_exchange(&installed, 1)) return;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = handler;
        sigemptyset(&action.sa_mask);
        for (size_t j = 0; j < sizeof signals / sizeof signals[0]; j++) sigaddset(&action.sa_mask, signals[j]);
        action.sa_flags = SA_RESTART;
        sigaction(signals[i], &action, NULL);
    }
}

int bb_cleanup_register(const char *path, int is_folder) {
    size_t length = strlen(path);
    if (length >= PATH_BYTES) return -1;
    for (int i = 0; i < SLOTS; i++) {
        int expected = FREE;
        if (atomic_compare_exchange_strong(&states[i], &expected, WRITING)) {
            memcpy(paths[i], path, length + 1);
            atomic_store(&states[i], is_folder ? FOLDER_PATH : FILE_PATH);
            return i;
        }
    }
    return -1;
}

void bb_cleanup_unregister(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&states[slot], FREE);
}

void bb_cleanup_defer_begin(void) { atomic_fetch_add(&deferring, 1); }

void bb_cleanup_defer_end(void) {
    if (atomic_fetch_sub(&deferring, 1) != 1) return;
    int signal_number = atomic_exchange(&pending, 0);
    if (signal_number != 0) clean_and_die(signal_number);
}

int bb_end_with_parent(int parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : 1;
}
