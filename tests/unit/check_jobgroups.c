/*
 * Job groups: the path rules (lib/job/jobgroup.c), the group records in
 * mbatchd's state and their replay from a checkpoint (state/jobgroups.c),
 * and the limit counting of the scheduler (sched/jobgroup-limit.c).
 */
#include "config.h"

#include <string.h>

#include "job/jobgroup.h"
#include "mbatchd/sched/count.h"
#include "mbatchd/state/state.h"
#include "tap.h"

static void
norm_ok(const char *in, const char *want)
{
	g_autofree char *out = NULL;
	g_autoptr(GError) err = NULL;

	ck_assert_msg(bs_jobgroup_normalize(in, &out, &err), "%s: %s", in,
	    err ? err->message : "");
	ck_assert_str_eq(out, want);
}

static void
norm_bad(const char *in, const char *why)
{
	g_autofree char *out = NULL;
	g_autoptr(GError) err = NULL;

	ck_assert_msg(!bs_jobgroup_normalize(in, &out, &err), "%s accepted", in);
	ck_assert_ptr_null(out);
	ck_assert_msg(strstr(err->message, why) != NULL, "%s: %s", in,
	    err->message);
}

START_TEST(test_paths)
{
	g_autofree char *long_path = NULL;
	GString *deep = g_string_new(NULL);

	norm_ok("/a", "/a");
	norm_ok("/proj/a/b", "/proj/a/b");
	norm_ok("/proj/a/", "/proj/a");
	norm_ok("/x-1_y.z/%u", "/x-1_y.z/%u");
	norm_bad("", "empty");
	norm_bad("proj/a", "full path");
	norm_bad("/", "root group");
	norm_bad("//a", "component is empty");
	norm_bad("/a//b", "component is empty");
	norm_bad("/a/../b", "\"..\"");
	norm_bad("/a/./b", "\".\"");
	norm_bad("/a b", "printable");
	norm_bad("/a\nb", "printable");
	norm_bad("/a\tb", "printable");
	norm_bad("/caf\xc3\xa9", "printable");
	long_path = g_strnfill(BS_JOBGROUP_PATH_MAX + 1, 'x');
	long_path[0] = '/';
	norm_bad(long_path, "too long");
	for (int i = 0; i <= BS_JOBGROUP_DEPTH_MAX; i++)
		g_string_append(deep, "/d");
	norm_bad(deep->str, "too deep");
	g_string_free(deep, TRUE);
}
END_TEST

START_TEST(test_relations)
{
	g_autofree char *p1 = bs_jobgroup_parent("/a/b/c");
	g_autofree char *p2 = bs_jobgroup_parent("/a");
	g_autofree char *e1 = bs_jobgroup_expand("/u/%u/%p", "alice", NULL);
	g_autofree char *e2 = bs_jobgroup_expand("/%p%%x", "bob", "chem");

	ck_assert_str_eq(p1, "/a/b");
	ck_assert_ptr_null(p2);
	ck_assert(bs_jobgroup_within("/a/b", "/a"));
	ck_assert(bs_jobgroup_within("/a", "/a"));
	ck_assert(!bs_jobgroup_within("/ab", "/a"));
	ck_assert(!bs_jobgroup_within("/a", "/a/b"));
	ck_assert(!bs_jobgroup_within(NULL, "/a"));
	ck_assert_uint_eq(bs_jobgroup_depth("/a/b/c"), 3);
	ck_assert_str_eq(e1, "/u/alice/default");
	ck_assert_str_eq(e2, "/chem%%x");
}
END_TEST

static State *st;
static guint64 seq;

static gboolean
apply(Basalt__Event *ev)
{
	GError *err = NULL;
	gboolean ok;

	ev->seq = ++seq;
	ev->time = 100 + (gint64)seq;
	ok = state_apply(st, ev, &err);
	g_clear_error(&err);
	return ok;
}

static gboolean
group_event(Basalt__JobGroupAction a, const char *path, const char *user,
    int limit, gboolean set_limit)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobGroup e = BASALT__EV_JOB_GROUP__INIT;

	e.action = a;
	e.path = (char *)path;
	e.user = (char *)user;
	e.limit = limit;
	e.set_limit = set_limit;
	ev.body_case = BASALT__EVENT__BODY_JOB_GROUP;
	ev.job_group = &e;
	return apply(&ev);
}

