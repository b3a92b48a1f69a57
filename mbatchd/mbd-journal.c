/*
 * mbatchd's use of the event journal (lib/journal): recovery at start,
 * group commit before the main loop sleeps, checkpoints and rotation, and
 * what happens when the disk refuses.
 *
 * Commit protocol: manager_commit() applies an event and appends it to the
 * journal's buffer, and raises the RPC output gate to its sequence number.
 * Before every poll (a high-priority source's prepare) everything appended
 * is written with one fdatasync; only then does the gate let the replies
 * and start orders behind those events out.  A burst of submissions in one
 * loop iteration thus costs one fsync.
 *
 * When the journal cannot be written (ENOSPC, EIO) the events stay
 * buffered, their replies stay held, new work is refused with a clear
 * error, queries are still answered, running jobs keep running, and the
 * sync is retried every second until the disk takes it.
 */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal/checkpoint.h"
#include "journal/evlog.h"
#include "journal/readback.h"
#include "mbatchd/mbd-acct.h"
#include "mbatchd/mbd.h"
#include "util/error.h"
#include "util/log.h"

#define RETRY_US (1 * G_USEC_PER_SEC)
#define KEEP_SEGMENTS_DEFAULT 10
/*
 * Zeros kept ahead of the journal's records (bs_evlog_preallocate), so that
 * a commit's fdatasync writes the records alone and not the inode: 140 to
 * 88 us per sync on ext4 here.  1 MB is some 500 submissions, renewed
 * half at a time while mbatchd is idle.
 */
#define PREALLOC_MB_DEFAULT 1
#define PREALLOC_MB_MAX 1024

typedef struct {
	GSource src;
	Manager *m;
} CommitSource;

static void
replay_event(const Basalt__Event *ev, void *data)
{
	Manager *m = data;
	GError *err = NULL;

	if (!state_apply(m->st, ev, &err)) {
		/* The journal only ever holds events that fit; one that does
		 * not is a bug worth a loud line, not a refusal to start. */
		log_err("journal replay: event %" G_GUINT64_FORMAT " does not fit: %s",
		    ev->seq, err->message);
		g_error_free(err);
		return;
	}
	acct_note(m, ev);
}

/* Passing over the records of jobs cleaned later (lib/journal/skip.h):
 * only as far as lsb.acct and lsb.events have their records, and only
 * from a state whose queues are in submission order. */
static guint64
replay_horizon(void *data)
{
	Manager *m = data;

	return state_queues_in_order(m->st) ? acct_replay_horizon(m) : 0;
}

static void
replay_skipped(const BsRecPeek *pk, const char *queue, void *data)
{
	Manager *m = data;

	state_replay_skipped(m->st, pk->seq, pk->job_id,
	    pk->body == BASALT__EVENT__BODY_JOB_NEW, queue);
}

static const BsJournalSkip replay_skip = { replay_horizon, replay_skipped };

static const char *
lsf_value(const Manager *m, const char *key)
{
	return g_hash_table_lookup(m->cfg->lsf->values, key);
}

/* LSB_JOURNAL_PREALLOC_MB: the zeros are written to the journal's disk,
 * so a value that is not a plain number, or one that would fill the disk
 * with them, is refused for the default rather than read as whatever
 * strtoull makes of it. */
static guint64
prealloc_mb(const char *value)
{
	guint64 mb;

	if (value == NULL)
		return PREALLOC_MB_DEFAULT;
	if (!g_ascii_string_to_unsigned(value, 10, 0, PREALLOC_MB_MAX, &mb,
	    NULL)) {
		log_warning("lsf.conf: LSB_JOURNAL_PREALLOC_MB=%s is not a number "
		    "of megabytes from 0 to %d, using %d", value, PREALLOC_MB_MAX,
		    PREALLOC_MB_DEFAULT);
		return PREALLOC_MB_DEFAULT;
	}
	return mb;
}

