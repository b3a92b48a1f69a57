/*
 * Checkpoints and rotation: loading checkpoint + tail gives the same event
 * stream as replaying everything; a checkpoint is used only when whole (a
 * leftover temp file or a torn checkpoint falls back to the previous one);
 * retention never deletes what recovery needs.
 *
 * The "state" here is the simplest one: the list of events so far, so a
 * checkpoint at seq N is events 1..N and the expected stream is easy to state.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "journal-fixture.h"
#include "tap.h"
#include "journal/checkpoint.h"
#include "journal/evlog.h"
#include "journal/format.h"
#include "journal/readback.h"

#define TOTAL 300

static char *dir;
static BsJournalReport rep;
static GPtrArray *got;
static GPtrArray *expect;       /* packed events 1..TOTAL */
static GPtrArray *ckpt_seqs;    /* guint64 seqs of the checkpoints written */

static void
setup(void)
{
	dir = jt_new_dir();
	bs_journal_report_init(&rep);
	got = jt_stream_new();
	expect = jt_stream_new();
	ckpt_seqs = g_ptr_array_new();
}

static void
teardown(void)
{
	bs_journal_report_clear(&rep);
	g_ptr_array_unref(got);
	g_ptr_array_unref(expect);
	g_ptr_array_unref(ckpt_seqs);
	g_free(dir);
}

/* Checkpoint "state" at seq: events 1..seq, unpacked. */
static GPtrArray *
state_events(guint64 seq)
{
	GPtrArray *evs = g_ptr_array_new_with_free_func((GDestroyNotify)jt_free);

	for (guint64 i = 0; i < seq; i++) {
		GBytes *b = expect->pdata[i];

		g_ptr_array_add(evs, basalt__event__unpack(NULL, g_bytes_get_size(b),
		    g_bytes_get_data(b, NULL)));
	}
	return evs;
}

/*
 * Writes TOTAL events, syncing every 7; past segment_size the daemon's
 * rotation sequence runs: checkpoint at the synced seq, then rotate.
 */
static void
make_rotating_journal(guint64 segment_size)
{
	BsEvlogOptions o;
	GError *err = NULL;
	BsEvlog *log;

	bs_evlog_options_init(&o);
	o.sync_mode = BS_EVLOG_SYNC_NONE;
	o.segment_size = segment_size;
	log = bs_evlog_open(dir, &o, &err);
	ck_assert_ptr_nonnull(log);
	for (guint64 s = 1; s <= TOTAL; s += 7) {
		jt_append(log, s, MIN(s + 6, TOTAL), 7, expect);
		if (bs_evlog_should_rotate(log)) {
			guint64 at = bs_evlog_synced_seq(log);
			GPtrArray *evs = state_events(at);

			ck_assert_msg(bs_checkpoint_write(dir, at, evs, &err), "%s",
			    err ? err->message : "");
			g_ptr_array_unref(evs);
			g_ptr_array_add(ckpt_seqs, GSIZE_TO_POINTER((gsize)at));
			ck_assert(bs_evlog_rotate(log, &err));
		}
	}
	bs_evlog_free(log);
}

static void
load_ok(void)
{
	GError *err = NULL;

	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	g_ptr_array_set_size(got, 0);
	ck_assert_msg(bs_journal_load(dir, 0, jt_collect, got, &rep, &err),
	    "load: %s", err ? err->message : "");
}

static guint64
ckpt_seq(int i)
{
	return (guint64)GPOINTER_TO_SIZE(g_ptr_array_index(ckpt_seqs,
	    i < 0 ? (int)ckpt_seqs->len + i : i));
}

