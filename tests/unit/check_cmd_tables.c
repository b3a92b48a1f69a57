/* cmd/bqueues, bhosts, busers, bparams formatters: golden output. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "bqueues-format.h"

#define GS(name) g_autoptr(GString) name = g_string_new(NULL)

static Basalt__QueueInfo
queue(const char *name, int prio)
{
	Basalt__QueueInfo q = BASALT__QUEUE_INFO__INIT;

	q.name = (char *)name;
	q.priority = prio;
	q.open = TRUE;
	q.active = TRUE;
	q.qjob_limit = q.ujob_limit = q.hjob_limit = -1;
	q.pjob_limit = -1;
	return q;
}

static Basalt__QueueList
qlist(Basalt__QueueInfo **qs, size_t n)
{
	Basalt__QueueList l = BASALT__QUEUE_LIST__INIT;

	l.queues = qs;
	l.n_queues = n;
	return l;
}

START_TEST(test_bqueues_table)
{
	GS(out);
	GS(wide);
	Basalt__QueueInfo a = queue("normal", 30), b = queue("a_very_long_queue_name", 1);
	Basalt__QueueInfo *qs[] = { &a, &b };
	Basalt__QueueList l = qlist(qs, 2);

	b.open = FALSE;
	b.active = FALSE;
	b.qjob_limit = 100;
	b.ujob_limit = 4;
	b.pjob_limit = 1.5;
	b.hjob_limit = 2;
	b.njobs = 12;
	b.pend = 4;
	b.run = 6;
	b.susp = 2;
	bqueues_format_table(out, &l, FALSE);
	ck_assert_str_eq(out->str,
		"QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP\n"
		"normal           30  Open:Active       -    -    -    -     0     0     0     0\n"
		"a_very_long_qu*   1  Closed:Inactive 100    4  1.5    2    12     4     6     2\n");
	bqueues_format_table(wide, &l, TRUE);
	ck_assert(g_str_has_suffix(wide->str,
		"a_very_long_queue_name   1  Closed:Inactive 100    4  1.5    2    12     4     6     2\n"));

	/* A million pending jobs: the counters stay apart. */
	b.njobs = 1200000;
	b.pend = 1000000;
	b.run = 123456;
	b.susp = 76544;
	g_string_truncate(out, 0);
	bqueues_format_table(out, &l, FALSE);
	ck_assert(g_str_has_suffix(out->str,
		"a_very_long_qu*   1  Closed:Inactive 100    4  1.5    2 1200000 1000000 123456 76544\n"));
}
END_TEST

START_TEST(test_bqueues_long)
{
	GS(out);
	Basalt__QueueInfo a = queue("normal", 30), b = queue("night", 5);
	Basalt__QueueInfo *qs[] = { &a, &b };
	Basalt__QueueList l = qlist(qs, 2);
	char *params[] = { "NICE = 20", "USERS=all", "HOSTS=hostA hostB",
			   "PREEMPTION=PREEMPTIVE[low]", "RUNLIMIT=60 360" };

	a.description = "For normal jobs.";
	a.params = params;
	a.n_params = G_N_ELEMENTS(params);
	b.active = FALSE;
	b.inactive_reason = "Inact_Win";
	bqueues_format_long(out, &l);
	ck_assert_str_eq(out->str,
		"\nQUEUE: normal\n"
		"  -- For normal jobs.\n"
		"\nPARAMETERS/STATISTICS\n"
		"PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP\n"
		"  30   20 Open:Active       -    -    -    -     0     0     0     0\n"
		"\n"
		"USERS: all\n"
		"HOSTS:  hostA hostB\n"
		"PREEMPTION = PREEMPTIVE[low]\n"
		"\n RUNLIMIT\n 60 360\n\n"
		"------------------------------------------------------------------------------\n"
		"\nQUEUE: night\n"
		"\nPARAMETERS/STATISTICS\n"
		"PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP\n"
		"   5    0 Open:Inact_Win    -    -    -    -     0     0     0     0\n");
}
END_TEST

static Basalt__HostInfo
host(const char *name, const char *status)
{
	Basalt__HostInfo h = BASALT__HOST_INFO__INIT;

	h.name = (char *)name;
	h.status = (char *)status;
	h.max_slots = 8;
	return h;
}

START_TEST(test_bhosts_table)
{
	GS(out);
	Basalt__HostInfo a = host("hostA", "ok"), b = host("very-long-host-name.example.com",
							   "closed_Full");
	Basalt__HostInfo c = host("hostC", "unavail");
	Basalt__HostInfo *hs[] = { &a, &b, &c };
	Basalt__HostList l = BASALT__HOST_LIST__INIT;

	a.njobs = a.run = 2;
	b.jl_u = 2;
	b.njobs = 8;
	b.run = 6;
	b.ssusp = 1;
	b.ususp = 1;
	b.rsv = 3;
	c.max_slots = -1;
	l.hosts = hs;
	l.n_hosts = 3;
	bhosts_format_table(out, &l, FALSE);
	ck_assert_str_eq(out->str,
		"HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV\n"
		"hostA              ok              -      8      2      2      0      0      0\n"
		"very-long-host-na* closed          2      8      8      6      1      1      3\n"
		"hostC              unavail         -      -      0      0      0      0      0\n");
	g_string_truncate(out, 0);
	l.n_hosts = 2;
	l.hosts = hs + 1;
	bhosts_format_table(out, &l, TRUE);
	ck_assert(strstr(out->str, "very-long-host-name.example.com closed          2") != NULL);
}
END_TEST

