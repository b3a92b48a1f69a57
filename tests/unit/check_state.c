/*
 * state_apply(): each event's effect, the pending order it keeps, and that
 * an event which does not fit is refused without changing anything.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/state/state.h"
#include "resreq/resreq.h"
#include "tap.h"

static State *st;
static guint64 seq;

static void
setup(void)
{
	st = state_new();
	seq = 0;
}

static void
teardown(void)
{
	state_free(st);
}

static gboolean
apply(Basalt__Event *ev, gint64 t)
{
	GError *err = NULL;
	gboolean ok;

	ev->seq = ++seq;
	ev->time = t;
	ok = state_apply(st, ev, &err);
	g_clear_error(&err);
	return ok;
}

static void
submit(guint64 id, const char *queue, gint64 t, guint32 n_elems, gboolean hold)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	guint32 idx[8];

	spec.command = "sleep 10";
	spec.hold = hold;
	e.job_id = id;
	e.spec = &spec;
	e.user = "alice";
	e.queue = (char *)queue;
	e.from_host = "hA";
	e.job_name = n_elems ? "arr" : "";
	for (guint32 i = 0; i < n_elems; i++)
		idx[i] = i + 1;
	e.array_indexes = idx;
	e.n_array_indexes = n_elems;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	ck_assert(apply(&ev, t));
}

static gboolean
dispatch(guint64 id, guint32 index, const char *host)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;
	char *hosts[] = { (char *)host };

	e.job_id = id;
	e.array_index = index;
	e.exec_hosts = hosts;
	e.n_exec_hosts = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	return apply(&ev, 50);
}

static gboolean
status(guint64 id, JobState s, int exit_status)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;

	e.job_id = id;
	e.state = s;
	e.exit_status = exit_status;
	e.reason = "The job was suspended by user;";
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &e;
	return apply(&ev, 60);
}

/* The job is suspended by a preemptor (SSUSP, counted). */
static gboolean
preempt(guint64 id, guint64 by)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;

	e.job_id = id;
	e.state = JS_SSUSP;
	e.reason = "The job was preempted";
	e.preempted_by_job = by;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &e;
	return apply(&ev, 70);
}

/* Ids of the queue's pending jobs, in order: "1 2 3". */
static char *
pending_ids(const char *queue)
{
	GString *s = g_string_new(NULL);
	QueueRt *q = state_queue(st, queue);

	for (GList *l = q != NULL ? q->pending.head : NULL; l; l = l->next) {
		Job *j = l->data;

		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, s->len ? " " : "",
		    j->id);
		if (j->index)
			g_string_append_printf(s, "[%u]", j->index);
	}
	return g_string_free(s, FALSE);
}

#define ck_pending(q, want) do { \
	char *got_ = pending_ids(q); \
	ck_assert_str_eq(got_, want); \
	g_free(got_); \
} while (0)

/* bmod of a job: a pending one by its spec alone; a started one only
 * with its new stamp (EvJobModify.effective, LSB_MOD_ALL_JOBS), which
 * replaces the dispatch stamp; a finished one not at all. */
static gboolean
modify(guint64 id, guint64 memlimit_kb, gboolean with_stamp)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobModify e = BASALT__EV_JOB_MODIFY__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__JobEffective eff = BASALT__JOB_EFFECTIVE__INIT;
	Basalt__JobLimit mem = BASALT__JOB_LIMIT__INIT;

	spec.command = "sleep 10";
	spec.memlimit_kb = memlimit_kb;
	mem.value = memlimit_kb;
	eff.memlimit_kb = &mem;
	e.job_id = id;
	e.spec = &spec;
	e.effective = with_stamp ? &eff : NULL;
	ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
	ev.job_modify = &e;
	return apply(&ev, 55);
}

START_TEST(test_modify_started)
{
	Job *j;

	submit(1, "normal", 10, 0, FALSE);
	ck_assert(modify(1, 100, FALSE));
	j = state_job(st, 1, 0);
	ck_assert_uint_eq(job_spec(j)->memlimit_kb, 100);
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert(!modify(1, 50, FALSE));       /* started: the stamp is needed */
	ck_assert_uint_eq(job_spec(j)->memlimit_kb, 100);
	ck_assert(modify(1, 50, TRUE));
	ck_assert_uint_eq(job_spec(j)->memlimit_kb, 50);
	ck_assert_ptr_nonnull(j->effective);
	ck_assert_ptr_nonnull(j->effective->memlimit_kb);
	ck_assert_uint_eq(j->effective->memlimit_kb->value, 50);
	ck_assert(status(1, JS_DONE, 0));
	ck_assert(!modify(1, 10, TRUE));        /* finished */
	ck_assert_uint_eq(j->effective->memlimit_kb->value, 50);
}
END_TEST

START_TEST(test_submit_and_array)
{
	Job *j;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 3, FALSE);
	submit(3, "normal", 12, 0, TRUE);
	ck_pending("normal", "1 2[1] 2[2] 2[3] 3");
	j = state_job(st, 2, 2);
	ck_assert_str_eq(j->name, "arr[2]");
	ck_assert_ptr_eq(j->spec, state_job(st, 2, 3)->spec);  /* shared */
	ck_assert_int_eq(state_job(st, 3, 0)->state, JS_PSUSP);
	ck_assert_str_eq(state_job(st, 1, 0)->name, "sleep 10");
	ck_assert_uint_eq(st->last_job_id, 3);
}
END_TEST

