/*
 * sbatchd/job-limits.c: which limits of a job's stamp become setrlimit()s
 * of its processes (and with which soft and hard values), which sbatchd
 * enforces over the whole job, and which LSF end (TERM_*) a sample over a
 * limit gets.
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "job-limits.h"
#include "tap.h"

static Basalt__JobLimit *
lim(guint64 v)
{
	Basalt__JobLimit *l = g_new0(Basalt__JobLimit, 1);

	basalt__job_limit__init(l);
	l->value = v;
	return l;
}

static const BsLaunchLimit *
find(const BsLaunchLimit *l, guint n, int resource)
{
	for (guint i = 0; i < n; i++)
		if (l[i].resource == resource)
			return &l[i];
	return NULL;
}

START_TEST(test_rlimit_mapping)
{
	Basalt__JobEffective e = BASALT__JOB_EFFECTIVE__INIT;
	BsLaunchLimit out[SBD_MAX_RLIMITS];
	const BsLaunchLimit *l;
	guint n;

	e.cpulimit_s = lim(90);
	e.filelimit_kb = lim(100);
	e.datalimit_kb = lim(2048);
	e.stacklimit_kb = lim(8192);
	e.corelimit_kb = lim(0);
	e.memlimit_kb = lim(1000);
	e.swaplimit_kb = lim(5000);
	e.processlimit = lim(4);
	e.threadlimit = lim(8);
	n = sbd_limits_rlimits(&e, out);
	ck_assert_uint_eq(n, 5);
	/* CPU: SIGXCPU at the limit, no SIGKILL from the kernel. */
	l = find(out, n, RLIMIT_CPU);
	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(l->limit.rlim_cur, 90);
	ck_assert(l->limit.rlim_max == RLIM_INFINITY);
	/* Sizes are KB in the stamp, bytes for the kernel. */
	l = find(out, n, RLIMIT_FSIZE);
	ck_assert_uint_eq(l->limit.rlim_cur, 100 * 1024);
	ck_assert_uint_eq(l->limit.rlim_max, 100 * 1024);
	ck_assert_uint_eq(find(out, n, RLIMIT_DATA)->limit.rlim_cur, 2048 * 1024);
	ck_assert_uint_eq(find(out, n, RLIMIT_STACK)->limit.rlim_cur, 8192 * 1024);
	/* CORELIMIT = 0 is a limit: no core file. */
	l = find(out, n, RLIMIT_CORE);
	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(l->limit.rlim_cur, 0);
	/* Memory, swap, processes and threads are whole-job limits: RSS does
	 * nothing on Linux, AS and NPROC would count the wrong thing. */
	ck_assert_ptr_null(find(out, n, RLIMIT_RSS));
	ck_assert_ptr_null(find(out, n, RLIMIT_AS));
	ck_assert_ptr_null(find(out, n, RLIMIT_NPROC));
	ck_assert_uint_eq(sbd_limits_rlimits(NULL, out), 0);
	g_free(e.cpulimit_s); g_free(e.filelimit_kb); g_free(e.datalimit_kb);
	g_free(e.stacklimit_kb); g_free(e.corelimit_kb); g_free(e.memlimit_kb);
	g_free(e.swaplimit_kb); g_free(e.processlimit); g_free(e.threadlimit);
}
END_TEST

START_TEST(test_rlimit_huge)
{
	Basalt__JobEffective e = BASALT__JOB_EFFECTIVE__INIT;
	BsLaunchLimit out[SBD_MAX_RLIMITS];

	e.filelimit_kb = lim(G_MAXUINT64);
	ck_assert_uint_eq(sbd_limits_rlimits(&e, out), 1);
	ck_assert(out[0].limit.rlim_cur == RLIM_INFINITY);
	g_free(e.filelimit_kb);
}
END_TEST