static void
read_options(Manager *m, BsEvlogOptions *o)
{
	const char *mode = lsf_value(m, "LSB_JOURNAL_SYNC");
	const char *size = lsf_value(m, "LSB_JOURNAL_SEGMENT_MB");
	const char *keep = lsf_value(m, "LSB_JOURNAL_KEEP");
	const char *prealloc = lsf_value(m, "LSB_JOURNAL_PREALLOC_MB");

	bs_evlog_options_init(o);
	if (mode != NULL && !bs_evlog_sync_mode_parse(mode, &o->sync_mode))
		log_warning("lsf.conf: LSB_JOURNAL_SYNC=%s is not always or none, "
		    "using always", mode);
	if (size != NULL && g_ascii_strtoull(size, NULL, 10) > 0)
		o->segment_size = g_ascii_strtoull(size, NULL, 10) << 20;
	o->prealloc_size = prealloc_mb(prealloc) << 20;
	m->keep_segments = keep != NULL && atoi(keep) > 0 ? (guint)atoi(keep) :
	    KEEP_SEGMENTS_DEFAULT;
}

/*
 * The journal holds every job's command and environment: private to root.
 * A journal written by an older mbatchd (directory 0755, files 0644) is
 * tightened here, once, and said so in the log.
 */
static void
tighten_journal(const char *dir)
{
	struct stat st;
	GDir *d;
	const char *name;
	guint n = 0;

	if (stat(dir, &st) == 0 && (st.st_mode & 07777) != 0700) {
		if (chmod(dir, 0700) == 0)
			n++;
		else
			log_warning("journal: cannot make %s private: %s", dir,
			    g_strerror(errno));
	}
	d = g_dir_open(dir, 0, NULL);
	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
		    (st.st_mode & 077) == 0)
			continue;
		if (chmod(path, st.st_mode & 0700) == 0)
			n++;
		else
			log_warning("journal: cannot make %s private: %s", path,
			    g_strerror(errno));
	}
	if (d != NULL)
		g_dir_close(d);
	if (n > 0)
		log_notice("journal: made %s and its files private to root "
		    "(%u changed)", dir, n);
}

gboolean
journal_open(Manager *m, GError **err)
{
	BsJournalReport rep;
	BsEvlogOptions o;
	GError *local = NULL;
	gboolean ok;

	m->journal_dir = g_build_filename(m->sharedir, "events", NULL);
	if (g_mkdir_with_parents(m->journal_dir, 0700) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s",
		    m->journal_dir, g_strerror(errno));
		return FALSE;
	}
	tighten_journal(m->journal_dir);
	if (!acct_open(m, err))
		return FALSE;
	bs_journal_report_init(&rep);
	state_replay_begin(m->st);
	/* BS_TEST_REPLAY_ALL: every record applied, for the tests that
	 * compare the state made both ways. */
	ok = bs_journal_load_skip(m->journal_dir, 0, replay_event,
	    g_getenv("BS_TEST_REPLAY_ALL") != NULL ? NULL : &replay_skip, m,
	    &rep, &local);
	state_replay_end(m->st);
	if (!ok) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "the event journal in %s "
		    "cannot be replayed: %s\nCheck it with `badmin journal check` and "
		    "repair it with `badmin journal salvage`", m->journal_dir,
		    local->message);
		g_error_free(local);
		bs_journal_report_clear(&rep);
		return FALSE;
	}
	if (rep.dropped_bytes > 0)
		log_warning("journal: cut a torn record at the end of %s: %"
		    G_GUINT64_FORMAT " bytes dropped", rep.dropped_path, rep.dropped_bytes);
	log_notice("journal: recovered %" G_GUINT64_FORMAT " checkpoint events and %"
	    G_GUINT64_FORMAT " records (last seq %" G_GUINT64_FORMAT "; %"
	    G_GUINT64_FORMAT " of jobs cleaned later passed over)",
	    rep.checkpoint_events, rep.records, rep.last_seq, rep.skipped);
	read_options(m, &o);
	/* From the end the replay found: the newest segment is not read twice. */
	m->log = bs_evlog_open_at(m->journal_dir, &o, &rep.end, err);
	bs_journal_report_clear(&rep);
	if (m->log == NULL)
		return FALSE;
	acct_recovered(m);
	return TRUE;
}

gboolean
journal_append(Manager *m, Basalt__Event *ev, GError **err)
{
	return bs_evlog_append(m->log, ev, err);
}

void
journal_cancel_last(Manager *m)
{
	bs_evlog_cancel_last(m->log);
}