START_TEST(test_run_to_done_and_clean)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobClean c = BASALT__EV_JOB_CLEAN__INIT;
	Job *j;

	submit(1, "normal", 10, 0, FALSE);
	ck_assert(dispatch(1, 0, "hB"));
	j = state_job(st, 1, 0);
	ck_assert_int_eq(j->state, JS_RUN);
	ck_assert_str_eq(j->exec_hosts[0], "hB");
	ck_assert_int_eq(j->start_time, 50);
	ck_pending("normal", "");
	ck_assert(status(1, JS_USUSP, 0));
	ck_assert_str_eq(j->suspend_reason, "The job was suspended by user;");
	ck_assert(status(1, JS_RUN, 0));
	ck_assert_ptr_null(j->suspend_reason);
	ck_assert(status(1, JS_EXIT, 3));
	ck_assert_int_eq(j->exit_status, 3);
	ck_assert_uint_eq(st->finished.length, 1);
	/* A finished job cannot finish again or be dispatched. */
	ck_assert(!status(1, JS_DONE, 0));
	ck_assert(!dispatch(1, 0, "hB"));
	ck_assert_int_eq(j->state, JS_EXIT);

	c.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &c;
	ck_assert(apply(&ev, 70));
	ck_assert_ptr_null(state_job(st, 1, 0));
	ck_assert_uint_eq(st->finished.length, 0);
}
END_TEST

START_TEST(test_refused_events_change_nothing)
{
	submit(1, "normal", 10, 0, FALSE);
	ck_assert(!dispatch(7, 0, "hA"));          /* unknown job */
	ck_assert(!status(1, JS_USUSP, 0));        /* not started */
	ck_assert(!status(1, JS_RUN, 0));
	ck_assert_int_eq(state_job(st, 1, 0)->state, JS_PEND);
	ck_pending("normal", "1");
	ck_assert_uint_eq(st->last_seq, 1);
}
END_TEST

START_TEST(test_requeue_switch_move)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;
	Basalt__EvJobSwitch sw = BASALT__EV_JOB_SWITCH__INIT;
	Basalt__EvJobMove mv = BASALT__EV_JOB_MOVE__INIT;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 20, 0, FALSE);
	submit(3, "normal", 30, 0, FALSE);
	submit(4, "short", 15, 0, FALSE);
	ck_assert(dispatch(1, 0, "hA"));

	/* Requeued: pending again, ordered by its requeue time. */
	rq.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &rq;
	ck_assert(apply(&ev, 40));
	ck_pending("normal", "2 3 1");
	ck_assert_ptr_null(state_job(st, 1, 0)->exec_hosts);

	/* Switched: takes its place by submission time in the new queue. */
	sw.job_id = 4;
	sw.queue = "normal";
	ev.body_case = BASALT__EVENT__BODY_JOB_SWITCH;
	ev.job_switch = &sw;
	ck_assert(apply(&ev, 41));
	ck_pending("normal", "4 2 3 1");
	ck_pending("short", "");
	ck_assert_str_eq(state_job(st, 4, 0)->queue, "normal");

	/* btop 3 to position 1; bbot 4 to the last place. */
	mv.job_id = 3;
	mv.position = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_MOVE;
	ev.job_move = &mv;
	ck_assert(apply(&ev, 42));
	ck_pending("normal", "3 4 2 1");
	mv.job_id = 4;
	mv.to_bottom = TRUE;
	ck_assert(apply(&ev, 43));
	ck_pending("normal", "3 2 1 4");
	mv.job_id = 2;
	mv.to_bottom = FALSE;
	mv.position = 99;             /* beyond the end: last */
	ck_assert(apply(&ev, 44));
	ck_pending("normal", "3 1 4 2");

	/* An order restated first to last, as a checkpoint does: jobs
	 * already in place stay, the others move, and the places that
	 * apply_move remembers follow every change. */
	mv.position = 1;
	mv.job_id = 3;
	ck_assert(apply(&ev, 45));
	mv.position = 2;
	mv.job_id = 1;
	ck_assert(apply(&ev, 46));
	ck_pending("normal", "3 1 4 2");
	mv.position = 3;
	mv.job_id = 2;
	ck_assert(apply(&ev, 47));
	ck_pending("normal", "3 1 2 4");
	mv.position = 4;
	mv.job_id = 4;
	ck_assert(apply(&ev, 48));
	ck_pending("normal", "3 1 2 4");
	ck_assert(dispatch(1, 0, "hA"));
	ck_pending("normal", "3 2 4");
	mv.position = 2;
	mv.job_id = 4;
	ck_assert(apply(&ev, 49));
	ck_pending("normal", "3 4 2");
	mv.position = 3;
	mv.job_id = 2;
	ck_assert(apply(&ev, 50));
	mv.position = 2;
	mv.to_bottom = TRUE;          /* second from the bottom: in place */
	mv.job_id = 4;
	ck_assert(apply(&ev, 51));
	ck_pending("normal", "3 4 2");
}
END_TEST

