#ifndef FILESYNC_H
#define FILESYNC_H

/* Flushes the whole file system holding `fd` to stable storage (Linux syncfs(2)): one call makes
 * many freshly written files durable, where an fsync per file would wait for the disk each time.
 * Returns 0, or -1 with errno set. */
int tg_syncfs(int fd);

#endif
