/*
 * The event journal: CRC32C, group commit, replay of every event kind, the
 * torn tail cut at every byte of the last record, damage that must stop
 * recovery (and salvage that gets past it), format versions, the history
 * reader, and a really full disk (tmpfs, when running as root).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "journal-fixture.h"
#include "tap.h"
#include "util/crc32c.h"
#include "util/error.h"
#include "journal/evlog.h"
#include "journal/readback.h"

#define N_RECORDS 10

static char *dir;
static BsEvlogOptions nosync;
static BsJournalReport rep;
static GPtrArray *got;

static void
setup(void)
{
	dir = jt_new_dir();
	bs_evlog_options_init(&nosync);
	nosync.sync_mode = BS_EVLOG_SYNC_NONE;
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

/* A journal of seqs 1..n in one segment; the expected stream if wanted. */
static void
make_journal(guint64 n, GPtrArray *expect)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);

	ck_assert_msg(log != NULL, "%s", err ? err->message : "");
	jt_append(log, 1, n, 4, expect);
	bs_evlog_free(log);
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

/* ---- CRC32C ---- */

START_TEST(test_crc_rfc3720_vectors)
{
	guint8 buf[32];
	uint32_t (*fns[])(uint32_t, const void *, size_t) =
	    { bs_crc32c, bs_crc32c_portable };

	for (guint f = 0; f < G_N_ELEMENTS(fns); f++) {
		memset(buf, 0, sizeof buf);
		ck_assert_uint_eq(fns[f](0, buf, 32), 0x8A9136AAu);
		memset(buf, 0xff, sizeof buf);
		ck_assert_uint_eq(fns[f](0, buf, 32), 0x62A8AB43u);
		for (int i = 0; i < 32; i++)
			buf[i] = (guint8)i;
		ck_assert_uint_eq(fns[f](0, buf, 32), 0x46DD794Eu);
		for (int i = 0; i < 32; i++)
			buf[i] = (guint8)(31 - i);
		ck_assert_uint_eq(fns[f](0, buf, 32), 0x113FDB5Cu);
		ck_assert_uint_eq(fns[f](0, "123456789", 9), 0xE3069283u);
		ck_assert_uint_eq(fns[f](0, "", 0), 0);
	}
}
END_TEST

START_TEST(test_crc_implementations_agree)
{
	guint8 buf[600];
	GRand *r = g_rand_new_with_seed(42);

	for (guint i = 0; i < sizeof buf; i++)
		buf[i] = (guint8)g_rand_int(r);
	for (guint off = 0; off < 8; off++)
		for (guint len = 0; len + off <= 520; len += 7) {
			uint32_t whole = bs_crc32c_portable(0, buf + off, len);

			ck_assert_uint_eq(bs_crc32c(0, buf + off, len), whole);
			/* Chaining: a CRC over two pieces equals the one over both. */
			ck_assert_uint_eq(bs_crc32c(bs_crc32c(0, buf + off, len / 3),
			    buf + off + len / 3, len - len / 3), whole);
		}
	g_rand_free(r);
	ck_assert_ptr_nonnull(bs_crc32c_impl());
}
END_TEST

/* ---- writer and replay ---- */

START_TEST(test_roundtrip_every_kind)
{
	GPtrArray *expect = jt_stream_new();
	GError *err = NULL;
	BsEvlog *log;

	make_journal(2 * JT_KINDS, expect);
	load_ok(2 * JT_KINDS);
	ck_assert(jt_stream_equal(got, expect));
	ck_assert_uint_eq(rep.first_seq, 1);
	ck_assert_uint_eq(rep.last_seq, 2 * JT_KINDS);
	ck_assert_uint_eq(rep.dropped_bytes, 0);
	ck_assert_uint_eq(rep.checkpoint_seq, 0);
	log = bs_evlog_open(dir, &nosync, &err);
	ck_assert_ptr_nonnull(log);
	ck_assert_uint_eq(bs_evlog_next_seq(log), 2 * JT_KINDS + 1);
	ck_assert_uint_eq(bs_evlog_synced_seq(log), 2 * JT_KINDS);
	bs_evlog_free(log);
	g_ptr_array_unref(expect);
}
END_TEST

/*
 * Replay unpacks into an arena reused per record (format.c): records far
 * bigger than its first buffer, between small ones, must come back whole,
 * and so must the small ones after the buffer has grown.
 */