START_TEST(test_queue_and_host_control)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvQueueCtrl qc = BASALT__EV_QUEUE_CTRL__INIT;
	Basalt__EvHostCtrl hc = BASALT__EV_HOST_CTRL__INIT;
	QueueRt *q;

	qc.queue = "normal";
	qc.action = BASALT__QUEUE_CTRL__QUEUE_CTRL_CLOSE;
	ev.body_case = BASALT__EVENT__BODY_QUEUE_CTRL;
	ev.queue_ctrl = &qc;
	ck_assert(apply(&ev, 1));
	qc.action = BASALT__QUEUE_CTRL__QUEUE_CTRL_INACTIVATE;
	ck_assert(apply(&ev, 2));
	q = state_queue(st, "normal");
	ck_assert(!q->open);
	ck_assert(!q->active);

	hc.host = "hA";
	hc.close = TRUE;
	hc.comment = "disk swap";
	ev.body_case = BASALT__EVENT__BODY_HOST_CTRL;
	ev.host_ctrl = &hc;
	ck_assert(apply(&ev, 3));
	ck_assert(state_host_ensure(st, "hA")->closed_adm);
	ck_assert_str_eq(state_host_ensure(st, "hA")->close_comment, "disk swap");
}
END_TEST

/* Everything a checkpoint must keep, as text. */
static char *
describe(State *s)
{
	GString *out = g_string_new(NULL);
	GPtrArray *jobs = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;
	const char *queues[] = { "normal", "short" };

	g_hash_table_iter_init(&it, s->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(jobs, v);
	for (guint k = 0; k < jobs->len; k++)
		for (guint i = 0; i + 1 < jobs->len; i++) {
			Job *a = jobs->pdata[i], *b = jobs->pdata[i + 1];

			if (a->key > b->key) {
				jobs->pdata[i] = b;
				jobs->pdata[i + 1] = a;
			}
		}
	for (guint i = 0; i < jobs->len; i++) {
		Job *j = jobs->pdata[i];

		g_string_append_printf(out, "%" G_GUINT64_FORMAT "[%u] %s %s %s %s "
		    "pgid=%d exit=%d sub=%" G_GINT64_FORMAT " reason=%s preempted=%u by=%"
		    G_GUINT64_FORMAT " inst=%u\n", j->id, j->index,
		    job_state_name(j->state), j->queue, j->name,
		    j->exec_hosts ? j->exec_hosts[0] : "-", j->pgid, j->exit_status,
		    j->submit_time, j->suspend_reason ? j->suspend_reason : "-",
		    j->preempt_count, j->preempted_by, j->instance);
	}
	for (guint q = 0; q < G_N_ELEMENTS(queues); q++) {
		QueueRt *rt = state_queue(s, queues[q]);
		char *ids = pending_ids(queues[q]);

		g_string_append_printf(out, "%s open=%d active=%d pending=[%s]\n",
		    queues[q], rt ? rt->open : -1, rt ? rt->active : -1, ids);
		g_free(ids);
	}
	g_string_append_printf(out, "hA closed=%d last_job_id=%" G_GUINT64_FORMAT "\n",
	    state_host_ensure(s, "hA")->closed_adm, s->last_job_id);
	g_ptr_array_free(jobs, TRUE);
	return g_string_free(out, FALSE);
}

START_TEST(test_export_replays_to_the_same_state)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobMove mv = BASALT__EV_JOB_MOVE__INIT;
	Basalt__EvQueueCtrl qc = BASALT__EV_QUEUE_CTRL__INIT;
	Basalt__EvHostCtrl hc = BASALT__EV_HOST_CTRL__INIT;
	Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;
	GPtrArray *events, *blocks;
	State *orig, *copy;
	char *want, *got;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 3, FALSE);
	submit(3, "normal", 12, 0, TRUE);
	submit(4, "short", 13, 0, FALSE);
	submit(5, "normal", 14, 0, FALSE);
	submit(6, "normal", 15, 0, FALSE);
	submit(7, "normal", 16, 0, FALSE);
	ck_assert(dispatch(4, 0, "hB"));
	ck_assert(dispatch(5, 0, "hA"));
	ck_assert(status(5, JS_USUSP, 0));
	ck_assert(dispatch(6, 0, "hA"));
	ck_assert(status(6, JS_DONE, 0));
	ck_assert(dispatch(7, 0, "hA"));
	ck_assert(status(7, JS_EXIT, 2));
	ck_assert(preempt(4, 1));
	ck_assert(status(4, JS_RUN, 0));
	ck_assert(preempt(4, 1));
	cl.job_id = 7;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &cl;
	ck_assert(apply(&ev, 90));
	mv.job_id = 2;
	mv.array_index = 3;
	mv.position = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_MOVE;
	ev.job_move = &mv;
	ck_assert(apply(&ev, 91));
	qc.queue = "short";
	qc.action = BASALT__QUEUE_CTRL__QUEUE_CTRL_INACTIVATE;
	ev.body_case = BASALT__EVENT__BODY_QUEUE_CTRL;
	ev.queue_ctrl = &qc;
	ck_assert(apply(&ev, 92));
	hc.host = "hA";
	hc.close = TRUE;
	ev.body_case = BASALT__EVENT__BODY_HOST_CTRL;
	ev.host_ctrl = &hc;
	ck_assert(apply(&ev, 93));

	want = describe(st);
	events = state_export_events(st, &blocks);
	orig = st;
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++) {
		GError *err = NULL;

		ck_assert_msg(state_apply(copy, events->pdata[i], &err), "%s",
		    err ? err->message : "");
	}
	got = describe(copy);
	ck_assert_str_eq(got, want);
	ck_assert_uint_eq(copy->last_job_id, 7);   /* job 7 was cleaned */
	ck_assert_uint_eq(state_job(copy, 4, 0)->preempt_count, 2);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;
	g_free(want);
	g_free(got);
}
END_TEST

