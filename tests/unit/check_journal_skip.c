/*
 * A replay that passes over the records of jobs cleaned later in the
 * journal (lib/journal/skip.h): the wire-format peek reads what unpacking
 * reads; exactly the records of jobs gone by the end are passed over, and
 * not those of a job in a group, of an array with an element left, of a
 * job cleaned past the horizon or in a torn tail; a move or a requeue to
 * the head anywhere passes nothing over; the caller is told of each
 * record passed over, with a submission's job id and queue.
 */
#include "config.h"

#include <string.h>

#include "journal-fixture.h"
#include "tap.h"
#include "journal/evlog.h"
#include "journal/readback.h"

static char *dir;
static BsJournalReport rep;
static GArray *fed;             /* guint64 seqs fed */
static GArray *skipped;         /* guint64 seqs passed over */
static GString *news;           /* "id:queue " of each submission passed over */
static guint64 horizon;
static guint horizon_asked;

static void
setup(void)
{
	dir = jt_new_dir();
	bs_journal_report_init(&rep);
	fed = g_array_new(FALSE, FALSE, sizeof(guint64));
	skipped = g_array_new(FALSE, FALSE, sizeof(guint64));
	news = g_string_new(NULL);
	horizon = G_MAXUINT64;
	horizon_asked = 0;
}

static void
teardown(void)
{
	bs_journal_report_clear(&rep);
	g_array_unref(fed);
	g_array_unref(skipped);
	g_string_free(news, TRUE);
	g_free(dir);
}

static void
on_event(const Basalt__Event *ev, void *data)
{
	(void)data;
	g_array_append_val(fed, ev->seq);
}

static guint64
on_horizon(void *data)
{
	(void)data;
	horizon_asked++;
	return horizon;
}

static void
on_skipped(const BsRecPeek *pk, const char *queue, void *data)
{
	(void)data;
	g_array_append_val(skipped, pk->seq);
	if (pk->body == BASALT__EVENT__BODY_JOB_NEW)
		g_string_append_printf(news, "%" G_GUINT64_FORMAT ":%s ", pk->job_id,
		    queue != NULL ? queue : "(null)");
}

static const BsJournalSkip skip = { on_horizon, on_skipped };

/* "1 2 5" from a seq array. */
static char *
seqs(GArray *a)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < a->len; i++)
		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i > 0 ? " " : "",
		    g_array_index(a, guint64, i));
	return g_string_free(s, FALSE);
}

static void
load(void)
{
	GError *err = NULL;

	if (!bs_journal_load_skip(dir, 0, on_event, &skip, NULL, &rep, &err))
		ck_abort_msg("load: %s", err->message);
}

static void
expect(const char *want_fed, const char *want_skipped)
{
	g_autofree char *f = seqs(fed);
	g_autofree char *s = seqs(skipped);

	ck_assert_str_eq(f, want_fed);
	ck_assert_str_eq(s, want_skipped);
	ck_assert_uint_eq(rep.records, fed->len + skipped->len);
	ck_assert_uint_eq(rep.skipped, skipped->len);
}

/* ---- events ---- */

static guint64 next_seq;

static void
put(BsEvlog *log, Basalt__Event *ev)
{
	GError *err = NULL;

	ev->seq = next_seq++;
	ev->time = 1000 + (gint64)ev->seq;
	ck_assert(bs_evlog_append(log, ev, &err));
	ck_assert(bs_evlog_sync(log, &err));
}

static void
job_new(BsEvlog *log, guint64 id, const char *queue, guint n_idx,
    const char *group)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew n = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	char *env[] = { "HOME=/root", "PATH=/bin" };
	guint32 idx[8];

	for (guint i = 0; i < n_idx; i++)
		idx[i] = i + 1;
	spec.command = "true";
	spec.env = env;
	spec.n_env = 2;
	spec.job_group = (char *)group;
	n.job_id = id;
	n.spec = &spec;
	n.user = "root";
	n.queue = (char *)queue;
	n.array_indexes = idx;
	n.n_array_indexes = n_idx;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &n;
	put(log, &ev);
}

static void
job_done(BsEvlog *log, guint64 id, guint32 index)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;

	s.job_id = id;
	s.array_index = index;
	s.state = BASALT__JOB_STATE__JOB_STATE_DONE;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &s;
	put(log, &ev);
}