START_TEST(test_roundtrip_records_bigger_than_the_arena)
{
	GPtrArray *expect = jt_stream_new();
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);
	static const guint sizes[] = { 10, 3000, 10, 20000, 5, 20000, 10 };
	guint64 seq = 1;

	ck_assert_ptr_nonnull(log);
	for (guint i = 0; i < G_N_ELEMENTS(sizes); i++) {
		Basalt__Event *ev = jt_event(0, seq);
		Basalt__JobSpec *spec = ev->job_new->spec;
		char **env = g_new0(char *, sizes[i] + 1), **own_env = spec->env;
		size_t own_n = spec->n_env;

		/* 20,000 variables of ~40 bytes: a record of ~1 MB. */
		for (guint v = 0; v < sizes[i]; v++)
			env[v] = g_strdup_printf("VARIABLE_%05u=/some/value/%u", v,
			    v * 7919);
		spec->env = env;
		spec->n_env = sizes[i];
		ck_assert(bs_evlog_append(log, ev, &err));
		ck_assert(bs_evlog_sync(log, &err));
		g_ptr_array_add(expect, jt_pack(ev));
		spec->env = own_env;
		spec->n_env = own_n;
		g_strfreev(env);
		jt_free(ev);
		jt_append(log, seq + 1, seq + 2, 1, expect);
		seq += 3;
	}
	bs_evlog_free(log);
	load_ok(3 * G_N_ELEMENTS(sizes));
	ck_assert(jt_stream_equal(got, expect));
	g_ptr_array_unref(expect);
}
END_TEST

START_TEST(test_group_commit_is_one_write)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, NULL, &err);   /* sync=always */
	guint n;
	gsize bytes;
	g_autofree char *seg = NULL;

	ck_assert_ptr_nonnull(log);
	seg = g_strdup(bs_evlog_segment_path(log));
	for (guint64 s = 1; s <= 50; s++) {
		Basalt__Event *ev = jt_event((guint)(s % JT_KINDS), s);

		ck_assert(bs_evlog_append(log, ev, &err));
		jt_free(ev);
	}
	bs_evlog_pending(log, &n, &bytes);
	ck_assert_uint_eq(n, 50);
	ck_assert_uint_gt(bytes, 50 * BS_EVLOG_RECORD_HEAD);
	ck_assert_uint_eq(bs_evlog_synced_seq(log), 0);
	/* Nothing reached the file before the sync. */
	ck_assert_uint_eq(jt_file_size(seg), BS_EVLOG_HEADER_SIZE);
	ck_assert(bs_evlog_sync(log, &err));
	ck_assert_uint_eq(jt_file_size(seg), BS_EVLOG_HEADER_SIZE + bytes);
	bs_evlog_pending(log, &n, &bytes);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(bytes, 0);
	ck_assert_uint_eq(bs_evlog_synced_seq(log), 50);
	ck_assert(bs_evlog_sync(log, &err));    /* nothing to do */
	bs_evlog_free(log);
}
END_TEST

START_TEST(test_append_checks_seq)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);
	Basalt__Event *ev = jt_event(0, 7);
	guint n;

	ck_assert(!bs_evlog_append(log, ev, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "expects 1"));
	g_clear_error(&err);
	bs_evlog_pending(log, &n, NULL);
	ck_assert_uint_eq(n, 0);
	jt_free(ev);
	bs_evlog_free(log);
}
END_TEST

/* The last buffered record can be taken back, once, before a sync. */
START_TEST(test_cancel_last)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);
	guint n;

	for (guint64 s = 1; s <= 3; s++) {
		Basalt__Event *ev = jt_event((guint)s, s);

		ck_assert(bs_evlog_append(log, ev, &err));
		jt_free(ev);
	}
	ck_assert(bs_evlog_cancel_last(log));
	ck_assert(!bs_evlog_cancel_last(log));
	bs_evlog_pending(log, &n, NULL);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(bs_evlog_next_seq(log), 3);
	ck_assert(bs_evlog_sync(log, &err));
	ck_assert(!bs_evlog_cancel_last(log));     /* durable: too late */
	bs_evlog_free(log);
	load_ok(2);
}
END_TEST

START_TEST(test_unsynced_records_are_not_durable)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);

	jt_append(log, 1, 5, 5, NULL);
	for (guint64 s = 6; s <= 8; s++) {
		Basalt__Event *ev = jt_event(1, s);

		ck_assert(bs_evlog_append(log, ev, &err));
		jt_free(ev);
	}
	bs_evlog_free(log);
	load_ok(5);
}
END_TEST