/* Not root: a hard limit above sbatchd's own would fail the launch. */
START_TEST(test_clamp)
{
	BsLaunchLimit l = { RLIMIT_CORE, { RLIM_INFINITY, RLIM_INFINITY } };
	struct rlimit cur;

	ck_assert_int_eq(getrlimit(RLIMIT_CORE, &cur), 0);
	sbd_limits_clamp(&l, 1, FALSE);
	ck_assert(l.limit.rlim_max == cur.rlim_max);
	ck_assert(l.limit.rlim_cur == cur.rlim_max);
	l.limit.rlim_cur = l.limit.rlim_max = RLIM_INFINITY;
	sbd_limits_clamp(&l, 1, TRUE);
	ck_assert(l.limit.rlim_max == RLIM_INFINITY);
}
END_TEST

START_TEST(test_whole_job)
{
	Basalt__JobEffective e = BASALT__JOB_EFFECTIVE__INIT;
	SbdJobLimits l;
	SbdJobSample s = { 0 };

	sbd_limits_from_effective(NULL, &l);
	s.mem_kb = G_MAXINT64;
	s.nprocs = 100000;
	ck_assert_ptr_null(sbd_limits_check(&l, &s));

	e.memlimit_kb = lim(1000);
	e.swaplimit_kb = lim(5000);
	e.cpulimit_s = lim(60);
	e.processlimit = lim(2);
	e.threadlimit = lim(3);
	sbd_limits_from_effective(&e, &l);
	memset(&s, 0, sizeof s);
	s.mem_kb = 1000;
	s.swap_kb = 5000;
	s.cpu_us = 59 * G_USEC_PER_SEC;
	s.nprocs = 2;
	s.nthreads = 3;
	ck_assert_ptr_null(sbd_limits_check(&l, &s));  /* at a limit is fine */
	s.nthreads = 4;
	ck_assert_str_eq(sbd_limits_check(&l, &s), "TERM_THREADLIMIT");
	s.nprocs = 3;
	ck_assert_str_eq(sbd_limits_check(&l, &s), "TERM_PROCESSLIMIT");
	s.cpu_us = 60 * G_USEC_PER_SEC;
	ck_assert_str_eq(sbd_limits_check(&l, &s), "TERM_CPULIMIT");
	s.swap_kb = 5001;
	ck_assert_str_eq(sbd_limits_check(&l, &s), "TERM_SWAP");
	s.mem_kb = 1001;
	ck_assert_str_eq(sbd_limits_check(&l, &s), "TERM_MEMLIMIT");
	ck_assert_str_eq(sbd_limits_kill_reason("TERM_MEMLIMIT"), "MEMLIMIT was reached;");
	ck_assert_ptr_null(sbd_limits_kill_reason("TERM_NOSUCH"));
	g_free(e.memlimit_kb); g_free(e.swaplimit_kb); g_free(e.cpulimit_s);
	g_free(e.processlimit); g_free(e.threadlimit);
}
END_TEST

/* LSB_JOB_CPULIMIT: y = the job's sum only, n = per process only. */
START_TEST(test_cpu_policy)
{
	Basalt__JobEffective e = BASALT__JOB_EFFECTIVE__INIT;
	BsLaunchLimit out[SBD_MAX_RLIMITS];
	SbdJobLimits l;
	guint n;

	e.cpulimit_s = lim(60);
	e.corelimit_kb = lim(0);
	sbd_limits_from_effective(&e, &l);
	n = sbd_limits_rlimits(&e, out);
	sbd_limits_cpu_policy(NULL, &l, out, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(l.cpulimit_s, 60);
	sbd_limits_cpu_policy("y", &l, out, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_ptr_null(find(out, n, RLIMIT_CPU));
	ck_assert_ptr_nonnull(find(out, n, RLIMIT_CORE));
	ck_assert_int_eq(l.cpulimit_s, 60);
	n = sbd_limits_rlimits(&e, out);
	sbd_limits_cpu_policy("N", &l, out, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(l.cpulimit_s, -1);
	g_free(e.cpulimit_s);
	g_free(e.corelimit_kb);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("job_limits");
	TCase *tc = tcase_create("mapping");

	tcase_add_test(tc, test_rlimit_mapping);
	tcase_add_test(tc, test_rlimit_huge);
	tcase_add_test(tc, test_clamp);
	tcase_add_test(tc, test_whole_job);
	tcase_add_test(tc, test_cpu_policy);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
