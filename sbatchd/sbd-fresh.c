/*
 * Files made ahead of the starts that need them.
 *
 * Creating a file costs a start far more than anything else sbatchd does
 * for it: on an ext4 without a journal, after many deletions, finding an
 * inode that was not freed recently means reading through the inode
 * tables (close to a millisecond a file on a busy machine), and a start
 * creates its job file, host file, status record and post-exec override
 * file.  So sbatchd keeps a few empty files, jobs/fresh.N, made when the
 * main loop is idle, and a start renames one to each name it needs before
 * opening it as it always did.
 *
 * A fresh file is new: root's, mode 0600, in a directory users cannot
 * list, never opened by anything but the creating open() before it gets
 * its name, so it is exactly what open(O_CREAT) would have made.  Files
 * are never taken back after a job had them (that is sbd-store.c's spare
 * records, which no job process ever holds).  A restarted sbatchd removes
 * the fresh files it finds and makes new ones.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sbd.h"

/* A start takes four; enough for a few back-to-back starts. */
#define FRESH_TARGET 16
/* Made per idle call, so a start order waits for at most this many. */
#define FRESH_PER_CALL 2

static GPtrArray *
pool(Sbd *sbd)
{
	if (sbd->fresh == NULL)
		sbd->fresh = g_ptr_array_new_with_free_func(g_free);
	return sbd->fresh;
}

static gboolean
make_one(Sbd *sbd)
{
	char name[32];
	char *path;
	int fd;

	g_snprintf(name, sizeof name, "fresh.%u", sbd->fresh_next++);
	path = g_build_filename(sbd->jobs_dir, name, NULL);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		g_free(path);
		return FALSE;
	}
	close(fd);
	g_ptr_array_add(pool(sbd), path);
	return TRUE;
}

static gboolean
refill(gpointer data)
{
	Sbd *sbd = data;

	for (int i = 0; i < FRESH_PER_CALL && pool(sbd)->len < FRESH_TARGET; i++)
		if (!make_one(sbd)) {
			sbd->fresh_src = 0;
			return G_SOURCE_REMOVE;   /* tried again after the next start */
		}
	if (pool(sbd)->len < FRESH_TARGET)
		return G_SOURCE_CONTINUE;
	sbd->fresh_src = 0;
	return G_SOURCE_REMOVE;
}

void
sbd_fresh_refill(Sbd *sbd)
{
	if (sbd->fresh_src == 0 && pool(sbd)->len < FRESH_TARGET)
		sbd->fresh_src = g_idle_add_full(G_PRIORITY_LOW, refill, sbd, NULL);
}

void
sbd_fresh_place(Sbd *sbd, const char *path)
{
	GPtrArray *a = pool(sbd);

	while (a->len > 0) {
		char *f = g_ptr_array_steal_index_fast(a, a->len - 1);

		/* Never over an existing file: that one is opened as before. */
		if (renameat2(AT_FDCWD, f, AT_FDCWD, path, RENAME_NOREPLACE) == 0) {
			g_free(f);
			return;
		}
		/* An existing file, or a filesystem without RENAME_NOREPLACE:
		 * the file stays in the pool, unused. */
		if (errno == EEXIST || errno == EINVAL || errno == ENOSYS) {
			g_ptr_array_add(a, f);
			return;
		}
		(void)g_unlink(f);
		g_free(f);
	}
}

void
sbd_fresh_found(Sbd *sbd, const char *name)
{
	g_autofree char *path = g_build_filename(sbd->jobs_dir, name, NULL);

	(void)g_unlink(path);
}

void
sbd_fresh_free(Sbd *sbd)
{
	g_clear_handle_id(&sbd->fresh_src, g_source_remove);
	g_clear_pointer(&sbd->fresh, g_ptr_array_unref);
}