START_TEST(test_open_refuses_a_torn_tail)
{
	GError *err = NULL;
	g_autofree char *seg = NULL;
	BsEvlog *log;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	jt_write_at(seg, jt_file_size(seg), "\x20\0\0\0junk", 8);
	log = bs_evlog_open(dir, &nosync, &err);
	ck_assert_ptr_null(log);
	ck_assert_ptr_nonnull(strstr(err->message, "recover"));
	g_clear_error(&err);
	load_ok(N_RECORDS);
	ck_assert_uint_eq(rep.dropped_bytes, 8);
	log = bs_evlog_open(dir, &nosync, &err);
	ck_assert_ptr_nonnull(log);
	ck_assert_uint_eq(bs_evlog_next_seq(log), N_RECORDS + 1);
	bs_evlog_free(log);
}
END_TEST

/* The writer continues where recovery ended, torn tail cut or not, as if
 * it had read the segment again; a file changed since is read again. */
START_TEST(test_open_at_continues_where_recovery_ended)
{
	GError *err = NULL;
	g_autofree char *seg = NULL;
	BsJournalEnd end = { 0 };
	BsEvlog *log;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	jt_write_at(seg, jt_file_size(seg), "\x20\0\0\0junk", 8);
	load_ok(N_RECORDS);
	ck_assert_str_eq(rep.end.path, seg);
	ck_assert_uint_eq(rep.end.next_seq, N_RECORDS + 1);
	ck_assert_uint_eq(rep.end.end, jt_file_size(seg));
	log = bs_evlog_open_at(dir, &nosync, &rep.end, &err);
	ck_assert_ptr_nonnull(log);
	ck_assert_uint_eq(bs_evlog_next_seq(log), N_RECORDS + 1);
	jt_append(log, N_RECORDS + 1, N_RECORDS + 3, 1, NULL);
	bs_evlog_free(log);
	load_ok(N_RECORDS + 3);
	ck_assert_uint_eq(rep.dropped_bytes, 0);

	/* Junk written after recovery: read again, and refused. */
	end = rep.end;
	end.path = g_strdup(rep.end.path);
	jt_write_at(seg, jt_file_size(seg), "\x20\0\0\0junk", 8);
	log = bs_evlog_open_at(dir, &nosync, &end, &err);
	ck_assert_ptr_null(log);
	ck_assert_ptr_nonnull(strstr(err->message, "recover"));
	g_clear_error(&err);
	g_free(end.path);
}
END_TEST

START_TEST(test_empty_dir_is_a_new_journal)
{
	g_autofree char *missing = g_build_filename(dir, "nope", NULL);
	GError *err = NULL;

	ck_assert(bs_journal_load(missing, 0, jt_collect, got, &rep, &err));
	ck_assert_uint_eq(got->len, 0);
	load_ok(0);
}
END_TEST

/* ---- torn tails ---- */

static guint last_record_size;

/* Cut the journal at every byte of its last record. */
START_TEST(test_cut_at_every_offset_of_last_record)
{
	GPtrArray *expect = jt_stream_new();
	g_autofree char *seg = NULL;
	GArray *offs;
	guint64 last_start, size;

	make_journal(N_RECORDS, expect);
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	last_start = g_array_index(offs, guint64, N_RECORDS - 1);
	size = jt_file_size(seg);
	ck_assert_uint_eq(size - last_start, last_record_size);
	jt_truncate(seg, last_start + (guint64)_i);
	load_ok(N_RECORDS - 1);
	ck_assert_uint_eq(rep.dropped_bytes, (guint64)_i);
	ck_assert_uint_eq(jt_file_size(seg), last_start);
	g_ptr_array_set_size(expect, N_RECORDS - 1);
	ck_assert(jt_stream_equal(got, expect));
	/* A second start finds nothing more to cut. */
	load_ok(N_RECORDS - 1);
	ck_assert_uint_eq(rep.dropped_bytes, 0);
	g_array_unref(offs);
	g_ptr_array_unref(expect);
}
END_TEST

START_TEST(test_bad_crc_of_last_record_is_cut)
{
	g_autofree char *seg = NULL;
	GArray *offs;
	guint64 last_start, size;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	last_start = g_array_index(offs, guint64, N_RECORDS - 1);
	size = jt_file_size(seg);
	jt_flip_byte(seg, last_start + 5);      /* inside the CRC field */
	load_ok(N_RECORDS - 1);
	ck_assert_uint_eq(rep.dropped_bytes, size - last_start);
	ck_assert_str_eq(rep.dropped_path, seg);
	g_array_unref(offs);
}
END_TEST

