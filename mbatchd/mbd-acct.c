/*
 * lsb.acct beside the journal: LSB_SHAREDIR/<cluster>/logdir/lsb.acct, as
 * LSF lays it out, one JOB_FINISH line per run that ended DONE or EXIT;
 * and, when lsf.conf sets LSB_WRITE_LSB_EVENTS=Y, lsb.events in the same
 * directory with JOB_NEW, JOB_START and JOB_STATUS lines
 * (events-record.c).  Both files work the same way, each with its own
 * mark; what follows says lsb.acct for both.
 *
 * Exactly once, across crashes.  The journal is the truth: a record is
 * made when a DONE/EXIT event is applied (acct_note) and written only
 * after the journal sync that made that event durable (acct_flush, called
 * from journal_flush), never before.  After each write the file is synced
 * and a mark, "<seq> <size>", is written and synced (.lsb.acct.mark): the
 * file holds every record of events up to seq, in its first size bytes.
 * On restart the file is cut back to that size (a crash between the write
 * and the mark leaves a tail the mark does not vouch for) and the replay
 * re-makes the records of events after seq; the record is a pure function
 * of the replayed state, so the bytes written again are the same.  The
 * journal is not checkpointed while records are still queued, so those
 * events are always still in it.  With no mark (the first start of a
 * cluster, or of a journal older than this file) the file starts empty
 * at the journal's end: history before it is not invented.
 *
 * A file shorter than its mark says was rotated away by an administrator
 * (mv lsb.acct lsb.acct.1): writing continues in a new file.
 *
 * The mark file has two slots of MARK_SLOT bytes, each a fixed-width line
 * "<seq> <size> <check>" (check: FNV-1a of the rest), written in turn in
 * place: a batch costs one pwrite and one sync, where a new file renamed
 * over the old one cost an inode created and freed, two syncs and a rename
 * per batch, on the loop that also commits submissions.  A crash tearing
 * the slot being written leaves the other, older mark, which is what a
 * crash just before that write would have left (the records it does not
 * cover are still queued, so the journal still holds their events).  The
 * older format, one "<seq> <size>" line, is read as slot 0.
 *
 * Sync policy: fdatasync of the file and of the mark after each batch,
 * unless lsf.conf LSB_JOURNAL_SYNC=none (then the page cache decides, as
 * for the journal).
 *
 * Mode: the records carry other users' command lines and paths, which
 * lsb.params SECURE_JOB_INFO_LEVEL=0 lets everyone read, so the file is
 * 0644 then and 0600 (root only) at every other level; it follows the
 * level at each write, so badmin reconfig tightens or loosens it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbatchd/mbd-acct.h"
#include "mbatchd/mbd.h"
#include "util/error.h"
#include "util/log.h"

typedef struct {
	guint64 seq;
	char *text;
} AcctRec;

struct AcctLog {
	gboolean events;          /* lsb.events rather than lsb.acct */
	char *dir;
	char *path;
	char *mark_path;
	int fd;                   /* -1 until first needed */
	int mark_fd;              /* -1 until first needed */
	guint mark_next;          /* the slot the next mark goes to */
	guint64 mark_seq;         /* every record of events <= this is written */
	gboolean fresh;           /* no mark was found */
	gboolean failing;         /* the last write failed (logged once) */
	GQueue pending;           /* AcctRec*, seq order */
};

static void
rec_free(gpointer p)
{
	AcctRec *r = p;

	g_free(r->text);
	g_free(r);
}

static gboolean
want_sync(const Manager *m)
{
	const char *v = g_hash_table_lookup(m->cfg->lsf->values,
	    "LSB_JOURNAL_SYNC");

	return v == NULL || g_ascii_strcasecmp(v, "none") != 0;
}

static mode_t
file_mode(const Manager *m)
{
	return m->cfg->params->secure_job_info_level == 0 ? 0644 : 0600;
}

/* One slot: "SEQ SIZE CHECK\n", fixed width, so a torn slot keeps its
 * three fields and fails its check. */
