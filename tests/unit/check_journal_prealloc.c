/*
 * Preallocated segments: the writer keeps zeros ahead of its records, a
 * record head of zeros ends them, a finished segment is cut back to its
 * records, and recovery tells the write a crash interrupted (cut, at every
 * offset of the last records, and with any one block of the last write
 * left unwritten) from damage (kept, and refused).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "journal-fixture.h"
#include "tap.h"
#include "journal/evlog.h"
#include "journal/format.h"
#include "journal/readback.h"

#define N_FIRST 20      /* records durable before the last write */
#define N_LAST 80       /* records of the last write, one sync */
#define PREALLOC (64u << 10)

static guint last_two_size;   /* bytes of the last two records */
static char *dir;
static BsEvlogOptions opts;
static BsJournalReport rep;
static GPtrArray *got;

static void
setup(void)
{
	dir = jt_new_dir();
	bs_evlog_options_init(&opts);
	opts.sync_mode = BS_EVLOG_SYNC_NONE;
	opts.prealloc_size = PREALLOC;
	bs_journal_report_init(&rep);
	got = jt_stream_new();
}

static void
teardown(void)
{
	bs_journal_report_clear(&rep);
	g_ptr_array_unref(got);
	g_free(dir);
}

static gboolean
load(GError **err)
{
	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	g_ptr_array_set_size(got, 0);
	return bs_journal_load(dir, 0, jt_collect, got, &rep, err);
}

static void
load_ok(guint n_expected)
{
	GError *err = NULL;

	ck_assert_msg(load(&err), "load: %s", err ? err->message : "");
	ck_assert_uint_eq(got->len, n_expected);
}

static BsEvlog *
open_log(void)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &opts, &err);

	ck_assert_msg(log != NULL, "open: %s", err ? err->message : "");
	return log;
}

static void
preallocate(BsEvlog *log)
{
	GError *err = NULL;

	ck_assert_msg(bs_evlog_preallocate(log, &err), "%s",
	    err ? err->message : "");
}

/*
 * N_FIRST records synced in batches, zeros ahead, then the last write of
 * N_LAST records in one sync over the zeros.  *offs: every record's start,
 * with the end of the records appended.
 */
static GArray *
make_journal(GPtrArray *expect)
{
	BsEvlog *log = open_log();
	g_autofree char *seg = NULL;
	GArray *offs;
	guint64 end;
	guint32 n;
	guint8 head[4];
	FILE *f;

	jt_append(log, 1, N_FIRST, 4, expect);
	preallocate(log);
	jt_append(log, N_FIRST + 1, N_FIRST + N_LAST, N_LAST, expect);
	bs_evlog_free(log);
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	ck_assert_uint_eq(offs->len, N_FIRST + N_LAST);
	end = g_array_index(offs, guint64, offs->len - 1);
	f = fopen(seg, "rb");
	ck_assert(f != NULL && fseek(f, (long)end, SEEK_SET) == 0 &&
	    fread(head, 1, 4, f) == 4);
	fclose(f);
	n = bs_get32(head);
	end += BS_EVLOG_RECORD_HEAD + n;
	g_array_append_val(offs, end);
	/* The last write went over zeros: the file did not grow. */
	ck_assert_uint_gt(jt_file_size(seg), end + 1024);
	return offs;
}

/* Zeros over [from, to) of the newest segment: blocks a crash left unwritten. */
static void
unwrite(const char *seg, guint64 from, guint64 to)
{
	g_autofree guint8 *zeros = g_malloc0(to - from);

	jt_write_at(seg, from, zeros, to - from);
}

/* After a recovery the journal takes new records where the old ones end. */
static void
appends_after(guint n_before)
{
	BsEvlog *log = open_log();

	ck_assert_uint_eq(bs_evlog_next_seq(log), n_before + 1);
	jt_append(log, n_before + 1, n_before + 5, 2, NULL);
	preallocate(log);
	bs_evlog_free(log);
	load_ok(n_before + 5);
	ck_assert_uint_eq(rep.dropped_bytes, 0);
}

