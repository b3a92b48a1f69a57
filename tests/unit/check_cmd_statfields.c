/*
 * cmd/cmd-fields.c with the bqueues and bhosts tables (bqueues-fields.c,
 * bhosts-fields.c): every field of both tables by each of its names,
 * "all", widths, right alignment, delimiters, the values read from a
 * queue's parameters, and the -json document.
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "bqueues-format.h"

static char *params[] = {
	"NICE = 5", "RUNLIMIT = 10.0 min 20.0 min", "CPULIMIT = 30.0 min",
	"USERS = all", "HOSTS = hostA hostB", "RES_REQ = select[mem>10]",
};

static void
queue(Basalt__QueueInfo *q)
{
	basalt__queue_info__init(q);
	q->name = "normal";
	q->priority = 30;
	q->open = TRUE;
	q->active = TRUE;
	q->qjob_limit = -1;
	q->ujob_limit = 3;
	q->pjob_limit = 1.5;
	q->hjob_limit = -1;
	q->njobs = 7;
	q->pend = 2;
	q->run = 4;
	q->susp = 1;
	q->ssusp = 1;
	q->description = "the \"default\" queue";
	q->params = params;
	q->n_params = G_N_ELEMENTS(params);
}

START_TEST(test_every_field_by_every_name)
{
	static const char *const q_names[] = {
		"queue_name", "qname", "description", "desc", "priority",
		"prio", "status", "stat", "max", "jl_u", "jlu", "jl_p", "jlp",
		"jl_h", "jlh", "njobs", "pend", "run", "susp", "rsv", "ususp",
		"ssusp", "nice", "max_corelimit", "corelimit", "max_cpulimit",
		"cpulimit", "default_cpulimit", "def_cpulimit", "max_datalimit",
		"default_datalimit", "max_filelimit", "max_memlimit",
		"default_memlimit", "max_processlimit",
		"default_processlimit", "max_runlimit", "runlimit",
		"default_runlimit", "def_runlimit", "max_stacklimit",
		"max_swaplimit", "max_tasklimit", "min_tasklimit",
		"default_tasklimit", "max_threadlimit", "default_threadlimit",
		"res_req", "hosts", "all", "QUEUE_NAME",
	};
	static const char *const h_names[] = {
		"host_name", "hname", "status", "stat", "cpuf", "jl_u", "jlu",
		"max", "njobs", "run", "ssusp", "ususp", "rsv",
		"dispatch_window", "dispwin", "ngpus", "ngpus_alloc",
		"ngpus_excl_alloc", "ngpus_shared_alloc",
		"ngpus_shared_jexcl_alloc", "ngpus_excl_avail",
		"ngpus_shared_avail", "attribute", "mig_alloc", "comments",
		"available_mem", "reserved_mem", "total_mem", "all",
	};

	for (gsize i = 0; i < G_N_ELEMENTS(q_names); i++) {
		g_autoptr(CmdFields) f = bqueues_fields_parse(q_names[i], NULL);

		ck_assert_msg(f != NULL, "bqueues field %s", q_names[i]);
	}
	for (gsize i = 0; i < G_N_ELEMENTS(h_names); i++) {
		g_autoptr(CmdFields) f = bhosts_fields_parse(h_names[i], NULL);

		ck_assert_msg(f != NULL, "bhosts field %s", h_names[i]);
	}
}
END_TEST

START_TEST(test_bqueues_values)
{
	Basalt__QueueInfo q;
	Basalt__QueueInfo *qs[] = { &q };
	Basalt__QueueList l = BASALT__QUEUE_LIST__INIT;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(CmdFields) f = bqueues_fields_parse(
	    "qname:8 prio:-4 max jl_u jl_p nice default_runlimit max_runlimit "
	    "max_cpulimit default_cpulimit memlimit hosts res_req "
	    "delimiter='|'", NULL);

	queue(&q);
	l.queues = qs;
	l.n_queues = 1;
	ck_assert_ptr_nonnull(f);
	bqueues_format_custom(out, f, &l, FALSE);
	ck_assert_str_eq(out->str,
	    "QUEUE_NA|PRIO|MAX|JL_U|JL_P|NICE|DEFAULT_RUNLIMIT|MAX_RUNLIMIT|"
	    "MAX_CPULIMIT|DEFAULT_CPULIMIT|MAX_MEMLIMIT|HOSTS|RES_REQ\n"
	    "normal  |  30|-|3|1.5|5|10.0 min|20.0 min|30.0 min|-|-|"
	    "hostA hostB|select[mem>10]\n");
}
END_TEST

START_TEST(test_json_and_all)
{
	Basalt__QueueInfo q;
	Basalt__QueueInfo *qs[] = { &q };
	Basalt__QueueList l = BASALT__QUEUE_LIST__INIT;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(CmdFields) f = bqueues_fields_parse("qname desc", NULL);
	g_autoptr(CmdFields) all = bqueues_fields_parse("all", NULL);
	g_autoptr(CmdFields) dflt = bqueues_fields_parse(NULL, NULL);

	queue(&q);
	l.queues = qs;
	l.n_queues = 1;
	bqueues_format_json(out, f, &l);
	ck_assert_str_eq(out->str, "{\n  \"COMMAND\":\"bqueues\",\n"
	    "  \"QUEUES\":1,\n  \"RECORDS\":[\n    {\n"
	    "      \"QUEUE_NAME\":\"normal\",\n"
	    "      \"DESCRIPTION\":\"the \\\"default\\\" queue\"\n"
	    "    }\n  ]\n}\n");
	ck_assert_uint_eq(all->fields->len, 37);
	ck_assert_uint_eq(dflt->fields->len, 11);
	l.n_queues = 0;
	g_string_truncate(out, 0);
	bqueues_format_json(out, f, &l);
	ck_assert_str_eq(out->str, "{\n  \"COMMAND\":\"bqueues\",\n"
	    "  \"QUEUES\":0,\n  \"RECORDS\":[\n  ]\n}\n");
}
END_TEST

START_TEST(test_bhosts_and_errors)
{
	Basalt__HostInfo h = BASALT__HOST_INFO__INIT;
	Basalt__HostInfo *hs[] = { &h };
	Basalt__HostList l = BASALT__HOST_LIST__INIT;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(CmdFields) f = bhosts_fields_parse(
	    "hname:6 status max:-5 ngpus total_mem", NULL);
	g_autoptr(GError) err = NULL;

	h.name = "hostA-long";
	h.status = "ok";
	h.max_slots = 8;
	h.jl_u = -1;
	h.mem_kb = 2 * 1048576;
	l.hosts = hs;
	l.n_hosts = 1;
	bhosts_format_custom(out, f, &l, TRUE);
	ck_assert_str_eq(out->str, "hostA- ok     8 - 2.0G\n");
	ck_assert_ptr_null(bhosts_fields_parse("hname bogus", &err));
	ck_assert_str_eq(err->message,
	    "bhosts: Invalid field name or format in -o: bogus");
	g_clear_error(&err);
	ck_assert_ptr_null(bqueues_fields_parse("qname:0", &err));
	g_clear_error(&err);
	/* A memory unit only on a memory field; bqueues has none. */
	ck_assert_ptr_null(bqueues_fields_parse("max:5:MB", &err));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_statfields");
	TCase *tc = tcase_create("fields");

	tcase_add_test(tc, test_every_field_by_every_name);
	tcase_add_test(tc, test_bqueues_values);
	tcase_add_test(tc, test_json_and_all);
	tcase_add_test(tc, test_bhosts_and_errors);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