/*
 * Zeros after the last record (what a filesystem may show of a file
 * extended by a write a crash interrupted, and what a preallocated segment
 * holds) end the records: nothing is lost, and nothing needs cutting.
 */
START_TEST(test_zero_filled_tail_ends_the_records)
{
	g_autofree char *seg = NULL;
	guint8 zeros[100] = { 0 };
	guint64 size;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	jt_write_at(seg, jt_file_size(seg), zeros, sizeof zeros);
	size = jt_file_size(seg);
	load_ok(N_RECORDS);
	ck_assert_uint_eq(rep.dropped_bytes, 0);
	ck_assert_uint_eq(jt_file_size(seg), size);
}
END_TEST

START_TEST(test_oversized_length_at_end_is_cut)
{
	g_autofree char *seg = NULL;
	guint8 head[8] = { 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4 };

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	jt_write_at(seg, jt_file_size(seg), head, sizeof head);
	load_ok(N_RECORDS);
	ck_assert_uint_eq(rep.dropped_bytes, sizeof head);
}
END_TEST

START_TEST(test_torn_header_of_newest_segment)
{
	g_autofree char *seg = NULL;
	GError *err = NULL;
	BsEvlog *log;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	jt_truncate(seg, 20);
	load_ok(0);
	ck_assert_uint_eq(rep.dropped_bytes, 20);
	ck_assert(!g_file_test(seg, G_FILE_TEST_EXISTS));
	log = bs_evlog_open(dir, &nosync, &err);
	ck_assert_ptr_nonnull(log);
	ck_assert_uint_eq(bs_evlog_next_seq(log), 1);
	bs_evlog_free(log);
}
END_TEST

/* ---- damage ---- */

START_TEST(test_flipped_byte_in_middle_stops_then_salvage)
{
	g_autofree char *seg = NULL;
	g_autofree char *want = NULL;
	GError *err = NULL;
	GArray *offs;
	guint64 bad;
	BsEvlog *log;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	bad = g_array_index(offs, guint64, 3);          /* record seq 4 */
	jt_flip_byte(seg, bad + BS_EVLOG_RECORD_HEAD + 3);
	ck_assert(!load(&err));
	want = g_strdup_printf("%s: offset %" G_GUINT64_FORMAT ":", seg, bad);
	ck_assert_msg(strstr(err->message, want) != NULL, "%s", err->message);
	ck_assert_ptr_nonnull(strstr(err->message, "valid records follow"));
	g_clear_error(&err);
	ck_assert_uint_eq(jt_file_size(seg) > bad, TRUE);   /* nothing cut */

	/* check: read-only, says the same. */
	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	ck_assert(!bs_journal_check(dir, &rep, &err));
	g_clear_error(&err);
	ck_assert_uint_ge(rep.problems->len, 1);
	ck_assert_uint_eq(rep.records, N_RECORDS - 1);

	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	ck_assert_msg(bs_journal_salvage(dir, &rep, &err), "%s",
	    err ? err->message : "");
	ck_assert_uint_ge(rep.problems->len, 1);
	load_ok(N_RECORDS - 1);
	for (guint i = 0; i < got->len; i++) {
		Basalt__Event *ev = basalt__event__unpack(NULL,
		    g_bytes_get_size(got->pdata[i]),
		    g_bytes_get_data(got->pdata[i], NULL));

		ck_assert_uint_eq(ev->seq, i < 3 ? i + 1 : i + 2);
		basalt__event__free_unpacked(ev, NULL);
	}
	/* The original stays as evidence; the journal takes new events. */
	g_free(want);
	want = g_strconcat(seg, ".damaged", NULL);
	ck_assert(g_file_test(want, G_FILE_TEST_EXISTS));
	log = bs_evlog_open(dir, &nosync, &err);
	ck_assert_ptr_nonnull(log);
	jt_append(log, N_RECORDS + 1, N_RECORDS + 2, 1, NULL);
	bs_evlog_free(log);
	load_ok(N_RECORDS + 1);
	g_array_unref(offs);
}
END_TEST