guint64
journal_next_seq(Manager *m)
{
	return bs_evlog_next_seq(m->log);
}

/* Checkpoint the state at the synced seq, start a new segment, prune. */
static void
checkpoint_and_rotate(Manager *m)
{
	GPtrArray *blocks;
	GPtrArray *events = state_export_events(m->st, &blocks);
	guint64 seq = bs_evlog_synced_seq(m->log);
	guint n = 0;
	GError *err = NULL;

	if (!bs_checkpoint_write(m->journal_dir, seq, events, &err) ||
	    !bs_evlog_rotate(m->log, &err) ||
	    !bs_journal_prune(m->journal_dir, m->keep_segments, &n, &err)) {
		log_warning("journal: checkpoint and rotation at seq %" G_GUINT64_FORMAT
		    " failed, will retry: %s", seq, err->message);
		g_error_free(err);
	} else {
		log_info("journal: checkpoint at seq %" G_GUINT64_FORMAT " (%u events), "
		    "new segment, %u old files removed", seq, events->len, n);
	}
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
}

gboolean
journal_flush(Manager *m)
{
	guint n;
	gsize bytes;
	GError *err = NULL;
	gint64 now = g_get_monotonic_time();

	bs_evlog_pending(m->log, &n, &bytes);
	if (n == 0) {
		/* Records lsb.acct could not take yet are retried here too. */
		acct_flush(m, bs_evlog_synced_seq(m->log));
		/* Idle, replies sent: the time to zero the space ahead. */
		if (!bs_evlog_preallocate(m->log, &err)) {
			log_warning("journal: %s", err->message);
			g_error_free(err);
		}
		return TRUE;
	}
	if (m->storage_failed && now < m->storage_retry_at)
		return FALSE;
	if (!bs_evlog_sync(m->log, &err)) {
		if (!m->storage_failed)
			log_err("journal: %s; refusing new work until it can be "
			    "written", err->message);
		m->storage_failed = TRUE;
		g_free(m->storage_error);
		m->storage_error = g_strdup(err->message);
		m->storage_retry_at = now + RETRY_US;
		g_error_free(err);
		return FALSE;
	}
	if (m->storage_failed)
		log_notice("journal: writable again; %u held events are durable", n);
	m->storage_failed = FALSE;
	bs_rpc_server_set_synced(m->srv, bs_evlog_synced_seq(m->log));
	/* A checkpoint would drop the events of records lsb.acct still
	 * lacks: rotate only when it has them all. */
	if (!acct_flush(m, bs_evlog_synced_seq(m->log)))
		return TRUE;
	if (bs_evlog_should_rotate(m->log))
		checkpoint_and_rotate(m);
	return TRUE;
}

static gboolean
commit_prepare(GSource *src, gint *timeout)
{
	Manager *m = ((CommitSource *)src)->m;

	journal_flush(m);
	/* While the disk refuses, wake up to retry even if nothing else does. */
	*timeout = m->storage_failed ? (gint)(RETRY_US / 1000) : -1;
	return FALSE;
}

static gboolean
commit_dispatch(GSource *src, GSourceFunc cb, gpointer data)
{
	return G_SOURCE_CONTINUE;
}

static GSourceFuncs commit_funcs = {
	.prepare = commit_prepare,
	.dispatch = commit_dispatch,
};

void
journal_start_commits(Manager *m)
{
	GSource *src = g_source_new(&commit_funcs, sizeof(CommitSource));

	((CommitSource *)src)->m = m;
	/* Highest priority: GLib prepares sources in priority order and may
	 * skip lower ones when a higher one is ready. */
	g_source_set_priority(src, G_PRIORITY_HIGH);
	g_source_attach(src, NULL);
	m->commit_src = src;
}

void
journal_close(Manager *m)
{
	if (m->commit_src != NULL) {
		g_source_destroy(m->commit_src);
		g_source_unref(m->commit_src);
		m->commit_src = NULL;
	}
	if (m->log != NULL) {
		journal_flush(m);
		bs_evlog_free(m->log);
		m->log = NULL;
	}
	acct_close(m);
	g_free(m->journal_dir);
	g_free(m->storage_error);
}
