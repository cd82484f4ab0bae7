// An LD_PRELOAD shim for tests: makes chosen file system calls fail, with a chosen errno, for
// paths below one folder, as a full disk, a read-only mount or an object-store mount (which
// refuses rename) would. Built by the tests with `cc -shared -fPIC -o fsfault.so fsfault.c -ldl`.
//
//   FSFAULT_DIR=/path/to/folder      the paths affected (that prefix)
//   FSFAULT=write:ENOSPC,rename:EXDEV   the calls to fail: open, mkdir, write, rename
//   FSFAULT_LOG=/path/to/log          optional: one line per failed call, to count them
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// The errno `call` fails with under FSFAULT, or 0.
static int fault_for(const char *call) {
    const char *spec = getenv("FSFAULT");
    if (!spec) return 0;
    size_t length = strlen(call);
    for (const char *at = spec; (at = strstr(at, call)) != NULL; at += length) {
        if ((at == spec || at[-1] == ',') && at[length] == ':') {
            const char *name = at + length + 1;
            if (!strncmp(name, "ENOSPC", 6)) return ENOSPC;
            if (!strncmp(name, "EROFS", 5)) return EROFS;
            if (!strncmp(name, "EIO", 3)) return EIO;
            if (!strncmp(name, "EXDEV", 5)) return EXDEV;
            if (!strncmp(name, "EPERM", 5)) return EPERM;
            if (!strncmp(name, "EACCES", 6)) return EACCES;
        }
    }
    return 0;
}

/// True for a path below FSFAULT_DIR (as given, or relative to the working directory).
static int affected(const char *path) {
    const char *dir = getenv("FSFAULT_DIR");
    if (!dir || !path) return 0;
    char absolute[4096];
    if (path[0] != '/') {
        if (!getcwd(absolute, sizeof absolute - 1)) return 0;
        strncat(absolute, "/", sizeof absolute - strlen(absolute) - 1);
        strncat(absolute, path, sizeof absolute - strlen(absolute) - 1);
        path = absolute;
    }
    return strncmp(path, dir, strlen(dir)) == 0;
}

static int fail(const char *call, const char *path, int code) {
    const char *log = getenv("FSFAULT_LOG");
    if (log) {
        int fd = ((int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open"))(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
        if (fd >= 0) {
            char line[4200];
            int n = snprintf(line, sizeof line, "%s %s\n", call, path);
            ((ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write"))(fd, line, (size_t)n);
            close(fd);
        }
    }
    errno = code;
    return -1;
}

static int open_with(const char *symbol, const char *path, int flags, va_list args) {
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(args, mode_t) : 0;
    int code = fault_for("open");
    if (code && (flags & (O_WRONLY | O_RDWR)) && affected(path)) return fail("open", path, code);
    return ((int (*)(const char *, int, ...))dlsym(RTLD_NEXT, symbol))(path, flags, mode);
}

int open(const char *path, int flags, ...) {
    va_list args; va_start(args, flags);
    int result = open_with("open", path, flags, args);
    va_end(args);
    return result;
}

int open64(const char *path, int flags, ...) {
    va_list args; va_start(args, flags);
    int result = open_with("open64", path, flags, args);
    va_end(args);
    return result;
}

int mkdir(const char *path, mode_t mode) {
    int code = fault_for("mkdir");
    if (code && affected(path)) return fail("mkdir", path, code);
    return ((int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir"))(path, mode);
}

ssize_t write(int fd, const void *bytes, size_t count) {
    int code = fault_for("write");
    if (code && fd > 2) {
        char link[64], path[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, path, sizeof path - 1);
        if (n > 0) {
            path[n] = 0;
            if (affected(path)) return fail("write", path, code);
        }
    }
    return ((ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write"))(fd, bytes, count);
}

int rename(const char *from, const char *to) {
    int code = fault_for("rename");
    if (code && affected(to)) return fail("rename", to, code);
    return ((int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename"))(from, to);
}
