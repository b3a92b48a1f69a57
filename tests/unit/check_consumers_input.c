/*
 * lsb.consumers into the scheduler's snapshot (mbatchd/consumers-input.c):
 * the consumer tables kept for a configuration (SchedInputFacts.consumers,
 * as mbatchd keeps them between passes) give the snapshot exactly what
 * tables built for the snapshot alone give, are built once and reused
 * (the same arrays in every later snapshot), and after a reconfiguration
 * (reset, as manager_reconfig does) follow the new configuration.  And the
 * queue index by name (sched_input_queue) the snapshot builder uses.
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"
#include "mbatchd/sched-input.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", "lsb.users", NULL,
};

#define QUEUES "Begin Queue\nQUEUE_NAME = first\nCONSUMER = /X/A\nEnd Queue\n" \
	"Begin Queue\nQUEUE_NAME = second\nCONSUMER = /Y\nEnd Queue\n"
#define C(path) "Begin Consumer\nNAME = " path "\nEnd Consumer\n"
#define GROUPS "Begin ResourceGroup\nNAME = rg1\nHOSTS = groupA hostB\n" \
	"End ResourceGroup\n" \
	"Begin ResourceGroup\nNAME = rg2\nHOSTS = hostB hostC\nEnd ResourceGroup\n"

static BsConfig *
load(const char *consumers)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	conf_write(dir, "lsb.consumers", consumers);
	conf_write(dir, "lsb.queues", QUEUES);
	cfg = conf_load_dir(dir, &diags);
	conf_rmtree(dir);
	ck_assert_msg(cfg != NULL, "%s", diags);
	return cfg;
}

static BsConfig *
plan_one(void)
{
	return load(GROUPS C("/X") C("/X/A") C("/Y")
	    "Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER OWNED RESERVED LIMIT RANK\n"
	    "/Y 4 1 - 2\n/X 6 0 8 -\nEnd Plan\n");
}

static BsConfig *
plan_two(void)
{
	return load(GROUPS C("/X") C("/X/A") C("/X/B") C("/Y")
	    "Begin Plan\nRESOURCE_GROUP = rg2\nCONSUMER OWNED RESERVED LIMIT RANK\n"
	    "/X 3 0 - 1\n/X/B 2 0 - -\nEnd Plan\n");
}

static gboolean
host_facts(const char *name, SchedInputHost *out, void *data)
{
	(void)name;
	(void)data;
	out->up = TRUE;
	out->ncpus = 4;
	return TRUE;
}

static void
queue_facts(const char *name, SchedInputQueue *out, void *data)
{
	(void)name;
	(void)data;
	out->active = TRUE;
}

/* The snapshot's consumer tables as text: the tree, then each group's
 * hosts by name and its terms in plan order. */
static char *
describe(const BsConfig *cfg, SchedConsumersInput *kept,
    const SchedResourceGroup **rgroups)
{
	SchedInputFacts facts = { host_facts, queue_facts, NULL, kept, NULL, 0 };
	GString *out = g_string_new(NULL);
	SchedSnapshot snap;
	SchedInput in;

	memset(&snap, 0, sizeof snap);
	sched_input_build(&in, cfg, &facts);
	sched_input_finish(&in, &snap);
	for (guint c = 0; c < snap.n_consumers; c++)
		g_string_append_printf(out, "%s^%d %s;", snap.consumers[c].path,
		    snap.consumers[c].parent,
		    sched_consumer_policy_name(snap.consumers[c].policy));
	for (guint g = 0; g < snap.n_rgroups; g++) {
		const SchedResourceGroup *rg = &snap.rgroups[g];

		g_string_append_printf(out, "|%s slots %d:", rg->name, rg->plan_slots);
		for (guint i = 0; i < rg->n_hosts; i++)
			g_string_append_printf(out, " %s", snap.hosts[rg->hosts[i]].name);
		for (guint t = 0; t < rg->n_terms; t++)
			g_string_append_printf(out, " [%u o%d r%d l%d k%d]",
			    rg->terms[t].consumer, rg->terms[t].owned,
			    rg->terms[t].reserved, rg->terms[t].limit, rg->terms[t].rank);
	}
	if (rgroups != NULL)
		*rgroups = snap.rgroups;
	sched_input_free(&in);
	return g_string_free(out, FALSE);
}

START_TEST(test_kept_as_built)
{
	g_autoptr(BsConfig) one = plan_one();
	g_autoptr(BsConfig) two = plan_two();
	SchedConsumersInput *kept = sched_consumers_input_new();
	const SchedResourceGroup *first = NULL, *again = NULL;
	g_autofree char *own1 = describe(one, NULL, NULL);
	g_autofree char *kept1 = describe(one, kept, &first);
	g_autofree char *kept1b = describe(one, kept, &again);
	g_autofree char *own2 = describe(two, NULL, NULL);
	g_autofree char *kept2 = NULL;

	/* rg1: hostA and hostD (groupA) and hostB; rg2 gets hostC alone,
	 * hostB counting in the first group that lists it.  Rows as
	 * written, then the consumers without one in tree order. */
	ck_assert_str_eq(own1, "/X^-1 hybrid;/X/A^0 hybrid;/Y^-1 hybrid;"
	    "|rg1 slots 10: hostA hostB hostD [2 o4 r1 l-1 k2] [0 o6 r0 l8 k0]"
	    " [1 o0 r0 l-1 k0]"
	    "|rg2 slots 0: hostC [0 o0 r0 l-1 k0] [1 o0 r0 l-1 k0]"
	    " [2 o0 r0 l-1 k0]");
	ck_assert_str_eq(kept1, own1);
	ck_assert_str_eq(kept1b, own1);
	/* Built once: the second snapshot carries the same arrays. */
	ck_assert_ptr_eq(again, first);
	/* A new configuration (reset first, as badmin reconfig does). */
	sched_consumers_input_reset(kept);
	kept2 = describe(two, kept, NULL);
	ck_assert_str_eq(kept2, own2);
	ck_assert_str_ne(own2, own1);
	sched_consumers_input_free(kept);
}
END_TEST

START_TEST(test_queue_index)
{
	g_autoptr(BsConfig) cfg = plan_one();
	SchedInputFacts facts = { host_facts, queue_facts, NULL, NULL, NULL, 0 };
	SchedInput in;
	guint q = 99;

	sched_input_build(&in, cfg, &facts);
	ck_assert(sched_input_queue(&in, "first", &q));
	ck_assert_uint_eq(q, 0);
	ck_assert(sched_input_queue(&in, "second", &q));
	ck_assert_uint_eq(q, 1);
	ck_assert(!sched_input_queue(&in, "third", &q));
	ck_assert(!sched_input_queue(&in, NULL, &q));
	/* The consumer rule from the queue's configuration alone (bjobs). */
	ck_assert_uint_eq(sched_input_consumer_of(cfg, bs_config_queue(cfg, "first"),
	    NULL), 2);
	ck_assert_uint_eq(sched_input_job_consumer(&in, 1, NULL), 3);
	ck_assert_uint_eq(sched_input_consumer_of(cfg, NULL, "/Y"), 3);
	/* A parent runs no job; an unknown queue has no consumer. */
	ck_assert_uint_eq(sched_input_consumer_of(cfg, NULL, "/X"), 0);
	ck_assert_uint_eq(sched_input_consumer_of(cfg, NULL, NULL), 0);
	sched_input_free(&in);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("consumers_input");
	TCase *t = tcase_create("input");

	tcase_add_test(t, test_kept_as_built);
	tcase_add_test(t, test_queue_index);
	suite_add_tcase(s, t);
	return bs_run_suite(s);
}
