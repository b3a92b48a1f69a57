/*
 * journal-fill: writes the event journal a busy mbatchd would have written,
 * for the restart figure (bench/fig/restart.sh).
 *
 * The records are the events mbatchd journals (proto/event.proto), through
 * the same library (lib/journal), in one segment and with no checkpoint, so a
 * daemon started on the directory replays every one of them.  The stream is
 * a small simulation of a cluster of HOSTS hosts with 4 slots each: users
 * submit jobs (with a login environment of ~1.5 KB, now and then an array
 * or a 4-slot job), the oldest pending job is dispatched as soon as slots
 * are free and starts right after, running jobs finish DONE or EXIT (some
 * after a bkill), a few are suspended and resumed, requeued, or switched
 * while pending, and finished jobs are cleaned once more than MAX_JOB_NUM
 * (1,000) have finished, as mbatchd does.  A burst of submissions at the
 * end leaves a backlog of pending jobs (~5,000 of 1,000,000 records), the
 * slots are busy, and 1,000 finished jobs are still in memory.
 *
 * Usage: journal-fill -d DIR [-n RECORDS] [-P PENDING] [-H HOSTS] [-s SEED]
 * DIR is the journal directory (LSB_SHAREDIR/events); it must be empty or
 * missing.  -P: after the RECORDS, users keep submitting until at least
 * PENDING jobs pend (a site with a million queued jobs; the records then
 * number more than RECORDS).  On stdout: "expect PEND n STARTED n FINISHED n" (STARTED counts
 * RUN and USUSP), what the replayed state must hold.  Host names are
 * host0001 .. hostHHHH.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "event.pb-c.h"
#include "journal/evlog.h"

#define SLOTS_PER_HOST 4
#define MAX_FINISHED 1000       /* MAX_JOB_NUM's default */
#define N_USERS 24
#define N_ENV 30
#define ARRAY_SIZE 20
#define SPAN_S 86400            /* the records cover the last day */

typedef struct {
	guint64 id;
	guint32 index;
	guint slots;
	int host;               /* -1 while pending */
	gboolean suspended;
} SimJob;

static const char *queues[] = { "normal", "normal", "normal", "normal",
    "short", "short", "priority", "idle" };

typedef struct {
	BsEvlog *log;
	GRand *rng;
	guint64 seq, n_records;
	gint64 t0;
	guint n_hosts;
	guint *free_slots;
	char **host_names;
	char *user_names[N_USERS];
	char **user_env[N_USERS];
	guint64 next_job_id;
	GQueue pending;         /* SimJob*, dispatch order */
	GPtrArray *starting;    /* dispatched, start event not yet written */
	GPtrArray *running;
	GQueue finished;        /* oldest first, for cleaning */
	guint running_slots, capacity;
} Sim;

static void
die(const char *what, GError *err)
{
	fprintf(stderr, "journal-fill: %s: %s\n", what,
	    err != NULL ? err->message : "failed");
	exit(1);
}

/* Appends one event with the next seq and a time that walks up to now. */
static void
emit(Sim *s, Basalt__Event *ev)
{
	GError *err = NULL;

	ev->seq = ++s->seq;
	/* The -P backlog comes in the last second, not in the future. */
	ev->time = s->t0 + (gint64)(MIN(s->seq, s->n_records) * SPAN_S /
	    s->n_records);
	if (!bs_evlog_append(s->log, ev, &err))
		die("append", err);
	if (s->seq % 4096 == 0 && !bs_evlog_sync(s->log, &err))
		die("write", err);
}

