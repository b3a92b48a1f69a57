/*
 * dep-bench: what evaluating every pending job's `bsub -w` costs in one
 * scheduling pass, resolving references by a walk over every job (as
 * mbd-snapshot.c did before the dependency index) and through the index
 * state_apply keeps (mbatchd/state/depindex.c).  Both run over the same
 * state and must agree job by job; the program fails if they do not.
 *
 *   dep-bench [-j finished_jobs] [-p pending_with_deps]
 *
 * Prints "result dep.scan" and "result dep.index" in ms per pass.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbatchd/state/state.h"

typedef struct {
	State *st;
	const Job *job;
} Ctx;

/* The walk mbd-snapshot.c used to do: every job, for every reference. */
static void
scan_lookup(const BsDependRef *ref, GArray *out, void *data)
{
	const Ctx *c = data;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, c->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		BsDependJob dj = { 0 };

		if (ref->name != NULL) {
			const char *br = j->index > 0 ? strrchr(j->name, '[') : NULL;
			g_autofree char *base = br != NULL ?
			    g_strndup(j->name, (gsize)(br - j->name)) : g_strdup(j->name);

			if (j->user != c->job->user ||
			    !bs_depend_name_matches(ref->name, base))
				continue;
		} else if (j->id != ref->job_id ||
		    (ref->index != 0 && j->index != ref->index)) {
			continue;
		}
		dj.state = j->state == JS_DONE ? BS_DEPEND_JOB_DONE :
		    j->state == JS_EXIT ? BS_DEPEND_JOB_EXIT :
		    j->state == JS_PEND ? BS_DEPEND_JOB_PEND : BS_DEPEND_JOB_RUN;
		dj.exit_code = j->exit_status;
		dj.post = job_is_finished(j) ? BS_DEPEND_POST_DONE : BS_DEPEND_POST_NONE;
		g_array_append_val(out, dj);
	}
}

static void
index_lookup(const BsDependRef *ref, GArray *out, void *data)
{
	const Ctx *c = data;

	state_dep_lookup(c->st, c->job->user, ref, out);
}

static guint64 seq;

static void
apply(State *st, Basalt__Event *ev)
{
	GError *err = NULL;

	ev->seq = ++seq;
	ev->time = 1000;
	if (!state_apply(st, ev, &err)) {
		fprintf(stderr, "dep-bench: %s\n", err->message);
		exit(1);
	}
}

static void
submit(State *st, guint64 id, const char *user, const char *name,
    const char *dep)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	spec.command = "true";
	spec.job_name = (char *)name;
	spec.dependency = (char *)dep;
	e.job_id = id;
	e.spec = &spec;
	e.user = (char *)user;
	e.queue = "normal";
	e.from_host = "h";
	e.job_name = (char *)name;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	apply(st, &ev);
}

static void
finish(State *st, guint64 id)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;

	s.job_id = id;
	s.state = JS_DONE;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &s;
	apply(st, &ev);
}

/* One pass: every pending job's condition; the results in *res. */
static double
pass(State *st, GPtrArray *pending, BsDependLookup lookup, int *res)
{
	gint64 t0 = g_get_monotonic_time();

	for (guint i = 0; i < pending->len; i++) {
		const Job *j = pending->pdata[i];
		Ctx c = { st, j };

		res[i] = (int)bs_depend_eval(j->spec->depend, lookup, &c);
	}
	return (double)(g_get_monotonic_time() - t0) / 1000.0;
}

int
main(int argc, char **argv)
{
	guint n_jobs = 20000, n_pend = 2000;
	State *st = state_new();
	GPtrArray *pending = g_ptr_array_new();
	int *a, *b;
	double scan, idx;
	int opt;

	while ((opt = getopt(argc, argv, "j:p:")) != -1) {
		if (opt == 'j')
			n_jobs = (guint)atoi(optarg);
		else if (opt == 'p')
			n_pend = (guint)atoi(optarg);
		else
			return 2;
	}
	n_jobs = MAX(n_jobs, 1u);
	for (guint64 id = 1; id <= n_jobs; id++) {
		g_autofree char *name = g_strdup_printf("step%" G_GUINT64_FORMAT,
		    id % 1000);

		submit(st, id, id % 2 ? "alice" : "bob", name, NULL);
		finish(st, id);
	}
	for (guint i = 0; i < n_pend; i++) {
		guint64 id = n_jobs + 1 + i;
		g_autofree char *dep = i % 4 == 3 ?
		    g_strdup_printf("ended(step%u)", i % 1000) :
		    g_strdup_printf("done(%u) && ended(%u)", 1 + i * 7 % n_jobs,
		    1 + i * 13 % n_jobs);

		submit(st, id, i % 2 ? "alice" : "bob", "waiter", dep);
		g_ptr_array_add(pending, state_job(st, id, 0));
	}
	a = g_new(int, MAX(n_pend, 1u));
	b = g_new(int, MAX(n_pend, 1u));
	scan = pass(st, pending, scan_lookup, a);
	{
		/* The index a running mbatchd has: the first lookup makes it,
		 * once, so it is made here, outside the timed pass. */
		BsDependRef ref = { .job_id = 1 };
		GArray *out = g_array_new(FALSE, FALSE, sizeof(BsDependJob));

		state_dep_lookup(st, state_intern(st, "alice"), &ref, out);
		g_array_free(out, TRUE);
	}
	idx = pass(st, pending, index_lookup, b);
	if (memcmp(a, b, n_pend * sizeof *a) != 0) {
		fprintf(stderr, "dep-bench: the index and the walk disagree\n");
		return 1;
	}
	fprintf(stderr, "dep-bench: %u jobs, %u pending with -w\n", n_jobs, n_pend);
	printf("result\tdep.scan\t%.2f\tms\n", scan);
	printf("result\tdep.index\t%.2f\tms\n", idx);
	g_free(a);
	g_free(b);
	g_ptr_array_free(pending, TRUE);
	state_free(st);
	return 0;
}