static char *
pending_order(State *s, const char *queue)
{
	GString *out = g_string_new(NULL);

	for (const GList *l = state_queue(s, queue)->pending.head; l != NULL;
	    l = l->next) {
		const Job *j = l->data;

		g_string_append_printf(out, "%" G_GUINT64_FORMAT "[%u] ", j->id,
		    j->index);
	}
	return g_string_free(out, FALSE);
}

/* A checkpoint's moves restore the pending order, and are left out when
 * loading the jobs gives that order by itself (submit time, then id). */
static guint
export_and_load(guint *n_moves)
{
	GPtrArray *events, *blocks;
	State *copy = state_new();
	char *want = pending_order(st, "normal"), *got;
	guint same;

	events = state_export_events(st, &blocks);
	*n_moves = 0;
	for (guint i = 0; i < events->len; i++) {
		const Basalt__Event *ev = events->pdata[i];
		GError *err = NULL;

		if (ev->body_case == BASALT__EVENT__BODY_JOB_MOVE)
			(*n_moves)++;
		ck_assert_msg(state_apply(copy, ev, &err), "%s",
		    err ? err->message : "");
	}
	got = pending_order(copy, "normal");
	same = strcmp(got, want) == 0;
	ck_assert_msg(same, "order %s, want %s", got, want);
	g_free(got);
	g_free(want);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	return same;
}

START_TEST(test_export_moves_only_when_needed)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobMove mv = BASALT__EV_JOB_MOVE__INIT;
	guint n_moves;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 10, 2, FALSE);
	submit(3, "normal", 11, 0, TRUE);
	ck_assert(export_and_load(&n_moves));
	ck_assert_uint_eq(n_moves, 0);

	mv.job_id = 3;
	mv.position = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_MOVE;
	ev.job_move = &mv;
	ck_assert(apply(&ev, 20));
	ck_assert(export_and_load(&n_moves));
	ck_assert_uint_eq(n_moves, 4);
}
END_TEST

static gboolean
dispatch_instance(guint64 id, const char *host, guint32 instance)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;
	char *hosts[] = { (char *)host };

	e.job_id = id;
	e.exec_hosts = hosts;
	e.n_exec_hosts = 1;
	e.instance = instance;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	return apply(&ev, 50);
}

static gboolean
requeue(guint64 id)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue e = BASALT__EV_JOB_REQUEUE__INIT;

	e.job_id = id;
	e.reason = "the execution host is unavailable";
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &e;
	return apply(&ev, 55);
}

/* Every dispatch is a new run: its instance is journaled, kept across a
 * requeue (the next run must be told from the old one), restored from a
 * checkpoint even while the job waits, and numbered on replay when an old
 * journal has none. */
/* Submission tokens: indexed by uid and token while any element of the
 * job is in the state, carried by a snapshot, gone with the last clean. */
static void
submit_token(guint64 id, guint32 uid, const char *token, guint32 n_elems)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	guint32 idx[2] = { 1, 2 };

	spec.command = "true";
	e.job_id = id;
	e.spec = &spec;
	e.user = "alice";
	e.uid = uid;
	e.queue = "normal";
	e.job_name = n_elems ? "arr" : "";
	e.array_indexes = idx;
	e.n_array_indexes = n_elems;
	e.submit_token = (char *)token;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	ck_assert(apply(&ev, 10));
}

static gboolean
clean_job(guint64 id, guint32 index)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobClean e = BASALT__EV_JOB_CLEAN__INIT;

	e.job_id = id;
	e.array_index = index;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &e;
	return apply(&ev, 90);
}

static gboolean
status_index(guint64 id, guint32 index, JobState state)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;

	e.job_id = id;
	e.array_index = index;
	e.state = state;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &e;
	return apply(&ev, 80);
}

static gboolean
has_token(State *s, guint32 uid, const char *token, guint64 want)
{
	guint64 id = 0;
	const char *q = NULL;

	return state_token_find(s, uid, token, &id, &q) && id == want &&
	    g_strcmp0(q, "normal") == 0;
}

START_TEST(test_submit_tokens)
{
	GPtrArray *events, *blocks;
	State *orig, *copy;

	submit_token(1, 1000, "aaaa", 0);
	submit_token(2, 1000, "bbbb", 2);
	submit_token(3, 1000, "", 0);
	ck_assert(has_token(st, 1000, "aaaa", 1));
	ck_assert(has_token(st, 1000, "bbbb", 2));
	/* Another user's token is not an answer. */
	ck_assert(!has_token(st, 1001, "aaaa", 1));

	events = state_export_events(st, &blocks);
	orig = st;
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	ck_assert(has_token(copy, 1000, "aaaa", 1));
	ck_assert(has_token(copy, 1000, "bbbb", 2));
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;

	/* Kept until the job's last element is cleaned. */
	ck_assert(status(1, JS_EXIT, 1));
	ck_assert(clean_job(1, 0));
	ck_assert(!has_token(st, 1000, "aaaa", 1));
	ck_assert(dispatch(2, 1, "hA") && dispatch(2, 2, "hA"));
	ck_assert(status_index(2, 1, JS_DONE) && status_index(2, 2, JS_DONE));
	ck_assert(clean_job(2, 1));
	ck_assert(has_token(st, 1000, "bbbb", 2));
	ck_assert(clean_job(2, 2));
	ck_assert(!has_token(st, 1000, "bbbb", 2));
	ck_assert_uint_eq(g_hash_table_size(st->tokens), 0);
}
END_TEST

