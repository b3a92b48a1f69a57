/*
 * The dependency index state_apply keeps (mbatchd/state/depindex.c): a -w
 * reference finds the jobs it names by id, by array element and by name
 * (elements answering to their array's name, names per user, '*'
 * wildcards), and the index follows submissions, bmod renames and cleans.
 * Also that -R and -w are parsed when the submission is applied, so the
 * scheduler's snapshot never parses them.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/state/state.h"
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

static void
apply_ok(Basalt__Event *ev)
{
	GError *err = NULL;

	ev->seq = ++seq;
	ev->time = 100 + (gint64)seq;
	ck_assert_msg(state_apply(st, ev, &err), "%s", err ? err->message : "");
}

static void
submit(guint64 id, const char *user, const char *name, guint32 n_elems,
    const char *resreq, const char *dep)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	guint32 idx[8];

	spec.command = "sleep 10";
	spec.job_name = (char *)name;
	spec.resreq = (char *)resreq;
	spec.dependency = (char *)dep;
	e.job_id = id;
	e.spec = &spec;
	e.user = (char *)user;
	e.queue = "normal";
	e.from_host = "hA";
	e.job_name = (char *)name;
	for (guint32 i = 0; i < n_elems; i++)
		idx[i] = i + 1;
	e.array_indexes = idx;
	e.n_array_indexes = n_elems;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	apply_ok(&ev);
}

static guint
found(const char *user, guint64 id, guint index, const char *name)
{
	BsDependRef ref = { .job_id = id, .name = name, .index = index };
	GArray *out = g_array_new(FALSE, FALSE, sizeof(BsDependJob));
	guint n;

	state_dep_lookup(st, state_intern(st, user), &ref, out);
	n = out->len;
	g_array_free(out, TRUE);
	return n;
}

START_TEST(test_lookup_by_id_element_and_name)
{
	submit(1, "alice", "build", 0, NULL, NULL);
	submit(2, "alice", "arr", 3, NULL, NULL);
	submit(3, "bob", "build", 0, NULL, NULL);
	submit(4, "alice", "builder", 0, NULL, NULL);
	ck_assert_uint_eq(found("alice", 1, 0, NULL), 1);
	ck_assert_uint_eq(found("alice", 2, 0, NULL), 3);  /* whole array */
	ck_assert_uint_eq(found("alice", 2, 2, NULL), 1);  /* one element */
	ck_assert_uint_eq(found("alice", 2, 9, NULL), 0);
	ck_assert_uint_eq(found("alice", 7, 0, NULL), 0);
	/* Names are the user's own; elements answer to the array's name. */
	ck_assert_uint_eq(found("alice", 0, 0, "build"), 1);
	ck_assert_uint_eq(found("bob", 0, 0, "build"), 1);
	ck_assert_uint_eq(found("carol", 0, 0, "build"), 0);
	ck_assert_uint_eq(found("alice", 0, 0, "arr"), 3);
	ck_assert_uint_eq(found("alice", 0, 0, "arr[2]"), 0);
	ck_assert_uint_eq(found("alice", 0, 0, "bui*"), 2);
	ck_assert_uint_eq(found("alice", 0, 0, "*"), 5);
}
END_TEST

/* bmod -J files the job under its new name; clean forgets it. */
START_TEST(test_index_follows_rename_and_clean)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobModify mod = BASALT__EV_JOB_MODIFY__INIT;
	Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;
	Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	submit(1, "alice", "old", 0, NULL, NULL);
	spec.command = "sleep 10";
	spec.job_name = "new";
	spec.resreq = "select[ncpus>=2]";
	mod.job_id = 1;
	mod.spec = &spec;
	ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
	ev.job_modify = &mod;
	apply_ok(&ev);
	ck_assert_uint_eq(found("alice", 0, 0, "old"), 0);
	ck_assert_uint_eq(found("alice", 0, 0, "new"), 1);
	/* bmod's -R is parsed when the modify event is applied. */
	ck_assert_ptr_nonnull(state_job(st, 1, 0)->spec->resreq);

	s.job_id = 1;
	s.state = JS_PSUSP;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &s;
	apply_ok(&ev);
	s.state = JS_PEND;
	apply_ok(&ev);
	s.state = JS_EXIT;
	apply_ok(&ev);
	cl.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &cl;
	apply_ok(&ev);
	ck_assert_uint_eq(found("alice", 1, 0, NULL), 0);
	ck_assert_uint_eq(found("alice", 0, 0, "new"), 0);
	ck_assert_uint_eq(g_hash_table_size(st->dep_by_id), 0);
	ck_assert_uint_eq(g_hash_table_size(st->dep_by_name), 0);
}
END_TEST

