/*
 * bs_write_all (writeall.h): one copy of the short-write and EINTR loop.
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "util/writeall.h"

gboolean
bs_write_all(int fd, const void *p, gsize n, const volatile sig_atomic_t *stop)
{
	const guint8 *b = p;

	while (n > 0) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR) {
			if (stop != NULL && *stop)
				return FALSE;
			continue;
		}
		if (w <= 0)
			return FALSE;
		b += w;
		n -= (gsize)w;
	}
	return TRUE;
}
