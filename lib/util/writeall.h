/*
 * Writing a whole buffer to a file descriptor, across short writes and
 * EINTR: the spool of sbatchd, and the output relays of bsub -I and
 * blaunch, all need the same loop.
 */
#ifndef BS_WRITEALL_H
#define BS_WRITEALL_H

#include <signal.h>

#include <glib.h>

/*
 * Write n bytes of p to fd.  An EINTR is retried, unless stop is not NULL
 * and *stop is set (a program that gives up on a signal).  FALSE when the
 * write failed or stopped short (errno says why for a failure).
 */
gboolean bs_write_all(int fd, const void *p, gsize n,
    const volatile sig_atomic_t *stop);

#endif