START_TEST(test_load_with_salvage_flag)
{
	g_autofree char *seg = NULL;
	GError *err = NULL;
	GArray *offs;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	offs = jt_record_offsets(seg);
	jt_flip_byte(seg, g_array_index(offs, guint64, 2) + 1);  /* length */
	ck_assert_msg(bs_journal_load(dir, BS_JOURNAL_LOAD_SALVAGE, jt_collect,
	    got, &rep, &err), "%s", err ? err->message : "");
	ck_assert_uint_eq(got->len, N_RECORDS - 1);
	ck_assert_uint_ge(rep.problems->len, 1);
	g_array_unref(offs);
}
END_TEST

/* Two segments; returns the older one's path. */
static char *
make_two_segments(void)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);

	jt_append(log, 1, N_RECORDS, 3, NULL);
	ck_assert(bs_evlog_rotate(log, &err));
	jt_append(log, N_RECORDS + 1, 2 * N_RECORDS, 3, NULL);
	bs_evlog_free(log);
	ck_assert_uint_eq(jt_count_segments(dir), 2);
	return jt_segment(dir, 0);
}

START_TEST(test_tail_damage_in_older_segment_is_fatal)
{
	g_autofree char *old = make_two_segments();
	GError *err = NULL;
	guint64 size = jt_file_size(old);

	jt_truncate(old, size - 3);
	ck_assert(!load(&err));
	ck_assert_ptr_nonnull(strstr(err->message, old));
	ck_assert_ptr_nonnull(strstr(err->message, "not the newest"));
	g_clear_error(&err);
	ck_assert_uint_eq(jt_file_size(old), size - 3);     /* not cut */
	ck_assert(bs_journal_salvage(dir, &rep, &err));
	load_ok(2 * N_RECORDS - 1);
}
END_TEST

START_TEST(test_seq_gap_is_fatal_until_salvaged)
{
	GError *err = NULL;
	BsEvlog *log = bs_evlog_open(dir, &nosync, &err);
	g_autofree char *middle = NULL;

	for (guint i = 0; i < 3; i++) {
		jt_append(log, bs_evlog_next_seq(log), bs_evlog_next_seq(log) + 4, 5,
		    NULL);
		ck_assert(bs_evlog_rotate(log, &err));
	}
	bs_evlog_free(log);
	middle = jt_segment(dir, 1);
	ck_assert_int_eq(unlink(middle), 0);
	ck_assert(!load(&err));
	ck_assert_ptr_nonnull(strstr(err->message, "seq gap"));
	g_clear_error(&err);
	ck_assert(!bs_journal_check(dir, &rep, &err));
	g_clear_error(&err);
	ck_assert(bs_journal_salvage(dir, &rep, &err));
	load_ok(10);
	ck_assert(bs_journal_check(dir, &rep, &err));
}
END_TEST

START_TEST(test_newer_version_is_refused)
{
	g_autofree char *seg = NULL;
	guint8 v2[4] = { 2, 0, 0, 0 };
	GError *err = NULL;
	BsEvlog *log;

	make_journal(N_RECORDS, NULL);
	seg = jt_segment(dir, -1);
	jt_write_at(seg, 8, v2, sizeof v2);
	ck_assert(!load(&err));
	ck_assert_msg(strstr(err->message, "version 2") != NULL &&
	    strstr(err->message, "version 1") != NULL, "%s", err->message);
	g_clear_error(&err);
	ck_assert(!bs_journal_check(dir, &rep, &err));
	g_clear_error(&err);
	ck_assert(!bs_journal_salvage(dir, &rep, &err));
	g_clear_error(&err);
	log = bs_evlog_open(dir, &nosync, &err);
	ck_assert_ptr_null(log);
	g_clear_error(&err);
}
END_TEST

START_TEST(test_check_on_a_good_journal)
{
	GError *err = NULL;
	g_autofree char *old = make_two_segments();

	ck_assert(bs_journal_check(dir, &rep, &err));
	ck_assert_uint_eq(rep.problems->len, 0);
	ck_assert_uint_eq(rep.records, 2 * N_RECORDS);
	ck_assert_uint_eq(rep.segments, 2);
	ck_assert_uint_eq(rep.last_seq, 2 * N_RECORDS);
}
END_TEST

/* ---- history reader ---- */

