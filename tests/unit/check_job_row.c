/*
 * mbatchd/svc/job-row.c packs the fields of a masked JobInfo by hand: its
 * bytes must be protobuf-c's for the same JobInfo, for every kind of
 * value (zero, small, multi-byte and negative numbers, empty and long
 * strings, empty exec_hosts entries), and unpack to the same fields.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/svc/job-row.h"
#include "tap.h"

static const guint64 ids[] = { 0, 1, 127, 128, 16383, 16384,
	G_MAXUINT32, (guint64)1 << 56, G_MAXUINT64 };
static const gint64 times[] = { 0, 1, 1700000000, -1, G_MININT64, G_MAXINT64 };

static char *
text(guint n)
{
	return n == 0 ? g_strdup("") : g_strnfill(n == 3 ? 200 : n, 'a' + (char)n);
}

static void
same_as_protobuf(const Basalt__JobInfo *j)
{
	gsize want = basalt__job_info__get_packed_size(j);
	g_autofree guint8 *a = g_malloc(want + 1);
	g_autofree guint8 *b = g_malloc(want + 1);
	Basalt__JobInfo *u;

	ck_assert_uint_eq(svc_job_row_size(j), want);
	basalt__job_info__pack(j, a);
	svc_job_row_pack(j, b);
	ck_assert_mem_eq(a, b, want);
	u = basalt__job_info__unpack(NULL, want, b);
	ck_assert_ptr_nonnull(u);
	ck_assert_uint_eq(u->job_id, j->job_id);
	ck_assert_int_eq(u->submit_time, j->submit_time);
	ck_assert_uint_eq(u->n_exec_hosts, j->n_exec_hosts);
	basalt__job_info__free_unpacked(u, NULL);
}

START_TEST(test_rows_match_protobuf)
{
	char *hosts[] = { (char *)"vh1", (char *)"", (char *)"vh1", NULL };
	guint k = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(ids); i++)
		for (gsize t = 0; t < G_N_ELEMENTS(times); t++)
			for (guint s = 0; s < 4; s++, k++) {
				Basalt__JobInfo j = BASALT__JOB_INFO__INIT;
				g_autofree char *str = text(s);

				j.job_id = ids[i];
				j.array_index = (guint32)ids[(i + k) % G_N_ELEMENTS(ids)];
				j.user = str;
				j.state = (Basalt__JobState)(k % 9);
				j.queue = k % 2 ? str : (char *)"normal";
				j.from_host = k % 3 ? (char *)"" : str;
				j.exec_hosts = hosts;
				j.n_exec_hosts = k % 4;
				j.job_name = k % 5 ? str : (char *)"q[1-10]";
				j.submit_time = times[t];
				j.pending_reason = k % 2 ? str : NULL;
				j.suspend_reason = k % 3 ? NULL : str;
				same_as_protobuf(&j);
			}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("job_row");
	TCase *tc = tcase_create("pack");

	tcase_add_test(tc, test_rows_match_protobuf);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