START_TEST(test_checkpoint_roundtrip)
{
	GPtrArray *evs;
	GError *err = NULL;
	g_autofree char *path = NULL;
	guint64 seq = 0, n = 0;
	gboolean fatal;

	for (guint64 s = 1; s <= 30; s++) {
		Basalt__Event *ev = jt_event((guint)(s % JT_KINDS), s);

		g_ptr_array_add(expect, jt_pack(ev));
		jt_free(ev);
	}
	evs = state_events(30);
	ck_assert(bs_checkpoint_write(dir, 30, evs, &err));
	path = g_strdup_printf("%s/snapshot.%020d", dir, 30);
	ck_assert(bs_checkpoint_verify(path, &seq, &n, &fatal, &err));
	ck_assert_uint_eq(seq, 30);
	ck_assert_uint_eq(n, 30);
	ck_assert(bs_checkpoint_load(path, jt_collect, got, &seq, &n, &fatal, &err));
	ck_assert(jt_stream_equal(got, expect));
	g_ptr_array_unref(evs);
}
END_TEST

START_TEST(test_rotation_gives_the_same_stream)
{
	make_rotating_journal(2048);
	ck_assert_uint_ge(ckpt_seqs->len, 3);
	ck_assert_uint_ge(jt_count_segments(dir), 4);
	load_ok();
	ck_assert_uint_eq(rep.checkpoint_seq, ckpt_seq(-1));
	ck_assert_uint_eq(rep.checkpoint_events, ckpt_seq(-1));
	ck_assert_uint_eq(rep.records, TOTAL - ckpt_seq(-1));
	ck_assert(jt_stream_equal(got, expect));
}
END_TEST

START_TEST(test_history_spans_rotations)
{
	GError *err = NULL;
	BsJournalReader *rd;
	Basalt__Event *ev;
	guint64 n = 0;

	make_rotating_journal(2048);
	rd = bs_journal_reader_open(dir, 0, &err);
	while (bs_journal_reader_next(rd, &ev, &err)) {
		ck_assert_uint_eq(ev->seq, ++n);
		basalt__event__free_unpacked(ev, NULL);
	}
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(n, TOTAL);
	bs_journal_reader_free(rd);
}
END_TEST

START_TEST(test_leftover_temp_file_is_ignored)
{
	g_autofree char *tmp = NULL;
	GError *err = NULL;
	guint deleted = 0;

	make_rotating_journal(2048);
	tmp = g_strdup_printf("%s/snapshot.%020d.tmp", dir, TOTAL);
	ck_assert(g_file_set_contents(tmp, "half a checkpoint", -1, NULL));
	load_ok();
	ck_assert_uint_eq(rep.checkpoint_seq, ckpt_seq(-1));
	ck_assert(jt_stream_equal(got, expect));
	ck_assert(bs_journal_prune(dir, 1000, &deleted, &err));
	ck_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));
}
END_TEST

static void
damaged_newest_falls_back(gboolean torn)
{
	g_autofree char *newest = NULL;

	make_rotating_journal(2048);
	newest = g_strdup_printf("%s/snapshot.%020" G_GUINT64_FORMAT, dir,
	    ckpt_seq(-1));
	if (torn)
		jt_truncate(newest, jt_file_size(newest) - 10);
	else
		jt_flip_byte(newest, jt_file_size(newest) / 2);
	load_ok();
	ck_assert_uint_eq(rep.checkpoint_seq, ckpt_seq(-2));
	ck_assert_uint_eq(rep.problems->len, 1);
	ck_assert_ptr_nonnull(strstr(rep.problems->pdata[0], newest));
	ck_assert(jt_stream_equal(got, expect));
}

START_TEST(test_torn_checkpoint_falls_back)
{
	damaged_newest_falls_back(TRUE);
}
END_TEST

START_TEST(test_flipped_checkpoint_falls_back)
{
	damaged_newest_falls_back(FALSE);
}
END_TEST

START_TEST(test_newer_checkpoint_is_refused)
{
	g_autofree char *newest = NULL;
	guint8 v9[4] = { 9, 0, 0, 0 };
	GError *err = NULL;

	make_rotating_journal(2048);
	newest = g_strdup_printf("%s/snapshot.%020" G_GUINT64_FORMAT, dir,
	    ckpt_seq(-1));
	jt_write_at(newest, 8, v9, sizeof v9);
	ck_assert(!bs_journal_load(dir, 0, jt_collect, got, &rep, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "version 9"));
	g_clear_error(&err);
}
END_TEST

/* A checkpoint of format version 1 (each job with its environment) from
 * an older mbatchd still loads. */