START_TEST(test_instances)
{
	GPtrArray *events, *blocks;
	State *orig, *copy;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 0, FALSE);
	ck_assert_uint_eq(state_job(st, 1, 0)->instance, 0);
	/* A journal from before instances: numbered 1, 2, ... */
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert_uint_eq(state_job(st, 1, 0)->instance, 1);
	ck_assert(requeue(1));
	ck_assert_uint_eq(state_job(st, 1, 0)->instance, 1);
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert_uint_eq(state_job(st, 1, 0)->instance, 2);
	/* mbatchd names the instance it chose. */
	ck_assert(requeue(1));
	ck_assert(dispatch_instance(1, "hA", 7));
	ck_assert_uint_eq(state_job(st, 1, 0)->instance, 7);
	ck_assert(requeue(1));
	ck_assert(dispatch_instance(2, "hA", 3));

	events = state_export_events(st, &blocks);
	orig = st;
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	ck_assert_uint_eq(state_job(copy, 1, 0)->state, JS_PEND);
	ck_assert_uint_eq(state_job(copy, 1, 0)->instance, 7);
	ck_assert_uint_eq(state_job(copy, 2, 0)->state, JS_RUN);
	ck_assert_uint_eq(state_job(copy, 2, 0)->instance, 3);
	/* The next run after a restart is still a new number. */
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert_uint_eq(state_job(copy, 1, 0)->instance, 8);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;
}
END_TEST

/* bkill -d's mark: set by the journaled signal event, kept by a
 * checkpoint (export, replay), dropped by the next dispatch. */
static gboolean
signal_done(guint64 id)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobSignal e = BASALT__EV_JOB_SIGNAL__INIT;

	e.job_id = id;
	e.record_done = TRUE;
	ev.body_case = BASALT__EVENT__BODY_JOB_SIGNAL;
	ev.job_signal = &e;
	return apply(&ev, 20);
}

START_TEST(test_kill_as_done)
{
	GPtrArray *events, *blocks;
	State *orig, *copy;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 0, FALSE);
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert(dispatch(2, 0, "hA"));
	ck_assert(!state_job(st, 1, 0)->kill_as_done);
	ck_assert(signal_done(1));
	ck_assert(state_job(st, 1, 0)->kill_as_done);
	ck_assert(!state_job(st, 2, 0)->kill_as_done);

	events = state_export_events(st, &blocks);
	orig = st;
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	ck_assert(state_job(copy, 1, 0)->kill_as_done);
	ck_assert(!state_job(copy, 2, 0)->kill_as_done);
	ck_assert(requeue(1));
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert(!state_job(copy, 1, 0)->kill_as_done);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;
}
END_TEST

/* A dispatch's stamp of effective parameters: the job keeps its own copy,
 * a snapshot (export, replay) carries it, a requeue drops it and a
 * dispatch without one (an old journal) leaves none. */
START_TEST(test_dispatch_stamp)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch d = BASALT__EV_JOB_DISPATCH__INIT;
	Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;
	Basalt__JobEffective eff = BASALT__JOB_EFFECTIVE__INIT;
	Basalt__JobLimit run = BASALT__JOB_LIMIT__INIT;
	char *hosts[] = { "hA" };
	char *env[] = { "A=1" };
	GPtrArray *events, *blocks;
	State *copy;
	Job *j;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 0, FALSE);
	run.value = 600;
	eff.runlimit_s = &run;
	eff.nice = 4;
	eff.pre_exec = "/bin/pre";
	eff.env = env;
	eff.n_env = 1;
	eff.max_preempt = 2;
	d.job_id = 1;
	d.exec_hosts = hosts;
	d.n_exec_hosts = 1;
	d.effective = &eff;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &d;
	ck_assert(apply(&ev, 20));
	ck_assert(dispatch(2, 0, "hA"));
	ck_assert_ptr_null(state_job(st, 2, 0)->effective);

	j = state_job(st, 1, 0);
	ck_assert_ptr_nonnull(j->effective);
	ck_assert_ptr_ne(j->effective, &eff);
	ck_assert_ptr_nonnull(j->effective->runlimit_s);
	ck_assert_uint_eq(j->effective->runlimit_s->value, 600);
	ck_assert_ptr_null(j->effective->cpulimit_s);
	ck_assert_int_eq(j->effective->nice, 4);
	ck_assert_str_eq(j->effective->pre_exec, "/bin/pre");
	ck_assert_uint_eq(j->effective->n_env, 1);
	ck_assert_str_eq(j->effective->env[0], "A=1");

	events = state_export_events(st, &blocks);
	copy = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	j = state_job(copy, 1, 0);
	ck_assert_ptr_nonnull(j->effective);
	ck_assert_uint_eq(j->effective->runlimit_s->value, 600);
	ck_assert_uint_eq(j->effective->max_preempt, 2);
	ck_assert_str_eq(j->effective->env[0], "A=1");
	ck_assert_ptr_null(state_job(copy, 2, 0)->effective);
	state_free(copy);

	rq.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &rq;
	ck_assert(apply(&ev, 30));
	ck_assert_ptr_null(state_job(st, 1, 0)->effective);
}
END_TEST

static void
submit_env(guint64 id, char **env, size_t n_env)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	spec.command = "true";
	spec.env = env;
	spec.n_env = n_env;
	e.job_id = id;
	e.spec = &spec;
	e.user = "alice";
	e.queue = "normal";
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	ck_assert(apply(&ev, 10));
}

