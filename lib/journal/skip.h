/*
 * Replay without the jobs that are gone by its end.  Most records of a
 * long journal belong to jobs cleaned later in the same journal: replaying
 * them makes each job (unpacking its submission, some forty environment
 * strings, and its spec) only to remove it again.  A first pass reads each
 * record's few leading fields straight from the wire format (no unpacking)
 * and finds those jobs; the replay then passes their records over.
 *
 * Only what leaves no trace is passed over.  A job is kept whole when it
 * names a job group (bsub -g makes the group), is switched or modified
 * (those make groups and queues too), reuses a job id, or is not cleaned
 * to the last of its array elements; and nothing is passed over at all
 * when the journal moves jobs in a queue (bbot, btop, a requeue to the
 * head, a pre-exec retry): there a job's mere presence in the queue
 * changes where the others go.  What a passed-over job still leaves (the
 * last job id, its queue, the last seq) is given to a callback.
 */
#ifndef BS_JOURNAL_SKIP_H
#define BS_JOURNAL_SKIP_H

#include <glib.h>

/* What the first pass reads of a record, from the wire format. */
typedef struct {
	guint64 seq;
	guint body;             /* Event's body field number; 0: none */
	guint64 job_id;         /* field 1 of a job event's body */
	const guint8 *queue;    /* EvJobNew.queue (not NUL-terminated) */
	gsize queue_len;
	guint n_indexes;        /* EvJobNew.array_indexes */
	gboolean grouped;       /* EvJobNew.spec.job_group is set */
	gboolean to_head;       /* EvJobRequeue.to_head */
} BsRecPeek;

/* FALSE when the payload is not an Event as this version writes them. */
gboolean bs_rec_peek(const guint8 *p, guint32 len, BsRecPeek *out);

/*
 * The caller's side of the skip.  horizon() is asked once, after the
 * checkpoint is fed, and only when the first pass found a job to pass
 * over (it may walk the whole state): records with a higher seq are never
 * passed over (the accounting files still want them), 0 passes none over
 * (the state the checkpoint left does not allow it).  skipped() is told of each record
 * passed over: its seq, and for a submission its body, job id and queue
 * (NUL-terminated); the body of another record is 0.
 */
typedef struct {
	guint64 (*horizon)(void *data);
	void (*skipped)(const BsRecPeek *pk, const char *queue, void *data);
} BsJournalSkip;

typedef struct BsSkipSet BsSkipSet;

BsSkipSet *bs_skip_set_new(void);
/*
 * The first pass: each whole record after the checkpoint, in seq order.
 * One that cannot be read, or a seq that does not follow, ends all
 * skipping (the replay then reports what is wrong with it).
 */
void bs_skip_set_scan(BsSkipSet *s, const guint8 *p, guint32 len);
/* After the first pass: did it find a job that may be passed over? */
gboolean bs_skip_set_any(const BsSkipSet *s);
/* The first pass is over: decides which records are passed over, none
 * with a seq past horizon. */
void bs_skip_set_done(BsSkipSet *s, guint64 horizon);
/* The replay: is record seq passed over?  If so, *pk holds its seq, and
 * for a submission what bs_rec_peek() reads but the job group. */
gboolean bs_skip_set_skips(const BsSkipSet *s, guint64 seq,
    const guint8 *p, guint32 len, BsRecPeek *pk);
void bs_skip_set_free(BsSkipSet *s);

#endif