START_TEST(test_zeros_ahead_end_the_records)
{
	GPtrArray *expect = jt_stream_new();
	GArray *offs = make_journal(expect);
	g_autofree char *seg = jt_segment(dir, -1);
	guint64 end = g_array_index(offs, guint64, offs->len - 1);
	guint64 size = jt_file_size(seg);
	GError *err = NULL;
	BsEvlog *log;

	/* Zeros, block-aligned, at least half the space ahead. */
	ck_assert_uint_eq(size % BS_EVLOG_BLOCK, 0);
	ck_assert_uint_ge(size - end, PREALLOC / 2);
	load_ok(N_FIRST + N_LAST);
	ck_assert(jt_stream_equal(got, expect));
	ck_assert_uint_eq(rep.dropped_bytes, 0);
	ck_assert_uint_eq(jt_file_size(seg), size);
	ck_assert_uint_eq(rep.problems->len, 0);
	/* check: nothing to say either. */
	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	ck_assert_msg(bs_journal_check(dir, &rep, &err), "%s",
	    err ? err->message : "");
	ck_assert_uint_eq(rep.problems->len, 0);
	/* salvage: nothing to salvage, nothing lost. */
	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	g_ptr_array_set_size(got, 0);
	ck_assert_msg(bs_journal_load(dir, BS_JOURNAL_LOAD_SALVAGE, jt_collect,
	    got, &rep, &err), "%s", err ? err->message : "");
	ck_assert(jt_stream_equal(got, expect));
	ck_assert_uint_eq(rep.dropped_bytes, 0);
	appends_after(N_FIRST + N_LAST);
	/* A finished segment ends at its last record. */
	log = open_log();
	jt_append(log, N_FIRST + N_LAST + 6, N_FIRST + N_LAST + 8, 1, NULL);
	ck_assert(bs_evlog_rotate(log, &err));
	bs_evlog_free(log);
	ck_assert_uint_eq(jt_count_segments(dir), 2);
	g_array_unref(offs);
	offs = jt_record_offsets(seg);
	ck_assert_uint_eq(offs->len, N_FIRST + N_LAST + 8);
	load_ok(N_FIRST + N_LAST + 8);
	g_array_unref(offs);
	g_ptr_array_unref(expect);
}
END_TEST

/*
 * A crash at every offset of the last two records: what the write had put
 * down is there, the rest of the space is still zeros.  Whole records
 * survive (nothing to cut when the write stopped between two), a partial
 * one is cut, and the journal goes on from there.
 */
START_TEST(test_crash_at_every_offset_of_last_records)
{
	GArray *offs = make_journal(NULL);
	g_autofree char *seg = jt_segment(dir, -1);
	guint n = offs->len - 1;
	guint64 a = g_array_index(offs, guint64, n - 2);
	guint64 b = g_array_index(offs, guint64, n - 1);
	guint64 end = g_array_index(offs, guint64, n);
	guint64 at = a + (guint64)_i;
	guint whole = at < b ? n - 2 : n - 1;
	guint64 cut_to = at < b ? a : b;
	g_autofree gchar *data = NULL;
	gboolean clean;

	ck_assert_uint_eq(end - a, last_two_size);
	unwrite(seg, at, end);
	/* Nothing to cut if what the write put down of the record is zeros
	 * (a length whose low byte is 0, say). */
	ck_assert(g_file_get_contents(seg, &data, NULL, NULL));
	clean = bs_all_zero((const guint8 *)data + cut_to, at - cut_to);
	load_ok(whole);
	if (clean) {
		ck_assert_uint_eq(rep.dropped_bytes, 0);
	} else {
		/* What the write put down, not the zeros after it. */
		ck_assert_uint_gt(rep.dropped_bytes, 0);
		ck_assert_uint_le(rep.dropped_bytes, at - cut_to + BS_EVLOG_BLOCK);
		ck_assert_uint_eq(jt_file_size(seg), cut_to);
	}
	/* A second start finds nothing more to cut. */
	load_ok(whole);
	ck_assert_uint_eq(rep.dropped_bytes, 0);
	appends_after(whole);
	g_array_unref(offs);
}
END_TEST

/*
 * The blocks of the last write reach the disk in any order: one of them
 * left unwritten, later ones written.  Nothing from that block on was
 * acknowledged, so it is cut there, with the records before it kept.
 */