/* A login shell's environment, as bsub carries it (~1.5 KB). */
static char **
login_env(const char *user, guint n)
{
	char **env = g_new0(char *, N_ENV + 1);
	guint i = 0;

	env[i++] = g_strdup_printf("HOME=/home/%s", user);
	env[i++] = g_strdup_printf("USER=%s", user);
	env[i++] = g_strdup_printf("LOGNAME=%s", user);
	env[i++] = g_strdup_printf("MAIL=/var/mail/%s", user);
	env[i++] = g_strdup_printf("PWD=/home/%s/projects/run%u", user, n);
	env[i++] = g_strdup_printf("OLDPWD=/home/%s", user);
	env[i++] = g_strdup("SHELL=/bin/bash");
	env[i++] = g_strdup("TERM=xterm-256color");
	env[i++] = g_strdup("LANG=en_US.UTF-8");
	env[i++] = g_strdup("LC_ALL=en_US.UTF-8");
	env[i++] = g_strdup_printf("PATH=/home/%s/.local/bin:/opt/basalt/bin:"
	    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", user);
	env[i++] = g_strdup("LD_LIBRARY_PATH=/opt/basalt/lib:/usr/local/lib");
	env[i++] = g_strdup("MANPATH=/opt/basalt/share/man:/usr/share/man");
	env[i++] = g_strdup("LSF_ENVDIR=/opt/basalt/conf");
	env[i++] = g_strdup("LSF_SERVERDIR=/opt/basalt/sbin");
	env[i++] = g_strdup("LSF_BINDIR=/opt/basalt/bin");
	env[i++] = g_strdup("LSF_LIBDIR=/opt/basalt/lib");
	env[i++] = g_strdup("HOSTNAME=login01");
	env[i++] = g_strdup("SHLVL=1");
	env[i++] = g_strdup("EDITOR=vim");
	env[i++] = g_strdup("PAGER=less");
	env[i++] = g_strdup("LESS=-R");
	env[i++] = g_strdup_printf("XDG_RUNTIME_DIR=/run/user/%u", 1000 + n % 100);
	env[i++] = g_strdup("XDG_SESSION_TYPE=tty");
	env[i++] = g_strdup("SSH_CLIENT=10.11.12.13 52344 22");
	env[i++] = g_strdup("SSH_CONNECTION=10.11.12.13 52344 10.11.0.1 22");
	env[i++] = g_strdup("SSH_TTY=/dev/pts/3");
	env[i++] = g_strdup_printf("OMP_NUM_THREADS=%u", 1 + n % 8);
	env[i++] = g_strdup_printf("PROJECT_DATA=/scratch/%s/data", user);
	env[i++] = g_strdup("LS_COLORS=rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:"
	    "so=01;35:do=01;35:bd=40;33;01:cd=40;33;01:or=40;31;01:mi=00:"
	    "su=37;41:sg=30;43:ca=30;41:tw=30;42:ow=34;42:st=37;44:ex=01;32");
	g_assert(i == N_ENV);
	return env;
}

static void
submit(Sim *s)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew jn = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	guint u = (guint)g_rand_int_range(s->rng, 0, N_USERS);
	guint r = (guint)g_rand_int_range(s->rng, 0, 100);
	guint32 idx[ARRAY_SIZE];
	guint64 id = ++s->next_job_id;
	g_autofree char *cmd = NULL, *cwd = NULL, *name = NULL;
	gboolean array = r == 0, wide = r >= 90;

	cmd = g_strdup_printf("/home/%s/bin/simulate --input run%" G_GUINT64_FORMAT
	    ".dat --steps 1000", s->user_names[u], id % 1000);
	cwd = g_strdup_printf("/home/%s/projects/run%u", s->user_names[u], u);
	name = g_strdup_printf(array ? "sweep%" G_GUINT64_FORMAT "[1-%u]" :
	    "run%" G_GUINT64_FORMAT, id % 1000, ARRAY_SIZE);
	spec.command = cmd;
	spec.job_name = name;
	spec.cwd = cwd;
	spec.env = s->user_env[u];
	spec.n_env = N_ENV;
	spec.stdout_path = "out.%J.%I";
	spec.min_slots = spec.max_slots = wide ? SLOTS_PER_HOST : 1;
	if (r % 3 == 0)
		spec.resreq = "select[mem>4000] rusage[mem=4000]";
	if (r % 5 == 0)
		spec.runlimit_s = 7200;
	spec.project = r % 2 ? "climate" : "genomics";
	spec.submit_host = r % 2 ? "login01" : "login02";
	jn.job_id = id;
	jn.spec = &spec;
	jn.user = s->user_names[u];
	jn.uid = 1000 + u;
	jn.gid = 1000;
	jn.queue = (char *)queues[r % G_N_ELEMENTS(queues)];
	jn.from_host = spec.submit_host;
	if (array) {
		for (guint i = 0; i < ARRAY_SIZE; i++)
			idx[i] = i + 1;
		jn.array_indexes = idx;
		jn.n_array_indexes = ARRAY_SIZE;
		jn.job_name = g_strdup_printf("sweep%" G_GUINT64_FORMAT, id % 1000);
	} else {
		jn.job_name = g_strdup(name);
	}
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &jn;
	emit(s, &ev);
	g_free(jn.job_name);
	for (guint i = 0; i < (array ? ARRAY_SIZE : 1u); i++) {
		SimJob *j = g_new0(SimJob, 1);

		j->id = id;
		j->index = array ? i + 1 : 0;
		j->slots = spec.min_slots;
		j->host = -1;
		g_queue_push_tail(&s->pending, j);
	}
}

