/* Helpers for the journal's test suites (see journal-fixture.h). */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal-fixture.h"
#include "journal/readback.h"

static char *parent_dir;
static guint dir_counter;

static Basalt__Event *
roundtrip(const Basalt__Event *ev)
{
	gsize len = basalt__event__get_packed_size(ev);
	guint8 *buf = g_malloc(len);
	Basalt__Event *copy;

	basalt__event__pack(ev, buf);
	copy = basalt__event__unpack(NULL, len, buf);
	g_free(buf);
	g_assert(copy != NULL);
	return copy;
}

static void
job_event(Basalt__Event *ev, guint k, guint64 id)
{
	static char *hosts[] = { "hostA", "hostB" };
	static char *env[] = { "HOME=/home/alice", "PATH=/usr/bin:/bin" };
	static guint32 idx[] = { 1, 2, 3 };
	static Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	static Basalt__ResourceUsage ru = BASALT__RESOURCE_USAGE__INIT;
	static Basalt__EvJobNew jn = BASALT__EV_JOB_NEW__INIT;
	static Basalt__EvJobDispatch jd = BASALT__EV_JOB_DISPATCH__INIT;
	static Basalt__EvJobStart js = BASALT__EV_JOB_START__INIT;
	static Basalt__EvJobStatus st = BASALT__EV_JOB_STATUS__INIT;
	static Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;
	static Basalt__EvJobSwitch sw = BASALT__EV_JOB_SWITCH__INIT;
	static Basalt__EvJobModify md = BASALT__EV_JOB_MODIFY__INIT;
	static Basalt__EvJobMove mv = BASALT__EV_JOB_MOVE__INIT;
	static Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;

	spec.command = "sleep 10";
	spec.cwd = "/home/alice";
	spec.env = env;
	spec.n_env = 2;
	spec.min_slots = 1;
	ru.utime_us = 1234567;
	ru.max_rss_kb = 2048;
	switch (k) {
	case 0:
		jn.job_id = id; jn.spec = &spec; jn.user = "alice"; jn.uid = 1000;
		jn.gid = 1000; jn.queue = "normal"; jn.from_host = "hostA";
		jn.array_indexes = idx; jn.n_array_indexes = 3; jn.job_name = "arr";
		ev->body_case = BASALT__EVENT__BODY_JOB_NEW; ev->job_new = &jn;
		break;
	case 1:
		jd.job_id = id; jd.exec_hosts = hosts; jd.n_exec_hosts = 2;
		ev->body_case = BASALT__EVENT__BODY_JOB_DISPATCH; ev->job_dispatch = &jd;
		break;
	case 2:
		js.job_id = id; js.pgid = 4242;
		ev->body_case = BASALT__EVENT__BODY_JOB_START; ev->job_start = &js;
		break;
	case 3:
		st.job_id = id; st.state = BASALT__JOB_STATE__JOB_STATE_DONE;
		st.usage = &ru; st.reason = "done";
		ev->body_case = BASALT__EVENT__BODY_JOB_STATUS; ev->job_status = &st;
		break;
	case 4:
		rq.job_id = id; rq.hold = TRUE; rq.reason = "brequeue";
		ev->body_case = BASALT__EVENT__BODY_JOB_REQUEUE; ev->job_requeue = &rq;
		break;
	case 5:
		sw.job_id = id; sw.queue = "short";
		ev->body_case = BASALT__EVENT__BODY_JOB_SWITCH; ev->job_switch = &sw;
		break;
	case 6:
		md.job_id = id; md.spec = &spec;
		ev->body_case = BASALT__EVENT__BODY_JOB_MODIFY; ev->job_modify = &md;
		break;
	case 7:
		mv.job_id = id; mv.position = 2; mv.to_bottom = TRUE;
		ev->body_case = BASALT__EVENT__BODY_JOB_MOVE; ev->job_move = &mv;
		break;
	default:
		cl.job_id = id;
		ev->body_case = BASALT__EVENT__BODY_JOB_CLEAN; ev->job_clean = &cl;
		break;
	}
}

Basalt__Event *
jt_event(guint k, guint64 seq)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvQueueCtrl qc = BASALT__EV_QUEUE_CTRL__INIT;
	Basalt__EvHostCtrl hc = BASALT__EV_HOST_CTRL__INIT;

	ev.seq = seq;
	ev.time = 1700000000 + (gint64)seq;
	if (k == 9) {
		qc.queue = "normal"; qc.action = BASALT__QUEUE_CTRL__QUEUE_CTRL_CLOSE;
		qc.user = "root"; qc.comment = "maintenance";
		ev.body_case = BASALT__EVENT__BODY_QUEUE_CTRL; ev.queue_ctrl = &qc;
	} else if (k == 10) {
		hc.host = "hostB"; hc.close = TRUE; hc.user = "root";
		ev.body_case = BASALT__EVENT__BODY_HOST_CTRL; ev.host_ctrl = &hc;
	} else {
		job_event(&ev, k, 100 + seq);
	}
	return roundtrip(&ev);
}

