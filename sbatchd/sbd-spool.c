/*
 * The report spool: no JobReport is lost, whatever goes down.
 *
 * A report is appended to <statedir>/reports and fdatasync'ed before it is
 * sent, and leaves the file only when mbatchd has acknowledged its seq
 * (JobReportReply.acked_seq).  So a report survives mbatchd being away, the
 * connection dropping mid-call and sbatchd itself restarting; mbatchd drops
 * a report it has already applied by its seq, so sending one twice is safe.
 *
 * File format: records of [u32 length][u32 FNV-1a of the body][packed
 * JobReport], big-endian.  A crash mid-append leaves a short or corrupt last
 * record: it is cut off at load (it was never sent, since sending follows
 * the fsync).  Acknowledged records are removed by truncating the file
 * once it holds no other, or by rewriting it (temporary file, fsync,
 * rename) once they make up most of it (below).
 *
 * The seq counter must never go back, even when the spool is empty.
 * <statedir>/seq holds a bound at or above every seq used: seqs are
 * reserved SEQ_BLOCK at a time (the file written durably before the first
 * of a block is used), so a report costs no write of the seq file, and a
 * restarted sbatchd continues above the bound (a gap in seqs is harmless:
 * mbatchd only asks that they grow).
 *
 * Once every report is acknowledged (the usual case: reports wait only
 * while mbatchd is away) the spool is truncated in place, with no sync and
 * no new file: if a crash of the machine loses the truncation, the old
 * reports come back and are sent again, exactly as if their
 * acknowledgements had been lost, which the seqs already make harmless.
 * Per job this saves two files created and synced per report on the host.
 *
 * By the same argument an acknowledged record may stay in the file while
 * later ones still wait: on a busy host (a report in flight per running
 * job) an ack rarely empties the spool, and rewriting the file at each one
 * cost a new file, a sync and a rename per report, the largest part of
 * sbatchd's work per short job.  So the file is rewritten only once its
 * acknowledged records outweigh COMPACT_BYTES and the waiting ones; until
 * then a restart merely sends a few acknowledged reports again.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sbd.h"
#include "util/error.h"
#include "util/writeall.h"

typedef struct {
	guint64 seq;
	guint64 job_id;
	guint32 index;
	GBytes *body;             /* packed JobReport */
} SpoolEntry;

/* Seqs reserved per write of the seq file. */
#define SEQ_BLOCK 1024

/* Acknowledged bytes the file may hold before it is rewritten. */
#define COMPACT_BYTES (256 * 1024)

struct SbdSpool {
	char *path;
	char *seq_path;
	int fd;
	guint64 last_seq;
	guint64 reserved;         /* the bound in the seq file */
	GQueue entries;           /* SpoolEntry*, seq order */
	gsize live_bytes;         /* the file's bytes of the entries */
	gsize dead_bytes;         /* its bytes of acknowledged records */
};