/* The index is made by the first lookup, from the jobs there are then
 * (a clean before it leaves nothing behind), and kept after it. */
START_TEST(test_index_made_by_first_lookup)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;
	Basalt__EvJobClean cl = BASALT__EV_JOB_CLEAN__INIT;

	submit(1, "alice", "a", 0, NULL, NULL);
	submit(2, "alice", "arr", 3, NULL, NULL);
	s.job_id = 1;
	s.state = JS_EXIT;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &s;
	apply_ok(&ev);
	cl.job_id = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &cl;
	apply_ok(&ev);
	ck_assert_ptr_null(st->dep_by_name);
	ck_assert_ptr_null(st->dep_by_id);

	ck_assert_uint_eq(found("alice", 0, 0, "a"), 0);
	ck_assert_ptr_nonnull(st->dep_by_name);
	ck_assert_uint_eq(found("alice", 0, 0, "arr"), 3);
	ck_assert_uint_eq(found("alice", 2, 0, NULL), 3);
	ck_assert_uint_eq(found("alice", 2, 2, NULL), 1);

	submit(3, "alice", "a", 0, NULL, NULL);
	submit(4, "alice", "arr", 2, NULL, NULL);
	ck_assert_uint_eq(found("alice", 0, 0, "a"), 1);
	ck_assert_uint_eq(found("alice", 0, 0, "arr"), 5);
	ck_assert_uint_eq(found("alice", 4, 0, NULL), 2);
}
END_TEST

static void
lookup_alice(const BsDependRef *ref, GArray *out, void *data)
{
	(void)data;
	state_dep_lookup(st, state_intern(st, "alice"), ref, out);
}

/* The state a lookup reports is the job's, and -R / -w are parsed once,
 * at apply time, shared by an array's elements. */
START_TEST(test_parsed_at_apply)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;
	BsDependRef ref = { .job_id = 1 };
	GArray *out = g_array_new(FALSE, FALSE, sizeof(BsDependJob));
	Job *e1, *e2;

	submit(1, "alice", "a", 0, NULL, NULL);
	submit(2, "alice", "b", 2, "select[mem>100] span[hosts=1]", "done(1)");
	e1 = state_job(st, 2, 1);
	e2 = state_job(st, 2, 2);
	ck_assert_ptr_eq(e1->spec, e2->spec);
	ck_assert_ptr_nonnull(e1->spec->resreq);
	ck_assert_ptr_nonnull(e1->spec->depend);
	ck_assert_ptr_null(state_job(st, 1, 0)->spec->resreq);

	s.job_id = 1;
	s.state = JS_EXIT;
	s.exit_status = 3;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &s;
	apply_ok(&ev);
	state_dep_lookup(st, state_intern(st, "alice"), &ref, out);
	ck_assert_uint_eq(out->len, 1);
	ck_assert_int_eq(g_array_index(out, BsDependJob, 0).state, BS_DEPEND_JOB_EXIT);
	ck_assert_int_eq(g_array_index(out, BsDependJob, 0).exit_code, 3);
	ck_assert_int_eq(g_array_index(out, BsDependJob, 0).post, BS_DEPEND_POST_DONE);
	/* done(1) of an exited job can never hold. */
	ck_assert_int_eq(bs_depend_eval(e1->spec->depend, lookup_alice, NULL),
	    BS_DEPEND_NEVER);
	g_array_free(out, TRUE);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("depindex");
	TCase *tc = tcase_create("index");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lookup_by_id_element_and_name);
	tcase_add_test(tc, test_index_follows_rename_and_clean);
	tcase_add_test(tc, test_parsed_at_apply);
	tcase_add_test(tc, test_index_made_by_first_lookup);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