void
jt_free(Basalt__Event *ev)
{
	basalt__event__free_unpacked(ev, NULL);
}

GBytes *
jt_pack(const Basalt__Event *ev)
{
	gsize len = basalt__event__get_packed_size(ev);
	guint8 *buf = g_malloc(len);

	basalt__event__pack(ev, buf);
	return g_bytes_new_take(buf, len);
}

void
jt_collect(const Basalt__Event *ev, void *data)
{
	g_ptr_array_add(data, jt_pack(ev));
}

GPtrArray *
jt_stream_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
}

gboolean
jt_stream_equal(GPtrArray *a, GPtrArray *b)
{
	if (a->len != b->len)
		return FALSE;
	for (guint i = 0; i < a->len; i++)
		if (!g_bytes_equal(a->pdata[i], b->pdata[i]))
			return FALSE;
	return TRUE;
}

void
jt_append(BsEvlog *log, guint64 from, guint64 to, guint batch,
    GPtrArray *expect)
{
	GError *err = NULL;

	for (guint64 s = from; s <= to; s++) {
		Basalt__Event *ev = jt_event((guint)(s % JT_KINDS), s);

		ck_assert_msg(bs_evlog_append(log, ev, &err), "append: %s",
		    err ? err->message : "?");
		if (expect != NULL)
			g_ptr_array_add(expect, jt_pack(ev));
		jt_free(ev);
		if ((s - from + 1) % batch == 0 || s == to)
			ck_assert_msg(bs_evlog_sync(log, &err), "sync: %s",
			    err ? err->message : "?");
	}
}

void
jt_suite_setup(void)
{
	GError *err = NULL;

	parent_dir = g_dir_make_tmp("bs-journal-XXXXXX", &err);
	g_assert_no_error(err);
}

static void
rm_rf(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	if (d != NULL) {
		while ((name = g_dir_read_name(d)) != NULL) {
			g_autofree char *p = g_build_filename(path, name, NULL);

			rm_rf(p);
		}
		g_dir_close(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

void
jt_suite_teardown(void)
{
	if (parent_dir != NULL)
		rm_rf(parent_dir);
	g_clear_pointer(&parent_dir, g_free);
}

char *
jt_new_dir(void)
{
	char *d = g_strdup_printf("%s/t%u-%d", parent_dir, dir_counter++,
	    (int)getpid());

	g_assert(g_mkdir_with_parents(d, 0755) == 0);
	return d;
}

guint64
jt_file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return (guint64)st.st_size;
}

void
jt_truncate(const char *path, guint64 size)
{
	ck_assert_int_eq(truncate(path, (off_t)size), 0);
}

void
jt_write_at(const char *path, guint64 off, const void *p, gsize len)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, p, len, (off_t)off), (ssize_t)len);
	close(fd);
}

void
jt_flip_byte(const char *path, guint64 off)
{
	int fd = open(path, O_RDWR);
	guint8 b;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &b, 1, (off_t)off), 1);
	b ^= 0x5a;
	ck_assert_int_eq(pwrite(fd, &b, 1, (off_t)off), 1);
	close(fd);
}

char *
jt_segment(const char *dir, int index)
{
	GPtrArray *segs, *snaps;
	char *path;
	BsJournalFile *f;

	ck_assert(bs_journal_list(dir, &segs, &snaps, NULL));
	ck_assert_uint_gt(segs->len, 0);
	f = g_ptr_array_index(segs, index < 0 ? (int)segs->len + index : index);
	path = g_strdup(f->path);
	g_ptr_array_unref(segs);
	g_ptr_array_unref(snaps);
	return path;
}

guint
jt_count_segments(const char *dir)
{
	GPtrArray *segs, *snaps;
	guint n;

	ck_assert(bs_journal_list(dir, &segs, &snaps, NULL));
	n = segs->len;
	g_ptr_array_unref(segs);
	g_ptr_array_unref(snaps);
	return n;
}

GArray *
jt_record_offsets(const char *path)
{
	GArray *offs = g_array_new(FALSE, FALSE, sizeof(guint64));
	gchar *data;
	gsize len;
	guint64 off = BS_EVLOG_HEADER_SIZE;

	ck_assert(g_file_get_contents(path, &data, &len, NULL));
	while (off + BS_EVLOG_RECORD_HEAD <= len) {
		const guint8 *p = (const guint8 *)data + off;
		guint32 n = (guint32)p[0] | (guint32)p[1] << 8 |
		    (guint32)p[2] << 16 | (guint32)p[3] << 24;

		if (n == 0)
			break;      /* the zeroed space of a preallocated segment */
		g_array_append_val(offs, off);
		off += BS_EVLOG_RECORD_HEAD + n;
	}
	g_free(data);
	return offs;
}