START_TEST(test_bhosts_long)
{
	GS(out);
	Basalt__HostInfo a = host("hostA", "closed_Adm"), b = host("hostB", "ok");
	Basalt__HostInfo *hs[] = { &a, &b };
	Basalt__HostList l = BASALT__HOST_LIST__INIT;

	a.njobs = a.run = 1;
	a.r15s = 0.25;
	a.r1m = 1;
	a.r15m = 0.5;
	a.mem_kb = 16 * 1024 * 1024;
	a.ncpus = 4;
	b.mem_kb = 512 * 1024;
	b.ncpus = 1;
	l.hosts = hs;
	l.n_hosts = 2;
	bhosts_format_long(out, &l);
	ck_assert_str_eq(out->str,
		"HOST  hostA\n"
		"STATUS           JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV\n"
		"closed_Adm          -      8      1      1      0      0      0\n"
		"\n CURRENT LOAD USED FOR SCHEDULING:\n"
		"               r15s   r1m  r15m     mem  ncpus\n"
		" Total           0.2   1.0   0.5   16.0G      4\n"
		"\n"
		"HOST  hostB\n"
		"STATUS           JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV\n"
		"ok                  -      8      0      0      0      0      0\n"
		"\n CURRENT LOAD USED FOR SCHEDULING:\n"
		"               r15s   r1m  r15m     mem  ncpus\n"
		" Total           0.0   0.0   0.0    512M      1\n");
}
END_TEST

START_TEST(test_busers_table)
{
	GS(out);
	Basalt__UserInfo a = BASALT__USER_INFO__INIT, b = BASALT__USER_INFO__INIT;
	Basalt__UserInfo *us[] = { &a, &b };
	Basalt__UserList l = BASALT__USER_LIST__INIT;

	a.name = "alice";
	a.jl_p = -1;
	a.max_jobs = -1;
	b.name = "a_group_with_a_long_name";
	b.jl_p = 2;
	b.max_jobs = 10;
	b.njobs = 7;
	b.pend = 3;
	b.run = 2;
	b.ssusp = 1;
	b.ususp = 1;
	l.users = us;
	l.n_users = 2;
	busers_format_table(out, &l, FALSE);
	ck_assert_str_eq(out->str,
		"USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV\n"
		"alice                  -      -      0      0      0      0      0      0\n"
		"a_group_with_a_lon*    2     10      7      3      2      1      1      0\n");
	g_string_truncate(out, 0);
	busers_format_table(out, &l, TRUE);
	ck_assert(strstr(out->str, "\na_group_with_a_long_name    2     10") != NULL);
}
END_TEST

START_TEST(test_blimits_table)
{
	GS(out);
	Basalt__LimitUsage a = BASALT__LIMIT_USAGE__INIT, b = BASALT__LIMIT_USAGE__INIT;
	Basalt__LimitUsage *rows[] = { &a, &b };
	Basalt__LimitList l = BASALT__LIMIT_LIST__INIT;
	Basalt__KeyValue k1 = BASALT__KEY_VALUE__INIT, k2 = BASALT__KEY_VALUE__INIT;
	Basalt__KeyValue *kv[] = { &k1, &k2 };
	Basalt__LimitConfig c = BASALT__LIMIT_CONFIG__INIT;
	Basalt__LimitConfig *cs[] = { &c };
	char *rn[] = { "lic" };
	double ru[] = { 1 }, rm[] = { 2 };

	blimits_format_table(out, &l, FALSE);
	ck_assert_str_eq(out->str, "No resource usage found.\n");
	g_string_truncate(out, 0);
	a.name = "ulim";
	a.users = "alice";
	a.queues = a.hosts = a.projects = a.apps = "-";
	a.slots_used = 2;
	a.slots_max = 2;
	a.jobs_used = a.jobs_max = -1;
	a.mem_used = a.mem_max = a.swp_used = a.swp_max = -1;
	a.tmp_used = a.tmp_max = -1;
	b = a;
	b.name = "a_long_limit_name";
	b.users = "-";
	b.queues = "normal";
	b.slots_used = b.slots_max = -1;
	b.mem_used = 600;
	b.mem_max = 1000;
	b.res_names = rn;
	b.n_res_names = 1;
	b.res_used = ru;
	b.n_res_used = 1;
	b.res_max = rm;
	b.n_res_max = 1;
	l.limits = rows;
	l.n_limits = 2;
	blimits_format_table(out, &l, FALSE);
	ck_assert_str_eq(out->str,
		"INTERNAL RESOURCE LIMITS:\n\n"
		"    NAME         USERS        QUEUES       HOSTS        PROJECTS        SLOTS      MEM      TMP      SWP     JOBS      lic\n"
		"    ulim         alice        -            -            -                 2/2        -        -        -        -        -\n"
		"    a_long_limi* -            normal       -            -                   - 600/1000        -        -        -      1/2\n");
	k1.key = "NAME";
	k1.value = "ulim";
	k2.key = "SLOTS";
	k2.value = "2";
	c.keys = kv;
	c.n_keys = 2;
	l.configured = cs;
	l.n_configured = 1;
	g_string_truncate(out, 0);
	blimits_format_config(out, &l);
	ck_assert_str_eq(out->str, "Begin Limit\n"
		"NAME                = ulim\n"
		"SLOTS               = 2\n"
		"End Limit\n");
}
END_TEST