START_TEST(test_version_1_checkpoint_loads)
{
	g_autofree char *newest = NULL;
	guint8 hdr[BS_EVLOG_HEADER_SIZE];
	BsLogHeader h = { 1, BS_KIND_CHECKPOINT, 0, 0, 0 };

	make_rotating_journal(2048);
	h.first_seq = ckpt_seq(-1);
	newest = g_strdup_printf("%s/snapshot.%020" G_GUINT64_FORMAT, dir,
	    h.first_seq);
	bs_header_encode(&h, hdr);
	jt_write_at(newest, 0, hdr, sizeof hdr);
	load_ok();
	ck_assert_uint_eq(rep.checkpoint_seq, h.first_seq);
	ck_assert(jt_stream_equal(got, expect));
}
END_TEST

START_TEST(test_prune_keeps_what_recovery_needs)
{
	GError *err = NULL;
	guint deleted = 0;
	guint before;
	BsJournalReader *rd;
	Basalt__Event *ev;

	make_rotating_journal(2048);
	before = jt_count_segments(dir);
	ck_assert(bs_journal_prune(dir, 1, &deleted, &err));
	ck_assert_uint_gt(deleted, 0);
	ck_assert_uint_lt(jt_count_segments(dir), before);
	/* Recovery still works, even from the older kept checkpoint. */
	load_ok();
	ck_assert(jt_stream_equal(got, expect));
	{
		g_autofree char *newest = g_strdup_printf("%s/snapshot.%020"
		    G_GUINT64_FORMAT, dir, ckpt_seq(-1));

		jt_truncate(newest, 100);
	}
	load_ok();
	ck_assert_uint_eq(rep.checkpoint_seq, ckpt_seq(-2));
	ck_assert(jt_stream_equal(got, expect));
	/* History now starts later. */
	rd = bs_journal_reader_open(dir, 0, &err);
	ck_assert(bs_journal_reader_next(rd, &ev, &err));
	ck_assert_uint_gt(ev->seq, 1);
	ck_assert_uint_le(ev->seq, ckpt_seq(-2) + 1);
	basalt__event__free_unpacked(ev, NULL);
	bs_journal_reader_free(rd);
}
END_TEST

START_TEST(test_checkpoint_without_segments)
{
	GError *err = NULL;
	GPtrArray *evs;
	BsEvlog *log;
	BsEvlogOptions o;

	for (guint64 s = 1; s <= 20; s++) {
		Basalt__Event *ev = jt_event((guint)(s % JT_KINDS), s);

		g_ptr_array_add(expect, jt_pack(ev));
		jt_free(ev);
	}
	evs = state_events(20);
	ck_assert(bs_checkpoint_write(dir, 20, evs, &err));
	g_ptr_array_unref(evs);
	bs_evlog_options_init(&o);
	o.sync_mode = BS_EVLOG_SYNC_NONE;
	log = bs_evlog_open(dir, &o, &err);
	ck_assert_uint_eq(bs_evlog_next_seq(log), 21);
	jt_append(log, 21, 25, 2, expect);
	bs_evlog_free(log);
	load_ok();
	ck_assert_uint_eq(rep.checkpoint_seq, 20);
	ck_assert(jt_stream_equal(got, expect));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("checkpoint");
	TCase *tc = tcase_create("checkpoint");
	int rc;

	jt_suite_setup();
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_checkpoint_roundtrip);
	tcase_add_test(tc, test_rotation_gives_the_same_stream);
	tcase_add_test(tc, test_history_spans_rotations);
	tcase_add_test(tc, test_leftover_temp_file_is_ignored);
	tcase_add_test(tc, test_torn_checkpoint_falls_back);
	tcase_add_test(tc, test_flipped_checkpoint_falls_back);
	tcase_add_test(tc, test_newer_checkpoint_is_refused);
	tcase_add_test(tc, test_version_1_checkpoint_loads);
	tcase_add_test(tc, test_prune_keeps_what_recovery_needs);
	tcase_add_test(tc, test_checkpoint_without_segments);
	suite_add_tcase(s, tc);
	rc = bs_run_suite(s);
	jt_suite_teardown();
	return rc;
}