/* A host with slots free for j, from a random start; -1: none. */
static int
find_host(Sim *s, const SimJob *j)
{
	guint start = (guint)g_rand_int_range(s->rng, 0, (gint32)s->n_hosts);

	for (guint k = 0; k < s->n_hosts; k++) {
		guint h = (start + k) % s->n_hosts;

		if (s->free_slots[h] >= j->slots)
			return (int)h;
	}
	return -1;
}

/* Dispatches the oldest pending job if it fits; FALSE if it does not. */
static gboolean
dispatch(Sim *s)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch d = BASALT__EV_JOB_DISPATCH__INIT;
	SimJob *j = g_queue_peek_head(&s->pending);
	char *hosts[SLOTS_PER_HOST];
	int h;

	if (j == NULL || (h = find_host(s, j)) < 0)
		return FALSE;
	g_queue_pop_head(&s->pending);
	j->host = h;
	s->free_slots[h] -= j->slots;
	s->running_slots += j->slots;
	for (guint i = 0; i < j->slots; i++)
		hosts[i] = s->host_names[h];
	d.job_id = j->id;
	d.array_index = j->index;
	d.exec_hosts = hosts;
	d.n_exec_hosts = j->slots;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &d;
	emit(s, &ev);
	g_ptr_array_add(s->starting, j);
	return TRUE;
}

static void
start(Sim *s)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStart st = BASALT__EV_JOB_START__INIT;
	SimJob *j = g_ptr_array_steal_index_fast(s->starting, 0);

	st.job_id = j->id;
	st.array_index = j->index;
	st.pgid = 10000 + (int)(s->seq % 50000);
	ev.body_case = BASALT__EVENT__BODY_JOB_START;
	ev.job_start = &st;
	emit(s, &ev);
	g_ptr_array_add(s->running, j);
}

static void
status(Sim *s, const SimJob *j, Basalt__JobState state, int exit_status,
    int sig)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus st = BASALT__EV_JOB_STATUS__INIT;
	Basalt__ResourceUsage ru = BASALT__RESOURCE_USAGE__INIT;

	st.job_id = j->id;
	st.array_index = j->index;
	st.state = state;
	st.exit_status = exit_status;
	st.term_signal = sig;
	if (state == BASALT__JOB_STATE__JOB_STATE_DONE ||
	    state == BASALT__JOB_STATE__JOB_STATE_EXIT) {
		ru.utime_us = g_rand_int(s->rng);
		ru.stime_us = g_rand_int(s->rng) >> 6;
		ru.max_rss_kb = g_rand_int(s->rng) >> 12;
		ru.nprocs = 3;
		st.usage = &ru;
	}
	if (state == BASALT__JOB_STATE__JOB_STATE_USUSP)
		st.reason = "The job was suspended by the user";
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &st;
	emit(s, &ev);
}