#define MARK_SLOT 64
#define MARK_FMT "%020" G_GUINT64_FORMAT " %020" G_GUINT64_FORMAT

static guint32
mark_check(const char *p, gsize n)
{
	guint32 h = 2166136261u;

	for (gsize i = 0; i < n; i++) {
		h ^= (guint8)p[i];
		h *= 16777619u;
	}
	return h;
}

/* Parse one slot; legacy: the older format, "<seq> <size>\n" alone, is
 * taken too (slot 0 only: the first new mark goes to slot 1, and a new
 * line always has its third field in place, torn or not). */
static gboolean
parse_slot(const char *p, gsize n, gboolean legacy, guint64 *seq,
    guint64 *size)
{
	g_autofree char *line = g_strndup(p, n);
	char *nl = strchr(line, '\n');
	char *end, *end2;

	if (nl == NULL)
		return FALSE;
	*nl = '\0';
	*seq = g_ascii_strtoull(line, &end, 10);
	if (end == line || *end != ' ')
		return FALSE;
	*size = g_ascii_strtoull(end + 1, &end2, 10);
	if (end2 == end + 1)
		return FALSE;
	if (*end2 == '\0')
		return legacy;
	return *end2 == ' ' && strlen(end2 + 1) == 8 &&
	    g_ascii_strtoull(end2 + 1, NULL, 16) ==
	    mark_check(line, (gsize)(end2 - line));
}

/* The newest valid slot; *slot is where it is (0 when none). */
static gboolean
read_mark(AcctLog *a, guint64 *seq, guint64 *size, guint *slot)
{
	g_autofree char *text = NULL;
	gsize len = 0;
	gboolean found = FALSE;

	*slot = 0;
	if (!g_file_get_contents(a->mark_path, &text, &len, NULL))
		return FALSE;
	for (guint i = 0; i < 2 && (gsize)i * MARK_SLOT < len; i++) {
		guint64 q, z;

		if (parse_slot(text + i * MARK_SLOT, MIN(len - i * MARK_SLOT,
		    MARK_SLOT), i == 0, &q, &z) &&
		    (!found || q > *seq)) {
			*seq = q;
			*size = z;
			*slot = i;
			found = TRUE;
		}
	}
	return found;
}

static gboolean
write_mark(const Manager *m, AcctLog *a, guint64 seq, guint64 size,
    GError **err)
{
	char slot[MARK_SLOT];
	int n;

	memset(slot, 0, sizeof slot);
	n = g_snprintf(slot, sizeof slot, MARK_FMT, seq, size);
	g_snprintf(slot + n, sizeof slot - (gsize)n, " %08x\n",
	    mark_check(slot, (gsize)n));
	if (a->mark_fd < 0)
		a->mark_fd = open(a->mark_path, O_RDWR | O_CREAT | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (a->mark_fd < 0 ||
	    pwrite(a->mark_fd, slot, sizeof slot,
	    (off_t)a->mark_next * MARK_SLOT) != (ssize_t)sizeof slot ||
	    (want_sync(m) && fdatasync(a->mark_fd) != 0)) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot write %s: %s",
		    a->mark_path, g_strerror(errno));
		return FALSE;
	}
	a->mark_next ^= 1;
	return TRUE;
}

static gboolean
ensure_fd(const Manager *m, AcctLog *a, GError **err)
{
	struct stat st;

	/* Rotated away or removed since: start the new file. */
	if (a->fd >= 0 && (stat(a->path, &st) != 0 ||
	    fstat(a->fd, &st) != 0 || st.st_nlink == 0)) {
		close(a->fd);
		a->fd = -1;
	}
	if (a->fd < 0) {
		a->fd = open(a->path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
		    O_CLOEXEC, file_mode(m));
		if (a->fd < 0) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot open %s: %s",
			    a->path, g_strerror(errno));
			return FALSE;
		}
	}
	if (fstat(a->fd, &st) == 0 && (st.st_mode & 07777) != file_mode(m))
		(void)fchmod(a->fd, file_mode(m));
	return TRUE;
}