static void
job_clean(BsEvlog *log, guint64 id, guint32 index)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobClean c = BASALT__EV_JOB_CLEAN__INIT;

	c.job_id = id;
	c.array_index = index;
	ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
	ev.job_clean = &c;
	put(log, &ev);
}

/*
 * 1-18: job 1 (queue a) and array 2 (b, two elements) cleaned; job 3 in
 * group /g cleaned; job 4 live; array 5 with one element cleaned; job 6
 * (d), the last id, cleaned last.
 */
static BsEvlog *
history(void)
{
	BsEvlogOptions o;
	GError *err = NULL;
	BsEvlog *log;

	bs_evlog_options_init(&o);
	o.sync_mode = BS_EVLOG_SYNC_NONE;
	log = bs_evlog_open(dir, &o, &err);
	ck_assert_ptr_nonnull(log);
	next_seq = 1;
	job_new(log, 1, "a", 0, NULL);          /* 1 */
	job_new(log, 2, "b", 2, NULL);          /* 2 */
	job_new(log, 3, "a", 0, "/g");          /* 3 */
	job_new(log, 4, "a", 0, NULL);          /* 4 */
	job_done(log, 1, 0);                    /* 5 */
	job_clean(log, 1, 0);                   /* 6 */
	job_done(log, 2, 1);                    /* 7 */
	job_clean(log, 2, 1);                   /* 8 */
	job_done(log, 3, 0);                    /* 9 */
	job_clean(log, 3, 0);                   /* 10 */
	job_done(log, 2, 2);                    /* 11 */
	job_new(log, 5, "c", 2, NULL);          /* 12 */
	job_done(log, 5, 1);                    /* 13 */
	job_clean(log, 5, 1);                   /* 14 */
	job_clean(log, 2, 2);                   /* 15 */
	job_new(log, 6, "d", 0, NULL);          /* 16 */
	job_done(log, 6, 0);                    /* 17 */
	job_clean(log, 6, 0);                   /* 18 */
	return log;
}

START_TEST(test_peek_reads_what_unpacking_reads)
{
	for (guint k = 0; k < JT_KINDS; k++) {
		Basalt__Event *ev = jt_event(k, 40 + k);
		GBytes *b = jt_pack(ev);
		BsRecPeek pk;

		ck_assert(bs_rec_peek(g_bytes_get_data(b, NULL),
		    (guint32)g_bytes_get_size(b), &pk));
		ck_assert_uint_eq(pk.seq, 40 + k);
		ck_assert_uint_eq(pk.body, ev->body_case);
		if (ev->body_case == BASALT__EVENT__BODY_JOB_NEW)
			ck_assert_uint_eq(pk.job_id, ev->job_new->job_id);
		if (ev->body_case == BASALT__EVENT__BODY_JOB_CLEAN)
			ck_assert_uint_eq(pk.job_id, ev->job_clean->job_id);
		g_bytes_unref(b);
		jt_free(ev);
	}
	/* Not an event: a truncated varint, a length past the end. */
	{
		const guint8 bad1[] = { 0x08, 0x80 };
		const guint8 bad2[] = { 0x08, 0x01, 0x52, 0x10, 0x08 };
		BsRecPeek pk;

		ck_assert(!bs_rec_peek(bad1, sizeof bad1, &pk));
		ck_assert(!bs_rec_peek(bad2, sizeof bad2, &pk));
	}
}
END_TEST

START_TEST(test_cleaned_jobs_are_passed_over)
{
	bs_evlog_free(history());
	load();
	/* Kept: the grouped job 3 (bsub -g makes its group), live job 4,
	 * array 5 (an element is left). */
	expect("3 4 9 10 12 13 14", "1 2 5 6 7 8 11 15 16 17 18");
	ck_assert_str_eq(news->str, "1:a 2:b 6:d ");
	ck_assert_uint_eq(rep.last_seq, 18);
	ck_assert_uint_eq(horizon_asked, 1);
}
END_TEST

/* No job is cleaned: the caller is not asked for its horizon (it may
 * walk every pending job to answer). */