static void
job_event(Sim *s, const SimJob *j, Basalt__Event__BodyCase kind)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobSignal sig = BASALT__EV_JOB_SIGNAL__INIT;
	Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;
	Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;

	ev.body_case = kind;
	switch (kind) {
	case BASALT__EVENT__BODY_JOB_SIGNAL:
		sig.job_id = j->id;
		sig.array_index = j->index;
		sig.user = "root";
		ev.job_signal = &sig;
		break;
	case BASALT__EVENT__BODY_JOB_REQUEUE:
		rq.job_id = j->id;
		rq.array_index = j->index;
		rq.reason = "requeued by brequeue";
		ev.job_requeue = &rq;
		break;
	case BASALT__EVENT__BODY_JOB_CLEAN:
		cl.job_id = j->id;
		cl.array_index = j->index;
		ev.job_clean = &cl;
		break;
	default:
		g_assert_not_reached();
	}
	emit(s, &ev);
}

static void
free_slots(Sim *s, SimJob *j)
{
	s->free_slots[j->host] += j->slots;
	s->running_slots -= j->slots;
	j->host = -1;
}

/* Something happens to a random running job: mostly it finishes. */
static void
running_event(Sim *s)
{
	guint i = (guint)g_rand_int_range(s->rng, 0, (gint32)s->running->len);
	SimJob *j = s->running->pdata[i];
	guint r = (guint)g_rand_int_range(s->rng, 0, 1000);

	if (r < 10) {           /* bstop / bresume */
		j->suspended = !j->suspended;
		status(s, j, j->suspended ? BASALT__JOB_STATE__JOB_STATE_USUSP :
		    BASALT__JOB_STATE__JOB_STATE_RUN, 0, 0);
		return;
	}
	g_ptr_array_remove_index_fast(s->running, i);
	free_slots(s, j);
	j->suspended = FALSE;
	if (r < 13) {           /* brequeue: back to pending, at the end */
		job_event(s, j, BASALT__EVENT__BODY_JOB_REQUEUE);
		g_queue_push_tail(&s->pending, j);
		return;
	}
	if (r < 20) {           /* bkill */
		job_event(s, j, BASALT__EVENT__BODY_JOB_SIGNAL);
		status(s, j, BASALT__JOB_STATE__JOB_STATE_EXIT, 130 << 8, 9);
	} else if (r < 90) {
		status(s, j, BASALT__JOB_STATE__JOB_STATE_EXIT, 1 << 8, 0);
	} else {
		status(s, j, BASALT__JOB_STATE__JOB_STATE_DONE, 0, 0);
	}
	g_queue_push_tail(&s->finished, j);
}

/* bswitch of a pending job to another queue, now and then. */
static void
switch_pending(Sim *s)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobSwitch sw = BASALT__EV_JOB_SWITCH__INIT;
	SimJob *j = g_queue_peek_tail(&s->pending);

	if (j == NULL)
		return;
	sw.job_id = j->id;
	sw.array_index = j->index;
	sw.queue = "short";
	ev.body_case = BASALT__EVENT__BODY_JOB_SWITCH;
	ev.job_switch = &sw;
	emit(s, &ev);
}

static void
clean_one(Sim *s)
{
	SimJob *j = g_queue_pop_head(&s->finished);

	job_event(s, j, BASALT__EVENT__BODY_JOB_CLEAN);
	g_free(j);
}

/* One step of the cluster; each writes at most two records. */
static void
step(Sim *s)
{
	double x;

	if (s->finished.length > MAX_FINISHED) {
		clean_one(s);
		return;
	}
	if (s->starting->len > 0 && g_rand_boolean(s->rng)) {
		start(s);
		return;
	}
	if (s->running_slots < s->capacity && dispatch(s))
		return;
	/* Submissions keep up with finishes (each submission is 1.19 jobs
	 * on average), then in the last 0.5% a burst leaves a backlog. */
	x = g_rand_double(s->rng);
	if (x < 0.001)
		switch_pending(s);
	else if (x < (s->seq < s->n_records / 200 * 199 ? 0.455 : 0.9) ||
	    s->running->len == 0)
		submit(s);
	else
		running_event(s);
}