static gboolean
log_open(Manager *m, AcctLog *a, const char *name, GError **err)
{
	g_autofree char *mark = g_strdup_printf(".%s.mark", name);
	guint64 seq = 0, size = 0;
	guint slot = 0;
	struct stat st;
	int fd;

	a->fd = -1;
	a->mark_fd = -1;
	g_queue_init(&a->pending);
	a->dir = g_build_filename(m->sharedir, m->cfg->cluster->name, "logdir",
	    NULL);
	a->path = g_build_filename(a->dir, name, NULL);
	a->mark_path = g_build_filename(a->dir, mark, NULL);
	if (g_mkdir_with_parents(a->dir, 0755) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s",
		    a->dir, g_strerror(errno));
		return FALSE;
	}
	if (!read_mark(a, &seq, &size, &slot)) {
		a->fresh = TRUE;
		return TRUE;
	}
	/* The newest mark stays until the next one is on disk. */
	a->mark_next = slot ^ 1;
	a->mark_seq = seq;
	/* Opened without following a link: only the file itself is cut. */
	fd = open(a->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (guint64)st.st_size > size) {
		/* Records past the mark: their events are replayed after it. */
		if (ftruncate(fd, (off_t)size) != 0) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot cut %s back "
			    "to %" G_GUINT64_FORMAT " bytes: %s", a->path, size,
			    g_strerror(errno));
			close(fd);
			return FALSE;
		}
		log_notice("%s: cut %" G_GUINT64_FORMAT " bytes written after "
		    "its last mark; they are written again from the journal",
		    name, (guint64)st.st_size - size);
	}
	if (fd >= 0)
		close(fd);
	return TRUE;
}

static gboolean
want_events(const Manager *m)
{
	const char *v = g_hash_table_lookup(m->cfg->lsf->values,
	    "LSB_WRITE_LSB_EVENTS");

	return v != NULL && (v[0] == 'Y' || v[0] == 'y');
}

gboolean
acct_open(Manager *m, GError **err)
{
	m->acct = g_new0(AcctLog, 1);
	if (!log_open(m, m->acct, "lsb.acct", err))
		return FALSE;
	if (!want_events(m))
		return TRUE;
	m->events = g_new0(AcctLog, 1);
	m->events->events = TRUE;
	return log_open(m, m->events, "lsb.events", err);
}

static void
queue_rec(AcctLog *a, guint64 seq, GString *text)
{
	AcctRec *r = g_new(AcctRec, 1);

	r->seq = seq;
	r->text = g_string_free(text, FALSE);
	g_queue_push_tail(&a->pending, r);
}

static guint64
log_horizon(const AcctLog *a)
{
	return a == NULL || a->fresh ? G_MAXUINT64 : a->mark_seq;
}

guint64
acct_replay_horizon(const Manager *m)
{
	return MIN(log_horizon(m->acct), log_horizon(m->events));
}

void
acct_note(Manager *m, const Basalt__Event *ev)
{
	AcctLog *a = m->acct;
	const Basalt__EvJobStatus *s;
	const Job *j;
	GString *text;

	/* seq 0: a checkpoint's restatement of a job finished long ago. */
	if (ev->seq == 0)
		return;
	/* A fresh file starts at the journal's end (log_recovered): what a
	 * replay would queue for it is dropped, so it is not even made. */
	if (m->events != NULL && !m->events->fresh &&
	    ev->seq > m->events->mark_seq) {
		text = g_string_new(NULL);
		if (events_format(text, ev, m->st))
			queue_rec(m->events, ev->seq, text);
		else
			g_string_free(text, TRUE);
	}
	if (a == NULL || a->fresh ||
	    ev->body_case != BASALT__EVENT__BODY_JOB_STATUS)
		return;
	s = ev->job_status;
	if ((s->state != JS_DONE && s->state != JS_EXIT) ||
	    ev->seq <= a->mark_seq)
		return;
	j = state_job(m->st, s->job_id, s->array_index);
	if (j == NULL)
		return;
	text = g_string_new(NULL);
	acct_format_finish(text, j, ev->time);
	queue_rec(a, ev->seq, text);
}