/*
 * A checkpoint stores each environment (EvEnvironment) and each spec
 * (EvSpec) once and its jobs refer to them; loading it gives every job its
 * spec and environment again, shared.  A checkpoint of the older format,
 * each job with its own copy, loads to the same state.
 */
START_TEST(test_checkpoint_stores_environments_once)
{
	char *a[] = { "HOME=/home/alice", "PATH=/usr/bin:/bin", "LANG=C" };
	char *b[] = { "HOME=/home/bob", "PATH=/bin" };
	GPtrArray *events, *blocks;
	State *copy;
	guint n_env_events = 0, n_spec_events = 0, n_inline = 0;
	GError *err = NULL;

	submit_env(1, a, 3);
	submit_env(2, b, 2);
	submit_env(3, a, 3);
	submit_env(4, NULL, 0);
	submit_env(5, b, 2);
	events = state_export_events(st, &blocks);
	for (guint i = 0; i < events->len; i++) {
		const Basalt__Event *ev = events->pdata[i];

		if (ev->body_case == BASALT__EVENT__BODY_ENVIRONMENT)
			n_env_events++;
		if (ev->body_case == BASALT__EVENT__BODY_SPEC_DEF)
			n_spec_events++;
		if (ev->body_case == BASALT__EVENT__BODY_JOB_NEW &&
		    ev->job_new->spec != NULL)
			n_inline++;
	}
	ck_assert_uint_eq(n_env_events, 2);
	/* a, b and none: jobs 1 and 3, 2 and 5 have equal specs. */
	ck_assert_uint_eq(n_spec_events, 3);
	ck_assert_uint_eq(n_inline, 0);
	copy = state_new();
	state_replay_begin(copy);
	for (guint i = 0; i < events->len; i++)
		ck_assert_msg(state_apply(copy, events->pdata[i], &err), "%s",
		    err ? err->message : "");
	state_replay_end(copy);
	ck_assert_ptr_null(copy->ckpt_envs);
	ck_assert_ptr_null(copy->ckpt_specs);
	ck_assert_uint_eq(g_hash_table_size(copy->envs), 2);
	ck_assert_ptr_eq(state_job(copy, 2, 0)->spec, state_job(copy, 5, 0)->spec);
	for (guint64 id = 1; id <= 5; id++) {
		const Basalt__JobSpec *o = job_spec(state_job(st, id, 0));
		const Basalt__JobSpec *c = job_spec(state_job(copy, id, 0));

		ck_assert_uint_eq(c->n_env, o->n_env);
		for (size_t k = 0; k < o->n_env; k++)
			ck_assert_str_eq(c->env[k], o->env[k]);
	}
	ck_assert_ptr_eq(job_spec(state_job(copy, 1, 0))->env,
	    job_spec(state_job(copy, 3, 0))->env);
	state_free(copy);

	/* The older format: no EvEnvironment nor EvSpec, each job's own
	 * copy of both. */
	copy = state_new();
	state_replay_begin(copy);
	for (guint i = 0; i < events->len; i++) {
		Basalt__Event *ev = events->pdata[i];

		if (ev->body_case == BASALT__EVENT__BODY_ENVIRONMENT ||
		    ev->body_case == BASALT__EVENT__BODY_SPEC_DEF)
			continue;
		if (ev->body_case == BASALT__EVENT__BODY_JOB_NEW) {
			ev->job_new->spec_ref = 0;
			ev->job_new->spec = (Basalt__JobSpec *)job_spec(
			    state_job(st, ev->job_new->job_id, 0));
		}
		ck_assert_msg(state_apply(copy, ev, &err), "%s",
		    err ? err->message : "");
	}
	state_replay_end(copy);
	ck_assert_uint_eq(g_hash_table_size(copy->envs), 2);
	ck_assert_str_eq(job_spec(state_job(copy, 5, 0))->env[0],
	    "HOME=/home/bob");
	state_free(copy);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
}
END_TEST

static void
submit_resreq(guint64 id, char *command, char *resreq)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	spec.command = command;
	spec.resreq = resreq;
	e.job_id = id;
	e.spec = &spec;
	e.user = "alice";
	e.queue = "normal";
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	ck_assert(apply(&ev, 10));
}

/*
 * At a replay's end each -R text is parsed once: jobs whose specs differ
 * (here by command) but ask the same -R share the parse, and it outlives
 * the job that dropped it first.  After the replay, a submission's spec
 * gets its own parse at once.
 */
START_TEST(test_replay_parses_each_resreq_once)
{
	const Job *j;

	state_replay_begin(st);
	submit_resreq(1, "a", "span[hosts=1]");
	submit_resreq(2, "b", "span[hosts=1]");
	submit_resreq(3, "c", "span[ptile=4]");
	ck_assert_ptr_null(state_job(st, 1, 0)->spec->resreq);
	state_replay_end(st);
	ck_assert_ptr_ne(state_job(st, 1, 0)->spec, state_job(st, 2, 0)->spec);
	ck_assert_ptr_eq(state_job(st, 1, 0)->spec->resreq,
	    state_job(st, 2, 0)->spec->resreq);
	ck_assert_ptr_ne(state_job(st, 1, 0)->spec->resreq,
	    state_job(st, 3, 0)->spec->resreq);
	ck_assert_int_eq(bs_resreq_span_ptile(state_job(st, 3, 0)->spec->resreq),
	    4);

	job_spec_ref_drop(state_job(st, 1, 0)->spec);
	state_job(st, 1, 0)->spec = NULL;
	ck_assert_int_eq(bs_resreq_span_hosts(state_job(st, 2, 0)->spec->resreq),
	    1);

	submit_resreq(4, "d", "span[hosts=1]");
	j = state_job(st, 4, 0);
	ck_assert_ptr_nonnull(j->spec->resreq);
	ck_assert_ptr_ne(j->spec->resreq, state_job(st, 2, 0)->spec->resreq);
}
END_TEST