static Basalt__ParamsReply
params(Basalt__KeyValue **kv, size_t n)
{
	Basalt__ParamsReply r = BASALT__PARAMS_REPLY__INIT;

	r.params = kv;
	r.n_params = n;
	return r;
}

START_TEST(test_bparams_short)
{
	GS(dflt);
	GS(conf);
	Basalt__KeyValue q = BASALT__KEY_VALUE__INIT, m = BASALT__KEY_VALUE__INIT;
	Basalt__KeyValue a = BASALT__KEY_VALUE__INIT;
	Basalt__KeyValue *kv[] = { &q, &m, &a };
	Basalt__ParamsReply none = params(NULL, 0), set = params(kv, 3);

	q.key = "DEFAULT_QUEUE";
	q.value = "normal short";
	m.key = "MBD_SLEEP_TIME";
	m.value = "10";
	a.key = "JOB_ACCEPT_INTERVAL";
	a.value = "2";
	bparams_format_short(dflt, &none);
	ck_assert_str_eq(dflt->str,
		"Default Queues:  default\n"
		"Job Dispatch Interval:  60 seconds\n"
		"Job Checking Interval:  30 seconds\n"
		"Job Accepting Interval:  60 seconds\n");
	bparams_format_short(conf, &set);
	ck_assert_str_eq(conf->str,
		"Default Queues:  normal short\n"
		"Job Dispatch Interval:  10 seconds\n"
		"Job Checking Interval:  30 seconds\n"
		"Job Accepting Interval:  20 seconds\n");
}
END_TEST

START_TEST(test_bparams_long_and_all)
{
	GS(lng);
	GS(all);
	Basalt__KeyValue p = BASALT__KEY_VALUE__INIT, x = BASALT__KEY_VALUE__INIT;
	Basalt__KeyValue *kv[] = { &p, &x };
	Basalt__ParamsReply r = params(kv, 2);

	p.key = "MAX_JOB_PREEMPT";
	p.value = "3";
	x.key = "enable_event_stream";
	x.value = "Y";
	bparams_format_long(lng, &r);
	ck_assert(g_str_has_prefix(lng->str,
		"Queues for jobs submitted without a queue:\n"
		"    DEFAULT_QUEUE = default\n"
		"\n"
		"Project of jobs submitted without a project:\n"
		"    DEFAULT_PROJECT = default\n"
		"\n"
		"Interval at which jobs are scheduled and dispatched:\n"
		"    MBD_SLEEP_TIME = 60 (seconds)\n"));
	ck_assert(strstr(lng->str, "    JOB_ACCEPT_INTERVAL = 1 (* MBD_SLEEP_TIME)\n"));
	ck_assert(g_str_has_suffix(lng->str,
		"\nTimes a job may be preempted:\n    MAX_JOB_PREEMPT = 3\n"));
	ck_assert(strstr(lng->str, "PREEMPT_FOR") == NULL);
	bparams_format_all(all, &r);
	ck_assert_str_eq(all->str,
		"    CLEAN_PERIOD = 3600\n"
		"    DEFAULT_PROJECT = default\n"
		"    DEFAULT_QUEUE = default\n"
		"    ENABLE_EVENT_STREAM = Y\n"
		"    HIST_HOURS = 5\n"
		"    JOB_ACCEPT_INTERVAL = 1\n"
		"    JOB_TERMINATE_INTERVAL = 10\n"
		"    MAX_JOBID = 999999\n"
		"    MAX_JOB_ARRAY_SIZE = 1000\n"
		"    MAX_JOB_NUM = 1000\n"
		"    MAX_JOB_PREEMPT = 3\n"
		"    MAX_SBD_FAIL = 3\n"
		"    MBD_SLEEP_TIME = 60\n"
		"    SBD_SLEEP_TIME = 30\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_tables");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_bqueues_table);
	tcase_add_test(tc, test_bqueues_long);
	tcase_add_test(tc, test_bhosts_table);
	tcase_add_test(tc, test_bhosts_long);
	tcase_add_test(tc, test_busers_table);
	tcase_add_test(tc, test_blimits_table);
	tcase_add_test(tc, test_bparams_short);
	tcase_add_test(tc, test_bparams_long_and_all);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