static guint32
fnv1a(const guint8 *p, gsize n)
{
	guint32 h = 2166136261u;

	for (gsize i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

static void
put_be32(guint8 *p, guint32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static guint32
get_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
}

static void
entry_free(gpointer p)
{
	SpoolEntry *e = p;

	g_bytes_unref(e->body);
	g_free(e);
}

/* An entry from a packed report; NULL when the bytes are not one. */
static SpoolEntry *
entry_new(const guint8 *data, gsize len)
{
	Basalt__JobReport *rep = basalt__job_report__unpack(NULL, len, data);
	SpoolEntry *e;

	if (rep == NULL)
		return NULL;
	e = g_new0(SpoolEntry, 1);
	e->seq = rep->seq;
	if (rep->job != NULL) {
		e->job_id = rep->job->job_id;
		e->index = rep->job->array_index;
	}
	e->body = g_bytes_new(data, len);
	basalt__job_report__free_unpacked(rep, NULL);
	return e;
}

static GByteArray *
frame(GBytes *body)
{
	gsize len;
	const guint8 *data = g_bytes_get_data(body, &len);
	GByteArray *buf = g_byte_array_sized_new(len + 8);
	guint8 head[8];

	put_be32(head, (guint32)len);
	put_be32(head + 4, fnv1a(data, len));
	g_byte_array_append(buf, head, sizeof head);
	g_byte_array_append(buf, data, (guint)len);
	return buf;
}

/* Parse the spool file; returns the length of its valid prefix. */
static gsize
spool_parse(SbdSpool *sp, const guint8 *data, gsize len)
{
	gsize off = 0;

	while (len - off >= 8) {
		guint32 n = get_be32(data + off);
		SpoolEntry *e;

		if (n > len - off - 8 || fnv1a(data + off + 8, n) != get_be32(data + off + 4))
			break;
		e = entry_new(data + off + 8, n);
		if (e == NULL)
			break;
		g_queue_push_tail(&sp->entries, e);
		sp->last_seq = MAX(sp->last_seq, e->seq);
		sp->live_bytes += 8 + n;
		off += 8 + n;
	}
	return off;
}

static gboolean
spool_load(SbdSpool *sp, GError **error)
{
	g_autofree char *text = NULL;
	g_autofree char *seq_text = NULL;
	gsize len = 0, good;

	if (g_file_get_contents(sp->seq_path, &seq_text, NULL, NULL))
		sp->last_seq = sp->reserved = g_ascii_strtoull(seq_text, NULL, 10);
	if (!g_file_get_contents(sp->path, &text, &len, NULL))
		return TRUE;
	good = spool_parse(sp, (const guint8 *)text, len);
	if (good < len) {
		sbd_log(BS_LOG_WARNING, NULL, "report spool %s: cut a torn record at byte %" G_GSIZE_FORMAT,
		    sp->path, good);
		if (truncate(sp->path, (off_t)good) < 0) {
			g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot truncate %s: %s",
			    sp->path, g_strerror(errno));
			return FALSE;
		}
	}
	return TRUE;
}

SbdSpool *
sbd_spool_open(const char *statedir, GError **error)
{
	SbdSpool *sp = g_new0(SbdSpool, 1);

	sp->path = g_build_filename(statedir, "reports", NULL);
	sp->seq_path = g_build_filename(statedir, "seq", NULL);
	g_queue_init(&sp->entries);
	sp->fd = -1;
	if (!spool_load(sp, error)) {
		sbd_spool_free(sp);
		return NULL;
	}
	sp->fd = open(sp->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (sp->fd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot open %s: %s",
		    sp->path, g_strerror(errno));
		sbd_spool_free(sp);
		return NULL;
	}
	return sp;
}

void
sbd_spool_free(SbdSpool *sp)
{
	if (sp == NULL)
		return;
	if (sp->fd >= 0)
		close(sp->fd);
	g_queue_clear_full(&sp->entries, entry_free);
	g_free(sp->path);
	g_free(sp->seq_path);
	g_free(sp);
}

/* Before seq is used: make sure the seq file's bound covers it. */
static void
reserve_seq(SbdSpool *sp, guint64 seq)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	guint64 bound = seq + SEQ_BLOCK - 1;

	if (seq <= sp->reserved)
		return;
	text = g_strdup_printf("%" G_GUINT64_FORMAT "\n", bound);
	if (!g_file_set_contents_full(sp->seq_path, text, -1,
	    G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0600, &err)) {
		/* The report still goes (its seq is above every seq sent);
		 * only a restart of sbatchd could then reuse seqs. */
		sbd_log(BS_LOG_ERR, NULL, "report spool: %s", err->message);
		return;
	}
	sp->reserved = bound;
}