static gboolean
submit(guint64 id, const char *user, const char *group)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	spec.command = "sleep 10";
	spec.job_group = (char *)group;
	e.job_id = id;
	e.spec = &spec;
	e.user = (char *)user;
	e.queue = "normal";
	e.from_host = "hA";
	e.job_name = "";
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	return apply(&ev);
}

#define ADD BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_ADD
#define MOD BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_MODIFY
#define DEL BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_DELETE

/* "path owner limit kind;" for every group, parents first. */
static char *
describe(const State *s)
{
	GPtrArray *g = state_jobgroups_sorted(s);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < g->len; i++) {
		const JobGroup *jg = g_ptr_array_index(g, i);

		g_string_append_printf(out, "%s %s %d %s;", jg->path, jg->owner,
		    jg->limit, jg->implicit ? "implicit" : "explicit");
	}
	g_ptr_array_free(g, TRUE);
	return g_string_free(out, FALSE);
}

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

START_TEST(test_state_groups)
{
	g_autofree char *d1 = NULL, *d2 = NULL, *d3 = NULL;

	ck_assert(group_event(ADD, "/p/a", "alice", 2, TRUE));
	ck_assert(submit(1, "bob", "/p/b/c"));
	d1 = describe(st);
	ck_assert_str_eq(d1, "/p alice -1 explicit;/p/a alice 2 explicit;"
	    "/p/b bob -1 implicit;/p/b/c bob -1 implicit;");
	/* Adding an explicit group twice, or touching a missing one, fits
	 * nothing and changes nothing. */
	ck_assert(!group_event(ADD, "/p/a", "alice", -1, FALSE));
	ck_assert(!group_event(MOD, "/nope", "alice", 3, TRUE));
	ck_assert(!group_event(DEL, "/nope", "alice", -1, FALSE));
	ck_assert(!group_event(ADD, "/bad//path", "alice", -1, FALSE));
	ck_assert(!submit(2, "bob", "not/absolute"));
	ck_assert_ptr_null(state_job(st, 2, 0));
	ck_assert(group_event(MOD, "/p/a", "alice", 5, TRUE));
	ck_assert_int_eq(state_jobgroup(st, "/p/a")->limit, 5);
	ck_assert(group_event(MOD, "/p/a", "alice", -1, TRUE));
	ck_assert_int_eq(state_jobgroup(st, "/p/a")->limit, -1);
	/* bgadd of an implicit group makes it explicit. */
	ck_assert(group_event(ADD, "/p/b", "carol", 4, TRUE));
	d2 = describe(st);
	ck_assert_str_eq(d2, "/p alice -1 explicit;/p/a alice -1 explicit;"
	    "/p/b bob 4 explicit;/p/b/c bob -1 implicit;");
	ck_assert_uint_eq(state_jobgroup(st, "/p")->n_children, 2);
	/* Deleting a group deletes its subtree; the job keeps its path. */
	ck_assert(group_event(DEL, "/p/b", "bob", -1, FALSE));
	d3 = describe(st);
	ck_assert_str_eq(d3, "/p alice -1 explicit;/p/a alice -1 explicit;");
	ck_assert_str_eq(job_spec(state_job(st, 1, 0))->job_group, "/p/b/c");
	ck_assert_uint_eq(state_jobgroup(st, "/p")->n_children, 1);
	/* A leaf goes alone and its parent counts one child less. */
	ck_assert(group_event(DEL, "/p/a", "alice", -1, FALSE));
	ck_assert_uint_eq(state_jobgroup(st, "/p")->n_children, 0);
	ck_assert_ptr_null(state_jobgroup(st, "/p/a"));
}
END_TEST

