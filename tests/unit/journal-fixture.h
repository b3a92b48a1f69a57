/*
 * A fixture shared by the suites that test lib/journal (check_evlog,
 * check_checkpoint, check_hist): events of every kind, a collector
 * that records what recovery fed, temp directories and file surgery (cut,
 * flip a byte) for the damage tests.
 */
#ifndef BS_JOURNAL_FIXTURE_H
#define BS_JOURNAL_FIXTURE_H

#include <glib.h>

#include "event.pb-c.h"
#include "journal/evlog.h"

#define JT_KINDS 11

/* Event of kind k (0..JT_KINDS-1, one per body case); free with jt_free. */
Basalt__Event *jt_event(guint k, guint64 seq);
void jt_free(Basalt__Event *ev);
/* Protobuf bytes of ev, for comparing streams. */
GBytes *jt_pack(const Basalt__Event *ev);

/* Collector: every event fed, packed, in order. */
void jt_collect(const Basalt__Event *ev, void *data);   /* data: GPtrArray */
GPtrArray *jt_stream_new(void);
gboolean jt_stream_equal(GPtrArray *a, GPtrArray *b);

/*
 * Appends events seq from..to (kinds cycling) to log, syncing every batch
 * events, and adds them to expect (may be NULL).
 */
void jt_append(BsEvlog *log, guint64 from, guint64 to, guint batch,
    GPtrArray *expect);

/* A fresh directory for one test, below a per-suite parent. */
void jt_suite_setup(void);
void jt_suite_teardown(void);
char *jt_new_dir(void);

/* File surgery. */
guint64 jt_file_size(const char *path);
void jt_truncate(const char *path, guint64 size);
void jt_flip_byte(const char *path, guint64 off);
void jt_write_at(const char *path, guint64 off, const void *p, gsize len);
/* Path of the newest (or, with index, the i-th) segment in dir. */
char *jt_segment(const char *dir, int index);
guint jt_count_segments(const char *dir);
/* Offsets of each record's start in a segment (header excluded), up to
 * the zeros of a preallocated one. */
GArray *jt_record_offsets(const char *path);

#endif