START_TEST(test_reader_reads_history_in_order)
{
	g_autofree char *old = make_two_segments();
	g_autofree char *seg = jt_segment(dir, -1);
	GError *err = NULL;
	BsJournalReader *rd;
	Basalt__Event *ev;
	guint64 n = 0, size;
	const char *path;
	guint64 off;

	/* A record being written right now: the reader stops before it. */
	jt_write_at(seg, jt_file_size(seg), "\x40\0\0\0\1\2\3\4\x08", 9);
	size = jt_file_size(seg);
	rd = bs_journal_reader_open(dir, 0, &err);
	ck_assert_ptr_nonnull(rd);
	while (bs_journal_reader_next(rd, &ev, &err)) {
		ck_assert_uint_eq(ev->seq, ++n);
		ck_assert_int_eq(ev->time, 1700000000 + (gint64)n);
		basalt__event__free_unpacked(ev, NULL);
	}
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(n, 2 * N_RECORDS);
	bs_journal_reader_position(rd, &path, &off);
	ck_assert_str_eq(path, seg);
	bs_journal_reader_free(rd);
	ck_assert_uint_eq(jt_file_size(seg), size);        /* not cut */

	rd = bs_journal_reader_open(dir, 1, &err);          /* bhist -n 1 */
	ck_assert(bs_journal_reader_next(rd, &ev, &err));
	ck_assert_uint_eq(ev->seq, N_RECORDS + 1);
	basalt__event__free_unpacked(ev, NULL);
	bs_journal_reader_free(rd);

	/* Damage in an older segment is an error, not a short history. */
	jt_flip_byte(old, BS_EVLOG_HEADER_SIZE + 10);
	rd = bs_journal_reader_open(dir, 0, &err);
	while (bs_journal_reader_next(rd, &ev, &err))
		basalt__event__free_unpacked(ev, NULL);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, old));
	g_clear_error(&err);
	bs_journal_reader_free(rd);
}
END_TEST

/* A cursor (mbatchd's History pages): the records up to it are passed
 * over, the next one comes whole, and nothing after it is lost. */
START_TEST(test_reader_skips_through_a_cursor)
{
	g_autofree char *old = make_two_segments();
	GError *err = NULL;
	BsJournalReader *rd;
	Basalt__Event *ev;
	guint64 want = N_RECORDS / 2 + 1;

	rd = bs_journal_reader_open(dir, 0, &err);
	ck_assert_ptr_nonnull(rd);
	bs_journal_reader_skip_through(rd, want - 1);
	while (bs_journal_reader_next(rd, &ev, &err)) {
		ck_assert_uint_eq(ev->seq, want);
		ck_assert_int_eq(ev->time, 1700000000 + (gint64)want);
		want++;
		basalt__event__free_unpacked(ev, NULL);
	}
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(want, 2 * N_RECORDS + 1);
	bs_journal_reader_free(rd);
}
END_TEST

/* ---- full disk ---- */

#define TMPFS_SIZE "size=64k"
static char *mnt;

/*
 * Fills a 64 KiB tmpfs: a sync fails with ENOSPC and keeps its records, no
 * acknowledged record is lost, and after space is freed the same records
 * are written and replayed.
 */
START_TEST(test_full_disk)
{
	g_autofree char *jdir = g_build_filename(mnt, "events", NULL);
	g_autofree char *filler = g_build_filename(mnt, "filler", NULL);
	g_autofree char *blob = g_malloc0(16384);
	BsEvlog *log;
	GError *err = NULL;
	guint64 acked = 0, s = 1;
	guint pending;

	ck_assert(g_file_set_contents(filler, blob, 16384, NULL));
	log = bs_evlog_open(jdir, NULL, &err);
	ck_assert_msg(log != NULL, "%s", err ? err->message : "");
	for (;;) {
		for (guint i = 0; i < 8; i++, s++) {
			Basalt__Event *ev = jt_event((guint)(s % JT_KINDS), s);

			ck_assert(bs_evlog_append(log, ev, &err));
			jt_free(ev);
		}
		if (!bs_evlog_sync(log, &err))
			break;
		acked = s - 1;
		ck_assert_uint_lt(s, 100000);
	}
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_IO));
	ck_assert_msg(strstr(err->message, g_strerror(ENOSPC)) != NULL, "%s",
	    err->message);
	g_clear_error(&err);
	bs_evlog_pending(log, &pending, NULL);
	ck_assert_uint_eq(pending, 8);
	ck_assert_uint_eq(bs_evlog_synced_seq(log), acked);
	ck_assert(!bs_evlog_sync(log, &err));              /* still full */
	g_clear_error(&err);

	/* What is on disk is exactly what was acknowledged. */
	bs_journal_report_clear(&rep);
	bs_journal_report_init(&rep);
	ck_assert(bs_journal_check(jdir, &rep, &err));
	ck_assert_uint_eq(rep.last_seq, acked);

	ck_assert_int_eq(unlink(filler), 0);
	ck_assert_msg(bs_evlog_sync(log, &err), "%s", err ? err->message : "");
	ck_assert_uint_eq(bs_evlog_synced_seq(log), s - 1);
	bs_evlog_free(log);
	ck_assert(bs_journal_load(jdir, 0, jt_collect, got, &rep, &err));
	ck_assert_uint_eq(got->len, s - 1);
	ck_assert_uint_eq(rep.dropped_bytes, 0);
}
END_TEST

