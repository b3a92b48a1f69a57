/*
 * journal-bench: what the event journal costs on this machine's disk.
 *
 *   1. Appends per second with group commit, batches of 1, 16 and 256 events
 *      per bs_evlog_sync() (fdatasync each), i.e. what a main-loop iteration
 *      with that many state changes pays.
 *   2. Replay time for 1,000,000 records (bs_journal_load into a counting
 *      callback; page cache warm, as on a daemon restart without a reboot).
 *   3. Journal bytes per job: submit + dispatch + start + finish.
 *
 * Each figure is the median of 5 runs.  Not part of `make check`: the
 * numbers depend on the disk.  Usage: journal-bench [-d DIR] [-q]
 * (-q: 100,000 replay records instead of 1,000,000, for a quick look).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "event.pb-c.h"
#include "journal/evlog.h"
#include "journal/readback.h"
#include "util/crc32c.h"

#define RUNS 5

static char *env_vars[32];
static char *hosts[] = { "node017" };

/* The four events of a typical job's life, seq and time filled by caller. */
static void
job_events(guint64 job_id, Basalt__Event ev[4])
{
	static Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	static Basalt__ResourceUsage ru = BASALT__RESOURCE_USAGE__INIT;
	static Basalt__EvJobNew jn = BASALT__EV_JOB_NEW__INIT;
	static Basalt__EvJobDispatch jd = BASALT__EV_JOB_DISPATCH__INIT;
	static Basalt__EvJobStart js = BASALT__EV_JOB_START__INIT;
	static Basalt__EvJobStatus st = BASALT__EV_JOB_STATUS__INIT;

	spec.command = "/home/alice/bin/simulate --input run42.dat --steps 1000";
	spec.cwd = "/home/alice/projects/run42";
	spec.env = env_vars;
	spec.n_env = G_N_ELEMENTS(env_vars);
	spec.stdout_path = "run42.%J.out";
	spec.min_slots = spec.max_slots = 1;
	spec.resreq = "select[mem>4000] rusage[mem=4000]";
	spec.submit_host = "login01";
	jn.job_id = jd.job_id = js.job_id = st.job_id = job_id;
	jn.spec = &spec;
	jn.user = "alice";
	jn.uid = jn.gid = 1000;
	jn.queue = "normal";
	jn.from_host = "login01";
	jn.job_name = "run42";
	jd.exec_hosts = hosts;
	jd.n_exec_hosts = 1;
	js.pgid = 123456;
	st.state = BASALT__JOB_STATE__JOB_STATE_DONE;
	ru.utime_us = 3512345678;
	ru.stime_us = 12345678;
	ru.max_rss_kb = 3900000;
	ru.nprocs = 3;
	st.usage = &ru;
	for (int i = 0; i < 4; i++)
		basalt__event__init(&ev[i]);
	ev[0].body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev[0].job_new = &jn;
	ev[1].body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev[1].job_dispatch = &jd;
	ev[2].body_case = BASALT__EVENT__BODY_JOB_START;
	ev[2].job_start = &js;
	ev[3].body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev[3].job_status = &st;
}

/* A login environment of ~1.5 KB, as bsub would carry it. */
static void
init_env(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(env_vars); i++)
		env_vars[i] = g_strdup_printf("BENCH_VARIABLE_%02u=/usr/local/"
		    "share/some/typical/path/value/%u", i, i * 7919);
}

static double
median(double *v)
{
	for (int i = 0; i < RUNS; i++)
		for (int j = i + 1; j < RUNS; j++)
			if (v[j] < v[i]) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
			}
	return v[RUNS / 2];
}

static void
rm_journal(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (d == NULL)
		return;
	while ((name = g_dir_read_name(d)) != NULL) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		unlink(p);
	}
	g_dir_close(d);
	rmdir(dir);
}

static void
die(GError *err)
{
	fprintf(stderr, "journal-bench: %s\n", err ? err->message : "failed");
	exit(1);
}

/*
 * Appends n events (typical job mix) in batches; returns seconds.  With
 * prealloc, zeros are kept ahead as mbatchd keeps them, and the time spent
 * writing them counts (mbatchd writes them while idle).
 */
static double
write_journal(const char *dir, guint64 n, guint batch, BsEvlogSyncMode mode,
    guint64 prealloc)
{
	BsEvlogOptions o;
	GError *err = NULL;
	BsEvlog *log;
	Basalt__Event ev[4];
	gint64 t0;

	bs_evlog_options_init(&o);
	o.sync_mode = mode;
	o.prealloc_size = prealloc;
	log = bs_evlog_open(dir, &o, &err);
	if (log == NULL)
		die(err);
	t0 = g_get_monotonic_time();
	for (guint64 s = 1; s <= n; s++) {
		Basalt__Event *e = &ev[(s - 1) % 4];

		if ((s - 1) % 4 == 0)
			job_events(s / 4 + 1, ev);
		e->seq = s;
		e->time = 1700000000 + (gint64)s;
		if (!bs_evlog_append(log, e, &err))
			die(err);
		if ((s % batch == 0 || s == n) && (!bs_evlog_sync(log, &err) ||
		    !bs_evlog_preallocate(log, &err)))
			die(err);
		if (bs_evlog_should_rotate(log) && !bs_evlog_rotate(log, &err))
			die(err);
	}
	bs_evlog_free(log);
	return (double)(g_get_monotonic_time() - t0) / 1e6;
}