START_TEST(test_busy_paths)
{
	g_autoptr(GHashTable) busy = NULL;
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;

	ck_assert(submit(1, "bob", "/a/b/c"));
	ck_assert(submit(2, "bob", "/x"));
	e.job_id = 2;
	e.state = JS_PSUSP;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &e;
	ck_assert(apply(&ev));
	busy = state_jobgroups_busy(st);
	ck_assert_uint_eq(g_hash_table_size(busy), 4);
	ck_assert(g_hash_table_contains(busy, "/a"));
	ck_assert(g_hash_table_contains(busy, "/a/b"));
	ck_assert(g_hash_table_contains(busy, "/a/b/c"));
	ck_assert(g_hash_table_contains(busy, "/x"));
}
END_TEST

static gint
by_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A set's strings sorted and joined by ";". */
static char *
joined(GHashTable *set)
{
	g_autoptr(GPtrArray) keys = g_ptr_array_new();
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, set);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(keys, k);
	g_ptr_array_sort(keys, by_str);
	g_ptr_array_add(keys, NULL);
	return g_strjoinv(";", (char **)keys->pdata);
}

/* The busy paths as a walk over every job finds them, "a;b;..." sorted. */
static char *
busy_by_walk(const State *s)
{
	g_autoptr(GHashTable) set = g_hash_table_new_full(g_str_hash,
	    g_str_equal, g_free, NULL);
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, s->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		char *p = g_strdup(job_spec(v)->job_group);

		if (job_is_finished(v) || p == NULL || *p == '\0') {
			g_free(p);
			continue;
		}
		while (p != NULL && !g_hash_table_contains(set, p)) {
			char *up = bs_jobgroup_parent(p);

			g_hash_table_add(set, p);
			p = up;
		}
		g_free(p);
	}
	return joined(set);
}

static char *
busy_by_counts(const State *s)
{
	g_autoptr(GHashTable) set = state_jobgroups_busy(s);

	return joined(set);
}

static void
busy_is(const char *want)
{
	g_autofree char *walk = busy_by_walk(st);
	g_autofree char *counts = busy_by_counts(st);

	ck_assert_str_eq(walk, want);
	ck_assert_str_eq(counts, want);
}

static gboolean
set_state(guint64 id, JobState to)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;

	e.job_id = id;
	e.state = to;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &e;
	return apply(&ev);
}

/* The per-path counts of unfinished jobs follow every move that changes
 * them (finish, requeue, bmod -g) and agree with a walk over the jobs;
 * the serial JOB_GROUP_CLEAN reads moves only when a path's count
 * reaches or leaves zero, or a group changes. */
START_TEST(test_busy_counts)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;
	Basalt__EvJobModify md = BASALT__EV_JOB_MODIFY__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	guint64 s0;

	ck_assert(submit(1, "bob", "/a/b"));
	ck_assert(submit(2, "bob", "/a/c"));
	ck_assert(submit(3, "bob", "/a/c"));
	ck_assert(submit(4, "bob", NULL));
	busy_is("/a;/a/b;/a/c");
	/* One of two jobs of /a/c ends: nothing to look at again. */
	s0 = st->jobgroups_serial;
	ck_assert(set_state(3, JS_EXIT));
	ck_assert(set_state(4, JS_EXIT));
	busy_is("/a;/a/b;/a/c");
	ck_assert_uint_eq(st->jobgroups_serial, s0);
	/* A finished job cannot finish twice, nor count twice. */
	ck_assert(!set_state(3, JS_DONE));
	ck_assert(set_state(1, JS_DONE));
	busy_is("/a;/a/c");
	ck_assert_uint_gt(st->jobgroups_serial, s0);
	/* brequeue of a finished job brings its group back. */
	rq.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &rq;
	ck_assert(apply(&ev));
	busy_is("/a;/a/b;/a/c");
	/* bmod -g: the job leaves its group for the new one. */
	spec.command = "sleep 10";
	spec.job_group = "/x/y";
	md.job_id = 2;
	md.spec = &spec;
	ev = (Basalt__Event)BASALT__EVENT__INIT;
	ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
	ev.job_modify = &md;
	ck_assert(apply(&ev));
	busy_is("/a;/a/b;/x;/x/y");
	/* A held job is still unfinished; a killed one is not. */
	ck_assert(set_state(1, JS_PSUSP));
	ck_assert(set_state(2, JS_EXIT));
	busy_is("/a;/a/b");
	s0 = st->jobgroups_serial;
	ck_assert(set_state(1, JS_PEND));
	ck_assert_uint_eq(st->jobgroups_serial, s0);
	ck_assert(group_event(ADD, "/z", "alice", -1, FALSE));
	ck_assert_uint_gt(st->jobgroups_serial, s0);
}
END_TEST