START_TEST(test_unwritten_block_inside_the_last_write)
{
	GArray *offs = make_journal(NULL);
	g_autofree char *seg = jt_segment(dir, -1);
	guint64 start = g_array_index(offs, guint64, N_FIRST);
	guint64 end = g_array_index(offs, guint64, offs->len - 1);
	guint64 blk = start - start % BS_EVLOG_BLOCK + BS_EVLOG_BLOCK *
	    (guint64)_i;
	guint64 from = MAX(blk, start);
	guint keep = N_FIRST;

	ck_assert_uint_gt(end - start, 3 * BS_EVLOG_BLOCK);
	if (from >= end)
		goto out;
	while (keep + 1 < offs->len &&
	    g_array_index(offs, guint64, keep + 1) <= from)
		keep++;
	unwrite(seg, from, MIN(blk + BS_EVLOG_BLOCK, end));
	load_ok(keep);
	if (g_array_index(offs, guint64, keep) != from ||
	    from + BS_EVLOG_BLOCK < end)
		ck_assert_uint_eq(jt_file_size(seg),
		    g_array_index(offs, guint64, keep));
	appends_after(keep);
out:
	g_array_unref(offs);
}
END_TEST

/*
 * Zeros that no crash leaves: a record head zeroed inside a block whose
 * other bytes are written, with valid records after it.  That is damage:
 * recovery stops and cuts nothing.
 */
START_TEST(test_zeroed_head_inside_a_written_block_is_damage)
{
	GArray *offs = make_journal(NULL);
	g_autofree char *seg = jt_segment(dir, -1);
	guint64 size = jt_file_size(seg);
	guint64 at = 0;
	GError *err = NULL;

	/* A record whose head lies inside a block, not at its end. */
	for (guint i = 2; i < N_FIRST && at == 0; i++) {
		guint64 o = g_array_index(offs, guint64, i);

		if (o % BS_EVLOG_BLOCK + BS_EVLOG_RECORD_HEAD < BS_EVLOG_BLOCK)
			at = o;
	}
	ck_assert_uint_ne(at, 0);
	unwrite(seg, at, at + BS_EVLOG_RECORD_HEAD);
	ck_assert(!load(&err));
	ck_assert_msg(strstr(err->message, "data after zeroed space") != NULL,
	    "%s", err->message);
	g_clear_error(&err);
	ck_assert_uint_eq(jt_file_size(seg), size);
	g_array_unref(offs);
}
END_TEST

/* A zero head in a segment that is not the newest, data after it: damage. */
START_TEST(test_data_after_zeros_in_an_older_segment_is_damage)
{
	GArray *offs = make_journal(NULL);
	g_autofree char *old = jt_segment(dir, -1);
	BsEvlog *log = open_log();
	GError *err = NULL;
	guint64 at = g_array_index(offs, guint64, N_FIRST);

	ck_assert(bs_evlog_rotate(log, &err));
	jt_append(log, N_FIRST + N_LAST + 1, N_FIRST + N_LAST + 2, 1, NULL);
	bs_evlog_free(log);
	unwrite(old, at, at + 2 * BS_EVLOG_BLOCK);
	ck_assert(!load(&err));
	ck_assert_msg(strstr(err->message, "not the newest") != NULL, "%s",
	    err->message);
	g_clear_error(&err);
	g_array_unref(offs);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("journal_prealloc");
	TCase *tc;
	int rc;

	for (guint64 seq = N_FIRST + N_LAST - 1; seq <= N_FIRST + N_LAST; seq++) {
		Basalt__Event *ev = jt_event((guint)(seq % JT_KINDS), seq);

		last_two_size += BS_EVLOG_RECORD_HEAD +
		    (guint)basalt__event__get_packed_size(ev);
		jt_free(ev);
	}
	jt_suite_setup();
	tc = tcase_create("prealloc");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_zeros_ahead_end_the_records);
	tcase_add_loop_test(tc, test_crash_at_every_offset_of_last_records, 0,
	    (int)last_two_size);
	tcase_add_loop_test(tc, test_unwritten_block_inside_the_last_write, 0,
	    64);
	tcase_add_test(tc, test_zeroed_head_inside_a_written_block_is_damage);
	tcase_add_test(tc, test_data_after_zeros_in_an_older_segment_is_damage);
	suite_add_tcase(s, tc);
	rc = bs_run_suite(s);
	jt_suite_teardown();
	return rc;
}