static gboolean
mount_tmpfs(void)
{
	if (geteuid() != 0) {
		printf("# SKIP full-disk test: not root, cannot mount a tmpfs\n");
		fflush(stdout);
		return FALSE;
	}
	mnt = g_dir_make_tmp("bs-enospc-XXXXXX", NULL);
	if (mnt == NULL || mount("tmpfs", mnt, "tmpfs", 0, TMPFS_SIZE) < 0) {
		printf("# SKIP full-disk test: cannot mount a tmpfs: %s\n",
		    g_strerror(errno));
		fflush(stdout);
		if (mnt != NULL)
			rmdir(mnt);
		g_clear_pointer(&mnt, g_free);
		return FALSE;
	}
	return TRUE;
}

static void
unmount_tmpfs(void)
{
	if (mnt == NULL)
		return;
	if (umount(mnt) < 0)
		umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	g_clear_pointer(&mnt, g_free);
}

int
main(void)
{
	Suite *s = suite_create("evlog");
	TCase *tc;
	Basalt__Event *ev = jt_event(N_RECORDS % JT_KINDS, N_RECORDS);
	int rc;

	last_record_size = BS_EVLOG_RECORD_HEAD +
	    (guint)basalt__event__get_packed_size(ev);
	jt_free(ev);
	jt_suite_setup();

	tc = tcase_create("crc32c");
	tcase_add_test(tc, test_crc_rfc3720_vectors);
	tcase_add_test(tc, test_crc_implementations_agree);
	suite_add_tcase(s, tc);

	tc = tcase_create("writer");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_roundtrip_every_kind);
	tcase_add_test(tc, test_roundtrip_records_bigger_than_the_arena);
	tcase_add_test(tc, test_group_commit_is_one_write);
	tcase_add_test(tc, test_append_checks_seq);
	tcase_add_test(tc, test_cancel_last);
	tcase_add_test(tc, test_unsynced_records_are_not_durable);
	tcase_add_test(tc, test_open_refuses_a_torn_tail);
	tcase_add_test(tc, test_empty_dir_is_a_new_journal);
	suite_add_tcase(s, tc);

	tc = tcase_create("torn");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_cut_at_every_offset_of_last_record, 0,
	    (int)last_record_size);
	tcase_add_test(tc, test_bad_crc_of_last_record_is_cut);
	tcase_add_test(tc, test_zero_filled_tail_ends_the_records);
	tcase_add_test(tc, test_oversized_length_at_end_is_cut);
	tcase_add_test(tc, test_torn_header_of_newest_segment);
	suite_add_tcase(s, tc);

	tc = tcase_create("damage");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_flipped_byte_in_middle_stops_then_salvage);
	tcase_add_test(tc, test_load_with_salvage_flag);
	tcase_add_test(tc, test_tail_damage_in_older_segment_is_fatal);
	tcase_add_test(tc, test_seq_gap_is_fatal_until_salvaged);
	tcase_add_test(tc, test_newer_version_is_refused);
	tcase_add_test(tc, test_check_on_a_good_journal);
	tcase_add_test(tc, test_open_at_continues_where_recovery_ended);
	tcase_add_test(tc, test_reader_reads_history_in_order);
	tcase_add_test(tc, test_reader_skips_through_a_cursor);
	suite_add_tcase(s, tc);

	if (mount_tmpfs()) {
		tc = tcase_create("full-disk");
		tcase_add_checked_fixture(tc, setup, teardown);
		tcase_add_test(tc, test_full_disk);
		suite_add_tcase(s, tc);
	}
	rc = bs_run_suite(s);
	unmount_tmpfs();
	jt_suite_teardown();
	return rc;
}