/* A job naming an environment or a spec the checkpoint does not hold is
 * refused. */
START_TEST(test_unknown_environment_is_refused)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	GError *err = NULL;

	spec.command = "true";
	e.job_id = 1;
	e.spec = &spec;
	e.user = "alice";
	e.queue = "normal";
	e.env_ref = 7;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	ev.seq = 1;
	ck_assert(!state_apply(st, &ev, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "environment 7"));
	g_clear_error(&err);
	e.env_ref = 0;
	e.spec = NULL;
	e.spec_ref = 3;
	ck_assert(!state_apply(st, &ev, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "spec 3"));
	g_error_free(err);
	ck_assert_ptr_null(state_job(st, 1, 0));
}
END_TEST

/* Jobs with the same environment share one copy; each still reads its own
 * whole, also after the others are gone or modified. */
START_TEST(test_environments_are_shared)
{
	char *a[] = { "HOME=/home/alice", "PATH=/usr/bin:/bin", "LANG=C" };
	char *b[] = { "HOME=/home/alice", "PATH=/usr/bin", "LANG=C" };
	char a_copy[3][32];
	char *a2[3];
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobModify mod = BASALT__EV_JOB_MODIFY__INIT;
	Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	const Basalt__JobSpec *s1, *s2, *s3;

	/* Equal strings at other addresses, as from another request. */
	for (int i = 0; i < 3; i++) {
		g_strlcpy(a_copy[i], a[i], sizeof a_copy[i]);
		a2[i] = a_copy[i];
	}
	submit_env(1, a, 3);
	submit_env(2, a2, 3);
	submit_env(3, b, 3);
	submit_env(4, NULL, 0);
	s1 = job_spec(state_job(st, 1, 0));
	s2 = job_spec(state_job(st, 2, 0));
	s3 = job_spec(state_job(st, 3, 0));
	ck_assert_ptr_eq(s1->env, s2->env);
	ck_assert_ptr_ne(s1->env, s3->env);
	ck_assert_uint_eq(g_hash_table_size(st->envs), 2);
	ck_assert_uint_eq(s3->n_env, 3);
	ck_assert_str_eq(s3->env[1], "PATH=/usr/bin");
	ck_assert_uint_eq(job_spec(state_job(st, 4, 0))->n_env, 0);

	/* Job 1 finishes and is cleaned: job 2 keeps the environment. */
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert(status(1, JS_DONE, 0));
	cl.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &cl;
	ck_assert(apply(&ev, 90));
	ck_assert_uint_eq(s2->n_env, 3);
	ck_assert_str_eq(s2->env[0], "HOME=/home/alice");
	ck_assert_str_eq(s2->env[2], "LANG=C");

	/* bmod of job 3 to job 2's environment: the two now share it, and
	 * job 3's old one is gone. */
	spec.command = "true";
	spec.env = a;
	spec.n_env = 3;
	mod.job_id = 3;
	mod.spec = &spec;
	ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
	ev.job_modify = &mod;
	ck_assert(apply(&ev, 91));
	ck_assert_ptr_eq(job_spec(state_job(st, 3, 0))->env, s2->env);
	ck_assert_uint_eq(g_hash_table_size(st->envs), 1);
}
END_TEST

static guint
n_on_host(const char *host)
{
	GPtrArray *a = state_jobs_on_host(st, host);
	guint n = a->len;

	g_ptr_array_free(a, TRUE);
	return n;
}

/* The by-host index follows dispatch, requeue and clean. */
START_TEST(test_jobs_by_host)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;
	Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 0, FALSE);
	ck_assert_uint_eq(n_on_host("hA"), 0);
	ck_assert(dispatch(1, 0, "hA"));
	ck_assert(dispatch(2, 0, "hA"));
	ck_assert_uint_eq(n_on_host("hA"), 2);
	rq.job_id = 2;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &rq;
	ck_assert(apply(&ev, 80));
	ck_assert_uint_eq(n_on_host("hA"), 1);
	ck_assert(dispatch(2, 0, "hB"));
	ck_assert_uint_eq(n_on_host("hB"), 1);
	ck_assert(status(1, JS_DONE, 0));
	ck_assert_uint_eq(n_on_host("hA"), 1);   /* finished keeps its host */
	cl.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &cl;
	ck_assert(apply(&ev, 90));
	ck_assert_uint_eq(n_on_host("hA"), 0);
	ck_assert_uint_eq(g_hash_table_size(st->by_host), 1);
}
END_TEST

static gboolean
post(guint64 id, guint32 index, const char *text, const char *user, gint64 t)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobMessage e = BASALT__EV_JOB_MESSAGE__INIT;

	e.job_id = id;
	e.index = index;
	e.text = (char *)text;
	e.user = (char *)user;
	ev.body_case = BASALT__EVENT__BODY_JOB_MESSAGE;
	ev.job_message = &e;
	return apply(&ev, t);
}