static void
bench_group_commit(const char *base)
{
	static const guint batches[] = { 1, 16, 256 };
	static const guint64 counts[] = { 2000, 16000, 128000 };
	/* mbatchd's default: 1 MB of zeros ahead (LSB_JOURNAL_PREALLOC_MB). */
	static const guint64 preallocs[] = { 0, (guint64)1 << 20 };

	printf("%-28s %12s %12s %14s\n", "group commit (fdatasync)", "records",
	    "records/s", "us/sync");
	for (guint p = 0; p < G_N_ELEMENTS(preallocs); p++)
	for (guint b = 0; b < G_N_ELEMENTS(batches); b++) {
		double t[RUNS], secs;

		for (int r = 0; r < RUNS; r++) {
			g_autofree char *dir = g_strdup_printf("%s/gc", base);

			t[r] = write_journal(dir, counts[b], batches[b],
			    BS_EVLOG_SYNC_ALWAYS, preallocs[p]);
			rm_journal(dir);
		}
		secs = median(t);
		printf("  batch %-5u %-14s %12" G_GUINT64_FORMAT " %12.0f %14.1f\n",
		    batches[b], preallocs[p] ? "preallocated" : "appended",
		    counts[b], (double)counts[b] / secs,
		    secs * 1e6 / ((double)counts[b] / batches[b]));
	}
}

static void
count_event(const Basalt__Event *ev, void *data)
{
	(*(guint64 *)data)++;
}

static void
bench_replay(const char *base, guint64 n)
{
	g_autofree char *dir = g_strdup_printf("%s/replay", base);
	double t[RUNS], w;
	guint64 bytes = 0;
	GPtrArray *segs, *snaps;

	w = write_journal(dir, n, 1024, BS_EVLOG_SYNC_NONE, 0);
	if (!bs_journal_list(dir, &segs, &snaps, NULL))
		die(NULL);
	for (guint i = 0; i < segs->len; i++)
		bytes += ((BsJournalFile *)segs->pdata[i])->size;
	for (int r = 0; r < RUNS; r++) {
		BsJournalReport rep;
		GError *err = NULL;
		guint64 seen = 0;
		gint64 t0 = g_get_monotonic_time();

		bs_journal_report_init(&rep);
		if (!bs_journal_load(dir, 0, count_event, &seen, &rep, &err))
			die(err);
		t[r] = (double)(g_get_monotonic_time() - t0) / 1e6;
		if (seen != n)
			die(NULL);
		bs_journal_report_clear(&rep);
	}
	printf("\n%-28s %12s %12s %14s\n", "replay (bs_journal_load)", "records",
	    "seconds", "records/s");
	printf("  %-26s %12" G_GUINT64_FORMAT " %12.3f %14.0f\n", "load",
	    n, median(t), (double)n / median(t));
	printf("  (%.1f MB in %u segments; written without fdatasync in %.2f s)\n",
	    (double)bytes / 1e6, segs->len, w);
	g_ptr_array_unref(segs);
	g_ptr_array_unref(snaps);
	rm_journal(dir);
}

static void
bench_bytes_per_job(void)
{
	Basalt__Event ev[4];
	static const char *names[] = { "submit (EvJobNew)", "dispatch",
	    "start", "finish (EvJobStatus)" };
	gsize total = 0, first;

	job_events(123456, ev);
	printf("\n%-28s %12s\n", "journal bytes per job", "bytes");
	for (int i = 0; i < 4; i++) {
		gsize n;

		ev[i].seq = 12345678;
		ev[i].time = 1700000000;
		n = BS_EVLOG_RECORD_HEAD + basalt__event__get_packed_size(&ev[i]);
		total += n;
		printf("  %-26s %12zu\n", names[i], n);
	}
	printf("  %-26s %12zu  (env: %zu vars)\n", "total", total,
	    G_N_ELEMENTS(env_vars));
	first = BS_EVLOG_RECORD_HEAD + basalt__event__get_packed_size(&ev[0]);
	ev[0].job_new->spec->n_env = 0;
	printf("  %-26s %12zu\n", "total without env", total - first +
	    BS_EVLOG_RECORD_HEAD + basalt__event__get_packed_size(&ev[0]));
}

int
main(int argc, char **argv)
{
	const char *where = g_get_tmp_dir();
	guint64 replay_n = 1000000;
	g_autofree char *base = NULL;
	struct statfs fs;
	int c;

	while ((c = getopt(argc, argv, "d:q")) != -1) {
		if (c == 'd')
			where = optarg;
		else if (c == 'q')
			replay_n = 100000;
		else {
			fprintf(stderr, "usage: journal-bench [-d DIR] [-q]\n");
			return 2;
		}
	}
	g_mkdir_with_parents(where, 0755);
	base = g_strdup_printf("%s/journal-bench.%d", where, (int)getpid());
	if (g_mkdir_with_parents(base, 0755) < 0) {
		perror(base);
		return 1;
	}
	init_env();
	printf("journal-bench: dir %s (fs magic 0x%lx), crc32c %s, median of %d "
	    "runs\n\n", where, statfs(where, &fs) == 0 ? (unsigned long)fs.f_type :
	    0UL, bs_crc32c_impl(), RUNS);
	bench_group_commit(base);
	bench_replay(base, replay_n);
	bench_bytes_per_job();
	rmdir(base);
	return 0;
}