/* Append the queued records of events <= upto, sync, then mark. */
static gboolean
write_upto(Manager *m, AcctLog *a, guint64 upto, GError **err)
{
	GString *buf = g_string_new(NULL);
	guint n = 0;
	struct stat st;
	gboolean ok;

	for (GList *l = a->pending.head; l != NULL; l = l->next) {
		AcctRec *r = l->data;

		if (r->seq > upto)
			break;
		g_string_append(buf, r->text);
		n++;
	}
	ok = ensure_fd(m, a, err);
	if (ok && buf->len > 0 &&
	    write(a->fd, buf->str, buf->len) != (ssize_t)buf->len) {
		/* A short write leaves a tail the mark does not cover; the
		 * next start cuts it, and the records stay queued. */
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot write %s: %s",
		    a->path, g_strerror(errno));
		ok = FALSE;
	}
	if (ok && want_sync(m) && fdatasync(a->fd) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot sync %s: %s",
		    a->path, g_strerror(errno));
		ok = FALSE;
	}
	if (ok && fstat(a->fd, &st) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot stat %s: %s",
		    a->path, g_strerror(errno));
		ok = FALSE;
	}
	if (ok)
		ok = write_mark(m, a, MAX(upto, a->mark_seq), (guint64)st.st_size,
		    err);
	g_string_free(buf, TRUE);
	if (!ok)
		return FALSE;
	while (n-- > 0)
		rec_free(g_queue_pop_head(&a->pending));
	a->mark_seq = MAX(upto, a->mark_seq);
	return TRUE;
}

static void
log_recovered(Manager *m, AcctLog *a)
{
	guint64 last = journal_next_seq(m) - 1;
	GError *err = NULL;

	if (a->fresh) {
		g_queue_clear_full(&a->pending, rec_free);
		a->mark_seq = last;
		a->fresh = FALSE;   /* events from now on are recorded */
	}
	if (!write_upto(m, a, last, &err)) {
		log_warning("%s: %s; will retry", a->path, err->message);
		g_error_free(err);
		a->failing = TRUE;
	}
}

void
acct_recovered(Manager *m)
{
	log_recovered(m, m->acct);
	if (m->events != NULL)
		log_recovered(m, m->events);
}

static gboolean
log_flush(Manager *m, AcctLog *a, guint64 synced_seq)
{
	GError *err = NULL;

	if (a == NULL || g_queue_is_empty(&a->pending))
		return TRUE;
	if (((AcctRec *)a->pending.head->data)->seq > synced_seq)
		return TRUE;
	if (!write_upto(m, a, synced_seq, &err)) {
		if (!a->failing)
			log_warning("%s; its records wait in memory and the "
			    "journal keeps their events until it can be written",
			    err->message);
		a->failing = TRUE;
		g_error_free(err);
		return FALSE;
	}
	if (a->failing)
		log_notice("%s: writable again", a->path);
	a->failing = FALSE;
	return TRUE;
}

gboolean
acct_flush(Manager *m, guint64 synced_seq)
{
	gboolean ok = log_flush(m, m->acct, synced_seq);

	return log_flush(m, m->events, synced_seq) && ok;
}

gboolean
acct_caught_up(const Manager *m)
{
	return (m->acct == NULL || g_queue_is_empty(&m->acct->pending)) &&
	    (m->events == NULL || g_queue_is_empty(&m->events->pending));
}

static void
log_close(AcctLog *a)
{
	if (a == NULL)
		return;
	if (a->fd >= 0)
		close(a->fd);
	if (a->mark_fd >= 0)
		close(a->mark_fd);
	g_queue_clear_full(&a->pending, rec_free);
	g_free(a->dir);
	g_free(a->path);
	g_free(a->mark_path);
	g_free(a);
}

void
acct_close(Manager *m)
{
	log_close(m->acct);
	log_close(m->events);
	m->acct = NULL;
	m->events = NULL;
}
