/* syncfs(2) needs _GNU_SOURCE, which Swift's Glibc module does not define. */
#define _GNU_SOURCE
#include <unistd.h>

#include "filesync.h"

int tg_syncfs(int fd) { return syncfs(fd); }