int
main(int argc, char **argv)
{
	static const char *names[] = { "alice", "bob", "carol", "dave", "erin",
	    "frank", "grace", "heidi", "ivan", "judy", "mallory", "nina",
	    "oscar", "peggy", "quentin", "rupert", "sybil", "trent", "ursula",
	    "victor", "walter", "xena", "yves", "zoe" };
	const char *dir = NULL;
	Sim s = { 0 };
	BsEvlogOptions o;
	GError *err = NULL;
	guint64 n = 1000000, pend = 0, started = 0, backlog = 0;
	guint32 seed = 42;
	int c;

	s.n_hosts = 64;
	while ((c = getopt(argc, argv, "d:n:P:H:s:")) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			n = g_ascii_strtoull(optarg, NULL, 10);
			break;
		case 'P':
			backlog = g_ascii_strtoull(optarg, NULL, 10);
			break;
		case 'H':
			s.n_hosts = (guint)atoi(optarg);
			break;
		case 's':
			seed = (guint32)atoi(optarg);
			break;
		default:
			dir = NULL;
			optind = argc;
			break;
		}
	}
	if (dir == NULL || n < 100 || s.n_hosts < 1 || s.n_hosts > 9999) {
		fprintf(stderr, "usage: journal-fill -d DIR [-n RECORDS >= 100] "
		    "[-P PENDING] [-H HOSTS] [-s SEED]\n");
		return 2;
	}
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == N_USERS);
	s.rng = g_rand_new_with_seed(seed);
	s.n_records = n;
	s.t0 = (gint64)time(NULL) - SPAN_S;
	s.free_slots = g_new(guint, s.n_hosts);
	s.host_names = g_new0(char *, s.n_hosts + 1);
	for (guint h = 0; h < s.n_hosts; h++) {
		s.free_slots[h] = SLOTS_PER_HOST;
		s.host_names[h] = g_strdup_printf("host%04u", h + 1);
	}
	s.capacity = s.n_hosts * SLOTS_PER_HOST;
	for (guint u = 0; u < N_USERS; u++) {
		s.user_names[u] = (char *)names[u];
		s.user_env[u] = login_env(names[u], u);
	}
	g_queue_init(&s.pending);
	g_queue_init(&s.finished);
	s.starting = g_ptr_array_new();
	s.running = g_ptr_array_new();

	bs_evlog_options_init(&o);
	o.sync_mode = BS_EVLOG_SYNC_NONE;
	o.segment_size = G_MAXUINT64;   /* one segment: no rotation, no checkpoint */
	s.log = bs_evlog_open(dir, &o, &err);
	if (s.log == NULL)
		die(dir, err);
	if (bs_evlog_next_seq(s.log) != 1) {
		fprintf(stderr, "journal-fill: %s already holds a journal\n", dir);
		return 1;
	}
	/* Stop with room for a step's two records; every step leaves a
	 * consistent state, so the journal ends where the cluster is. */
	while (s.seq + 2 <= n)
		step(&s);
	while (s.seq < n)
		submit(&s);
	while (s.pending.length < backlog)
		submit(&s);
	if (!bs_evlog_sync(s.log, &err))
		die("write", err);
	bs_evlog_free(s.log);

	pend = s.pending.length;
	started = s.starting->len + s.running->len;
	printf("expect PEND %" G_GUINT64_FORMAT " STARTED %" G_GUINT64_FORMAT
	    " FINISHED %u\n", pend, started, s.finished.length);
	printf("hosts %u records %" G_GUINT64_FORMAT " last_job_id %"
	    G_GUINT64_FORMAT "\n", s.n_hosts, s.seq, s.next_job_id);

	g_queue_clear_full(&s.pending, g_free);
	g_queue_clear_full(&s.finished, g_free);
	g_ptr_array_set_free_func(s.starting, g_free);
	g_ptr_array_set_free_func(s.running, g_free);
	g_ptr_array_unref(s.starting);
	g_ptr_array_unref(s.running);
	for (guint u = 0; u < N_USERS; u++)
		g_strfreev(s.user_env[u]);
	g_strfreev(s.host_names);
	g_free(s.free_slots);
	g_rand_free(s.rng);
	return 0;
}
