/*
 * The journal's files by name: which segments and checkpoints exist, and
 * retention (LSF keeps lsb.events.1 .. lsb.events.N for history; we keep the
 * newest N segments).  Only exact names count, so a *.tmp being written or a
 * *.damaged set aside by salvage is never read by mistake.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "journal/checkpoint.h"
#include "journal/format.h"
#include "journal/readback.h"

#define SEQ_DIGITS 20

static void
file_free(gpointer p)
{
	BsJournalFile *f = p;

	g_free(f->path);
	g_free(f);
}

static gint
file_cmp(gconstpointer a, gconstpointer b)
{
	const BsJournalFile *x = *(BsJournalFile *const *)a;
	const BsJournalFile *y = *(BsJournalFile *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* "events.00000000000000000042" -> 42; FALSE for any other name. */
static gboolean
parse_name(const char *name, const char *prefix, guint64 *seq)
{
	gsize plen = strlen(prefix);
	const char *d = name + plen;

	if (strncmp(name, prefix, plen) != 0 || strlen(d) != SEQ_DIGITS)
		return FALSE;
	for (int i = 0; i < SEQ_DIGITS; i++)
		if (!g_ascii_isdigit(d[i]))
			return FALSE;
	*seq = g_ascii_strtoull(d, NULL, 10);
	return TRUE;
}

static void
add_file(GPtrArray *to, BsJournalFileKind kind, guint64 seq, const char *dir,
    const char *name)
{
	BsJournalFile *f = g_new0(BsJournalFile, 1);
	struct stat st;

	f->kind = kind;
	f->seq = seq;
	f->path = g_build_filename(dir, name, NULL);
	if (stat(f->path, &st) == 0)
		f->size = (guint64)st.st_size;
	g_ptr_array_add(to, f);
}

gboolean
bs_journal_list(const char *dir, GPtrArray **segments, GPtrArray **checkpoints,
    GError **err)
{
	GError *e = NULL;
	GDir *d = g_dir_open(dir, 0, &e);
	const char *name;
	guint64 seq;

	*segments = g_ptr_array_new_with_free_func(file_free);
	*checkpoints = g_ptr_array_new_with_free_func(file_free);
	if (d == NULL) {
		gboolean missing = g_error_matches(e, G_FILE_ERROR,
		    G_FILE_ERROR_NOENT);

		if (!missing)
			g_set_error(err, BS_ERROR, BS_ERROR_IO,
			    "cannot list the journal: %s", e->message);
		g_error_free(e);
		return missing;
	}
	while ((name = g_dir_read_name(d)) != NULL) {
		if (parse_name(name, "events.", &seq))
			add_file(*segments, BS_JOURNAL_FILE_SEGMENT, seq, dir, name);
		else if (parse_name(name, BS_CKPT_FILE_PREFIX ".", &seq))
			add_file(*checkpoints, BS_JOURNAL_FILE_CHECKPOINT, seq,
			    dir, name);
	}
	g_dir_close(d);
	g_ptr_array_sort(*segments, file_cmp);
	g_ptr_array_sort(*checkpoints, file_cmp);
	return TRUE;
}

static gboolean
delete_file(const char *path, guint *n, GError **err)
{
	if (unlink(path) < 0 && errno != ENOENT) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot delete %s: %s", path,
		    g_strerror(errno));
		return FALSE;
	}
	(*n)++;
	return TRUE;
}

/* Leftovers of a crash while writing a checkpoint or creating a segment. */
static gboolean
delete_tmp_files(const char *dir, guint *n, GError **err)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	gboolean ok = TRUE;

	if (d == NULL)
		return TRUE;
	while (ok && (name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_suffix(name, ".tmp")) {
			g_autofree char *p = g_build_filename(dir, name, NULL);

			ok = delete_file(p, n, err);
		}
	}
	g_dir_close(d);
	return ok;
}

/*
 * The seq recovery needs the journal from: one past the older of the two
 * newest valid checkpoints (0: no valid checkpoint, everything is needed).
 * Deletes the valid checkpoints older than those two.
 */
static gboolean
prune_checkpoints(GPtrArray *ckpts, guint64 *need_from, guint *n, GError **err)
{
	guint valid = 0;

	*need_from = 0;
	for (guint i = ckpts->len; i-- > 0;) {
		BsJournalFile *f = g_ptr_array_index(ckpts, i);
		gboolean fatal;

		if (!bs_checkpoint_verify(f->path, NULL, NULL, &fatal, NULL))
			continue;   /* damaged: salvage's business, not retention's */
		if (++valid <= 2) {
			*need_from = f->seq + 1;
			continue;
		}
		if (!delete_file(f->path, n, err))
			return FALSE;
	}
	return TRUE;
}

gboolean
bs_journal_prune(const char *dir, guint keep_segments, guint *n_deleted,
    GError **err)
{
	GPtrArray *segs, *ckpts;
	guint64 need_from;
	guint n = 0;
	gboolean ok;

	if (!bs_journal_list(dir, &segs, &ckpts, err))
		return FALSE;
	ok = prune_checkpoints(ckpts, &need_from, &n, err);
	/* Segment i is not needed when segment i+1 starts at or before need_from. */
	for (guint i = 0; ok && i + 1 < segs->len &&
	    i + keep_segments < segs->len; i++) {
		BsJournalFile *next = g_ptr_array_index(segs, i + 1);

		if (need_from == 0 || next->seq > need_from)
			break;
		ok = delete_file(((BsJournalFile *)g_ptr_array_index(segs, i))->path,
		    &n, err);
	}
	if (ok)
		ok = delete_tmp_files(dir, &n, err);
	if (ok && n > 0)
		ok = bs_fsync_dir(dir, err);
	if (n_deleted != NULL)
		*n_deleted = n;
	g_ptr_array_unref(segs);
	g_ptr_array_unref(ckpts);
	return ok;
}