START_TEST(test_checkpoint_replay)
{
	GPtrArray *events, *blocks;
	State *orig = st, *copy;
	g_autofree char *want = NULL, *got = NULL;

	ck_assert(group_event(ADD, "/x/y", "alice", 3, TRUE));
	ck_assert(group_event(MOD, "/x", "alice", 7, TRUE));
	ck_assert(submit(1, "bob", "/x/y/z"));
	ck_assert(submit(2, "carol", "/other"));
	want = describe(st);
	events = state_export_events(st, &blocks);
	copy = st = state_new();
	for (guint i = 0; i < events->len; i++) {
		GError *err = NULL;

		ck_assert_msg(state_apply(copy, events->pdata[i], &err), "%s",
		    err ? err->message : "");
	}
	got = describe(copy);
	ck_assert_str_eq(got, want);
	ck_assert_str_eq(job_spec(state_job(copy, 1, 0))->job_group, "/x/y/z");
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	st = orig;
}
END_TEST

/* /a (limit 3) > /a/b (limit 1), /a/c (none); /d (0). */
START_TEST(test_limit_counting)
{
	SchedJobGroup groups[] = {
		{ "/a", -1, 3 }, { "/a/b", 0, 1 }, { "/a/c", 0, SCHED_UNLIMITED },
		{ "/d", -1, 0 }, { "/bad", 4, SCHED_UNLIMITED },
	};
	SchedSnapshot snap = { 0 };
	SchedCount c = { 0 };

	snap.jobgroups = groups;
	snap.n_jobgroups = G_N_ELEMENTS(groups);
	c.jobgroup = g_new0(int, snap.n_jobgroups);
	ck_assert(!sched_jobgroup_full(&c, &snap, 0));     /* no group */
	ck_assert(sched_jobgroup_full(&c, &snap, 4));      /* limit 0 */
	ck_assert(!sched_jobgroup_full(&c, &snap, 2));
	sched_count_add_jobgroup(&c, &snap, 2);            /* a job in /a/b */
	ck_assert_int_eq(c.jobgroup[0], 1);
	ck_assert_int_eq(c.jobgroup[1], 1);
	ck_assert(sched_jobgroup_full(&c, &snap, 2));      /* /a/b is full */
	ck_assert(!sched_jobgroup_full(&c, &snap, 3));     /* /a/c is not */
	sched_count_add_jobgroup(&c, &snap, 3);
	sched_count_add_jobgroup(&c, &snap, 3);
	ck_assert_int_eq(c.jobgroup[0], 3);
	ck_assert(sched_jobgroup_full(&c, &snap, 3));      /* /a is full */
	ck_assert(sched_jobgroup_full(&c, &snap, 1));
	/* A parent after its child (malformed) ends the walk, no loop. */
	sched_count_add_jobgroup(&c, &snap, 5);
	ck_assert_int_eq(c.jobgroup[4], 1);
	ck_assert(!sched_jobgroup_full(&c, &snap, 99));    /* out of range */
	g_free(c.jobgroup);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("jobgroups");
	TCase *paths = tcase_create("paths");
	TCase *state = tcase_create("state");
	TCase *sched = tcase_create("sched");

	tcase_add_test(paths, test_paths);
	tcase_add_test(paths, test_relations);
	tcase_add_checked_fixture(state, setup, teardown);
	tcase_add_test(state, test_state_groups);
	tcase_add_test(state, test_checkpoint_replay);
	tcase_add_test(state, test_busy_paths);
	tcase_add_test(state, test_busy_counts);
	tcase_add_test(sched, test_limit_counting);
	suite_add_tcase(s, paths);
	suite_add_tcase(s, state);
	suite_add_tcase(s, sched);
	return bs_run_suite(s);
}