guint64
sbd_spool_append(SbdSpool *sp, Basalt__JobReport *rep)
{
	gsize len;
	guint8 *data;
	GByteArray *buf;
	gsize buf_len;
	SpoolEntry *e;
	gboolean ok;

	rep->seq = sp->last_seq + 1;
	reserve_seq(sp, rep->seq);
	len = basalt__job_report__get_packed_size(rep);
	data = g_malloc(len);
	basalt__job_report__pack(rep, data);
	e = g_new0(SpoolEntry, 1);
	e->seq = rep->seq;
	e->job_id = rep->job != NULL ? rep->job->job_id : 0;
	e->index = rep->job != NULL ? rep->job->array_index : 0;
	e->body = g_bytes_new_take(data, len);
	buf = frame(e->body);
	buf_len = buf->len;
	ok = bs_write_all(sp->fd, buf->data, buf->len, NULL) &&
	    fdatasync(sp->fd) == 0;
	g_byte_array_unref(buf);
	if (!ok) {
		/* Still sent (from memory); only a restart before the ack loses it. */
		sbd_log(BS_LOG_ERR, NULL, "report spool %s: cannot write report %" G_GUINT64_FORMAT ": %s",
		    sp->path, e->seq, g_strerror(errno));
	}
	sp->last_seq = e->seq;
	sp->live_bytes += buf_len;
	g_queue_push_tail(&sp->entries, e);
	return e->seq;
}

/* Rewrite the file with what is left; the old one stays on failure. */
static void
spool_rewrite(SbdSpool *sp)
{
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autoptr(GError) err = NULL;
	int fd;

	for (GList *l = sp->entries.head; l != NULL; l = l->next) {
		GByteArray *buf = frame(((SpoolEntry *)l->data)->body);

		g_byte_array_append(all, buf->data, buf->len);
		g_byte_array_unref(buf);
	}
	if (!g_file_set_contents_full(sp->path, (const char *)all->data, all->len,
	    G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0600, &err)) {
		sbd_log(BS_LOG_ERR, NULL, "report spool: %s", err->message);
		return;
	}
	fd = open(sp->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		sbd_log(BS_LOG_ERR, NULL, "report spool: cannot reopen %s: %s", sp->path, g_strerror(errno));
		return;
	}
	close(sp->fd);
	sp->fd = fd;
	sp->live_bytes = all->len;
	sp->dead_bytes = 0;
}

guint
sbd_spool_ack(SbdSpool *sp, guint64 acked)
{
	guint n = 0;
	SpoolEntry *e;

	while ((e = g_queue_peek_head(&sp->entries)) != NULL && e->seq <= acked) {
		gsize framed = 8 + g_bytes_get_size(e->body);

		sp->live_bytes -= MIN(framed, sp->live_bytes);
		sp->dead_bytes += framed;
		entry_free(g_queue_pop_head(&sp->entries));
		n++;
	}
	if (n == 0)
		return 0;
	if (sp->entries.length == 0 && ftruncate(sp->fd, 0) == 0) {
		sp->live_bytes = sp->dead_bytes = 0;
		return n;
	}
	if (sp->entries.length == 0 ||
	    (sp->dead_bytes > COMPACT_BYTES && sp->dead_bytes > sp->live_bytes))
		spool_rewrite(sp);
	return n;
}

GPtrArray *
sbd_spool_pending(SbdSpool *sp, guint64 after)
{
	GPtrArray *out = g_ptr_array_new();

	for (GList *l = sp->entries.head; l != NULL; l = l->next) {
		SpoolEntry *e = l->data;
		gsize len;
		const guint8 *data;

		if (e->seq <= after)
			continue;
		data = g_bytes_get_data(e->body, &len);
		g_ptr_array_add(out, basalt__job_report__unpack(NULL, len, data));
	}
	return out;
}

guint
sbd_spool_length(const SbdSpool *sp)
{
	return sp->entries.length;
}

gboolean
sbd_spool_has_job(const SbdSpool *sp, guint64 id, guint32 index)
{
	for (GList *l = sp->entries.head; l != NULL; l = l->next) {
		SpoolEntry *e = l->data;

		if (e->job_id == id && e->index == index)
			return TRUE;
	}
	return FALSE;
}