START_TEST(test_no_clean_asks_nothing)
{
	BsEvlogOptions o;
	GError *err = NULL;
	BsEvlog *log;

	bs_evlog_options_init(&o);
	o.sync_mode = BS_EVLOG_SYNC_NONE;
	log = bs_evlog_open(dir, &o, &err);
	ck_assert_ptr_nonnull(log);
	next_seq = 1;
	job_new(log, 1, "a", 0, NULL);
	job_done(log, 1, 0);
	job_new(log, 2, "a", 3, NULL);
	bs_evlog_free(log);
	load();
	expect("1 2 3", "");
	ck_assert_uint_eq(horizon_asked, 0);
}
END_TEST

START_TEST(test_nothing_past_the_horizon)
{
	bs_evlog_free(history());
	horizon = 15;
	load();
	/* Job 6 is cleaned at 18, past it: replayed whole. */
	expect("3 4 9 10 12 13 14 16 17 18", "1 2 5 6 7 8 11 15");
	horizon = 0;
	g_array_set_size(fed, 0);
	g_array_set_size(skipped, 0);
	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	load();
	expect("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", "");
}
END_TEST

static void
append_then_load(Basalt__Event__BodyCase body)
{
	BsEvlog *log = history();
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobMove mv = BASALT__EV_JOB_MOVE__INIT;
	Basalt__EvJobRequeue rq = BASALT__EV_JOB_REQUEUE__INIT;

	mv.job_id = 4;
	mv.position = 1;
	rq.job_id = 4;
	rq.to_head = TRUE;
	ev.body_case = body;
	if (body == BASALT__EVENT__BODY_JOB_MOVE)
		ev.job_move = &mv;
	else
		ev.job_requeue = &rq;
	put(log, &ev);
	bs_evlog_free(log);
	load();
	expect("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", "");
}

START_TEST(test_a_move_passes_nothing_over)
{
	append_then_load(BASALT__EVENT__BODY_JOB_MOVE);
}
END_TEST

START_TEST(test_a_requeue_to_the_head_passes_nothing_over)
{
	append_then_load(BASALT__EVENT__BODY_JOB_REQUEUE);
}
END_TEST

/* The clean of job 6 is in the torn tail: recovery cuts it, and job 6
 * is live, so its records are replayed. */
START_TEST(test_a_clean_in_the_torn_tail_does_not_count)
{
	g_autofree char *seg = NULL;
	GArray *offs;

	bs_evlog_free(history());
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	ck_assert_uint_eq(offs->len, 18);
	jt_truncate(seg, g_array_index(offs, guint64, 17) + 5);
	g_array_unref(offs);
	load();
	ck_assert_uint_gt(rep.dropped_bytes, 0);
	expect("3 4 9 10 12 13 14 16 17", "1 2 5 6 7 8 11 15");
}
END_TEST

/* Damage in the middle: the first pass stops before it, and the replay
 * checks every record from there, so it fails as a replay of every
 * record does, with the same file and offset. */
START_TEST(test_damage_fails_as_without_the_skip)
{
	g_autofree char *seg = NULL;
	GError *e1 = NULL, *e2 = NULL;
	GArray *offs;
	BsJournalReport r2;

	bs_evlog_free(history());
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	jt_flip_byte(seg, g_array_index(offs, guint64, 9) + 12);
	g_array_unref(offs);
	ck_assert(!bs_journal_load_skip(dir, 0, on_event, &skip, NULL, &rep,
	    &e1));
	bs_journal_report_init(&r2);
	ck_assert(!bs_journal_load(dir, 0, on_event, NULL, &r2, &e2));
	ck_assert_str_eq(e1->message, e2->message);
	ck_assert_ptr_nonnull(strstr(e1->message, "checksum"));
	bs_journal_report_clear(&r2);
	g_error_free(e1);
	g_error_free(e2);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("journal_skip");
	TCase *tc = tcase_create("journal_skip");
	int rc;

	jt_suite_setup();
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_peek_reads_what_unpacking_reads);
	tcase_add_test(tc, test_cleaned_jobs_are_passed_over);
	tcase_add_test(tc, test_no_clean_asks_nothing);
	tcase_add_test(tc, test_nothing_past_the_horizon);
	tcase_add_test(tc, test_a_move_passes_nothing_over);
	tcase_add_test(tc, test_a_requeue_to_the_head_passes_nothing_over);
	tcase_add_test(tc, test_a_clean_in_the_torn_tail_does_not_count);
	tcase_add_test(tc, test_damage_fails_as_without_the_skip);
	suite_add_tcase(s, tc);
	rc = bs_run_suite(s);
	jt_suite_teardown();
	return rc;
}