static gboolean
msg_is(State *s, guint64 id, guint32 index, const char *text,
    const char *user, gint64 t)
{
	const Job *j = state_job(s, id, 0);
	const JobMsg *m = j != NULL ? job_msg_get(j, index) : NULL;

	return m != NULL && strcmp(m->text, text) == 0 &&
	    strcmp(m->user, user) == 0 && m->time == t;
}

/* bpost's messages: replaced by index, bounded, kept by a checkpoint. */
START_TEST(test_job_messages)
{
	GPtrArray *events, *blocks;
	State *orig, *copy;
	g_autofree char *huge = g_strnfill(BS_JOB_MSG_TEXT_MAX + 10, 'x');

	submit(1, "normal", 10, 0, FALSE);
	ck_assert(!post(99, 0, "no such job", "u", 20));
	ck_assert(post(1, 3, "three", "alice", 20));
	ck_assert(post(1, 0, "zero", "alice", 21));
	ck_assert(post(1, 3, "three again", "root", 22));
	ck_assert(msg_is(st, 1, 3, "three again", "root", 22));
	ck_assert(msg_is(st, 1, 0, "zero", "alice", 21));
	ck_assert_ptr_null(job_msg_get(state_job(st, 1, 0), 1));
	ck_assert_uint_eq(state_job(st, 1, 0)->messages->len, 2);
	/* A record beyond the bounds (a hostile or later journal) is
	 * bounded on replay, not trusted. */
	ck_assert(post(1, BS_JOB_MSG_MAX, "out of range", "u", 23));
	ck_assert_uint_eq(state_job(st, 1, 0)->messages->len, 2);
	ck_assert(post(1, 5, huge, "u", 24));
	ck_assert_uint_eq(strlen(job_msg_get(state_job(st, 1, 0), 5)->text),
	    BS_JOB_MSG_TEXT_MAX);

	events = state_export_events(st, &blocks);
	orig = st;
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	ck_assert(msg_is(copy, 1, 3, "three again", "root", 22));
	ck_assert(msg_is(copy, 1, 0, "zero", "alice", 21));
	ck_assert_uint_eq(state_job(copy, 1, 0)->messages->len, 3);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;
}
END_TEST

static gboolean
quota_pend(guint64 id, gboolean pending, const char *rg, gint64 t)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobConsumerPend e = BASALT__EV_JOB_CONSUMER_PEND__INIT;

	e.job_id = id;
	e.pending = pending;
	e.consumer = "/eng/a";
	e.resource_group = (char *)rg;
	e.reason = "The consumer's quota in resource group rg1 is reached;";
	ev.body_case = BASALT__EVENT__BODY_JOB_CONSUMER_PEND;
	ev.job_consumer_pend = &e;
	return apply(&ev, t);
}

/* Quota-driven pending: set and cleared by its event, cleared by a
 * dispatch, and kept by a checkpoint so a restart journals no change. */
START_TEST(test_consumer_pend)
{
	GPtrArray *events, *blocks;
	State *orig, *copy;

	submit(1, "normal", 10, 0, FALSE);
	submit(2, "normal", 11, 0, FALSE);
	ck_assert(!quota_pend(99, TRUE, "rg1", 20));
	ck_assert(quota_pend(1, TRUE, "rg1", 20));
	ck_assert(quota_pend(2, TRUE, "rg1", 20));
	ck_assert_str_eq(state_job(st, 1, 0)->quota_pend, "rg1");
	ck_assert(quota_pend(2, FALSE, "rg1", 21));
	ck_assert_ptr_null(state_job(st, 2, 0)->quota_pend);
	ck_assert(quota_pend(2, TRUE, "rg1", 22));
	ck_assert(dispatch(2, 0, "hA"));
	ck_assert_ptr_null(state_job(st, 2, 0)->quota_pend);
	/* A started job is not pending for a quota, whatever a record says. */
	ck_assert(quota_pend(2, TRUE, "rg1", 23));
	ck_assert_ptr_null(state_job(st, 2, 0)->quota_pend);

	events = state_export_events(st, &blocks);
	orig = st;
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	ck_assert_str_eq(state_job(copy, 1, 0)->quota_pend, "rg1");
	ck_assert_ptr_null(state_job(copy, 2, 0)->quota_pend);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("apply");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_submit_and_array);
	tcase_add_test(tc, test_run_to_done_and_clean);
	tcase_add_test(tc, test_refused_events_change_nothing);
	tcase_add_test(tc, test_requeue_switch_move);
	tcase_add_test(tc, test_queue_and_host_control);
	tcase_add_test(tc, test_export_replays_to_the_same_state);
	tcase_add_test(tc, test_export_moves_only_when_needed);
	tcase_add_test(tc, test_dispatch_stamp);
	tcase_add_test(tc, test_environments_are_shared);
	tcase_add_test(tc, test_jobs_by_host);
	tcase_add_test(tc, test_instances);
	tcase_add_test(tc, test_kill_as_done);
	tcase_add_test(tc, test_submit_tokens);
	tcase_add_test(tc, test_job_messages);
	tcase_add_test(tc, test_consumer_pend);
	tcase_add_test(tc, test_modify_started);
	tcase_add_test(tc, test_checkpoint_stores_environments_once);
	tcase_add_test(tc, test_unknown_environment_is_refused);
	tcase_add_test(tc, test_replay_parses_each_resreq_once);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
