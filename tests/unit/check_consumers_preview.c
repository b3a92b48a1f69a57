/* cmd/consumers-preview.c, the layout of badmin reconfig -preview and
 * bconsumers -at: golden output (TZ fixed to UTC). */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "tap.h"
#include "consumers-preview.h"

static Basalt__ConsumerInfo
row(const char *path, const char *window, int now, int quota, int alloc)
{
	Basalt__ConsumerInfo c = BASALT__CONSUMER_INFO__INIT;

	c.path = (char *)path;
	c.resource_group = (char *)"rg1";
	c.time_window = (char *)window;
	c.quota_now = now;
	c.quota = quota;
	c.alloc = alloc;
	return c;
}

START_TEST(test_quotas_and_jobs)
{
	g_autoptr(GString) out = g_string_new(NULL);
	Basalt__ConsumerInfo a = row("/a", "17:00-23:49", 6, 2, 6);
	Basalt__ConsumerInfo b = row("/b", "", 2, 6, 2);
	Basalt__ConsumerInfo *rows[] = { &a, &b };
	Basalt__PreviewJob j1 = BASALT__PREVIEW_JOB__INIT, j2 = BASALT__PREVIEW_JOB__INIT;
	Basalt__PreviewJob *jobs[] = { &j1, &j2 };

	j1.job_id = 5;
	j1.user = (char *)"alice";
	j1.queue = (char *)"qa";
	j1.action = (char *)"reclaim-notice";
	j1.consumer = (char *)"/a";
	j1.for_consumer = (char *)"/b";
	j1.slots = 1;
	j1.grace = 30;
	j1.deadline = 1767632430;      /* 2026-01-05 17:00:30 UTC */
	j2.job_id = 7;
	j2.array_index = 3;
	j2.user = (char *)"bob";
	j2.queue = (char *)"low";
	j2.action = (char *)"preempt-suspend";
	j2.consumer = j2.for_consumer = (char *)"";
	consumers_preview_format(out, 1767632400, rows, 2, jobs, 2);
	ck_assert_str_eq(out->str,
	    "Resource plans at Mon Jan  5 17:00:00\n"
	    "RESOURCE_GROUP CONSUMER             WINDOW           QUOTA_NOW  QUOTA  ALLOC  OVER\n"
	    "rg1            /a                   17:00-23:49              6      2      6     4\n"
	    "rg1            /b                   -                        2      6      2     0\n"
	    "\n"
	    "JOBID        USER       QUEUE      CONSUMER       ACTION             FOR            SLOTS  GRACE DEADLINE\n"
	    "5            alice      qa         /a             reclaim-notice     /b                 1     30 Mon Jan  5 17:00:30\n"
	    "7[3]         bob        low        -              preempt-suspend    -                  -      - -\n");
}
END_TEST

START_TEST(test_no_job)
{
	g_autoptr(GString) out = g_string_new(NULL);
	Basalt__ConsumerInfo a = row("/a", "", 4, 4, 3);
	Basalt__ConsumerInfo *rows[] = { &a };

	consumers_preview_format(out, 1767632400, rows, 1, NULL, 0);
	ck_assert(g_str_has_suffix(out->str,
	    "rg1            /a                   -                        4      4      3     0\n"
	    "\nNo running job would be reclaimed or preempted\n"));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("consumers_preview");
	TCase *tc = tcase_create("format");

	setenv("TZ", "UTC", 1);
	tzset();
	tcase_add_test(tc, test_quotas_and_jobs);
	tcase_add_test(tc, test_no_job);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
