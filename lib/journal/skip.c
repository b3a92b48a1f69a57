/*
 * The first pass of a replay that passes over the records of jobs cleaned
 * later in the same journal (skip.h says which ones and why).  Records are
 * read straight from the protobuf wire format, only as far as the few
 * fields the decision needs: the fields of proto/event.proto named below.
 */
#include "config.h"

#include <string.h>

#include "journal/skip.h"

/* Event fields (proto/event.proto). */
#define EV_SEQ 1
#define EV_JOB_NEW 10
#define EV_JOB_REQUEUE 14
#define EV_JOB_SWITCH 15
#define EV_JOB_MODIFY 16
#define EV_JOB_MOVE 17
#define EV_JOB_CLEAN 18
#define EV_JOB_PREEXEC 26
/* EvJobNew fields, JobSpec.job_group, EvJobRequeue.to_head. */
#define NEW_SPEC 2
#define NEW_QUEUE 6
#define NEW_ARRAY_INDEXES 8
#define SPEC_JOB_GROUP 80
#define REQUEUE_TO_HEAD 5

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

typedef struct {
	guint64 job_id;         /* the key */
	guint64 new_seq;
	guint64 clean_seq;      /* of its last element's clean */
	gint64 alive;           /* elements not cleaned yet */
	gboolean unsafe;        /* kept whole whatever happens */
} JobSpan;

/*
 * The first pass notes, for each record from seq `base` on, its job's
 * span (NULL: no job, or one from the checkpoint); once it is over, that
 * becomes two bits per record (passed over; is a submission), so the
 * replay decides a record by its seq alone and peeks again only into the
 * submissions it passes over.
 */
struct BsSkipSet {
	gboolean off;           /* nothing is passed over */
	guint64 candidates;     /* jobs cleaned to the last element */
	GHashTable *jobs;       /* job id -> JobSpan */
	guint64 base;           /* seq of the first record scanned */
	GPtrArray *spans;       /* JobSpan * of record base + i */
	guint8 *bits;           /* after bs_skip_set_done: two per record */
	guint64 n_bits;         /* records the bits cover */
};

/* Inlined: a first pass over a million records calls these per field. */
#define HOT static inline __attribute__((always_inline)) gboolean

HOT
varint(const guint8 **p, const guint8 *end, guint64 *v)
{
	guint64 x = 0;

	/* Most are one byte: tags, lengths, small ids. */
	if (*p < end && **p < 0x80) {
		*v = *(*p)++;
		return TRUE;
	}

	for (guint shift = 0; *p < end && shift < 64; shift += 7) {
		guint8 b = *(*p)++;

		x |= (guint64)(b & 0x7f) << shift;
		if ((b & 0x80) == 0) {
			*v = x;
			return TRUE;
		}
	}
	return FALSE;
}

/*
 * The next field at *p: its number, wire type, and either its varint value
 * or (WT_LEN) its bytes; *p moves past it.  FALSE on anything malformed.
 */
HOT
field(const guint8 **p, const guint8 *end, guint *num, guint *wt,
    guint64 *v, const guint8 **data)
{
	guint64 tag, n;

	if (!varint(p, end, &tag) || (tag >> 3) == 0 || (tag >> 3) > G_MAXUINT)
		return FALSE;
	*num = (guint)(tag >> 3);
	*wt = (guint)(tag & 7);
	switch (*wt) {
	case WT_VARINT:
		return varint(p, end, v);
	case WT_I64:
	case WT_I32:
		n = *wt == WT_I64 ? 8 : 4;
		break;
	case WT_LEN:
		if (!varint(p, end, &n))
			return FALSE;
		*v = n;
		*data = *p;
		break;
	default:
		return FALSE;
	}
	if ((guint64)(end - *p) < n)
		return FALSE;
	*p += n;
	return TRUE;
}

static gboolean
spec_grouped(const guint8 *p, const guint8 *end, gboolean *grouped)
{
	guint num, wt;
	guint64 v = 0;
	const guint8 *d = NULL;

	while (p < end) {
		if (!field(&p, end, &num, &wt, &v, &d))
			return FALSE;
		if (num == SPEC_JOB_GROUP && wt == WT_LEN && v > 0)
			*grouped = TRUE;
	}
	return TRUE;
}

/* A packed run of varints: how many. */
static gboolean
count_varints(const guint8 *p, const guint8 *end, guint *n)
{
	guint64 v;

	while (p < end) {
		if (!varint(&p, end, &v))
			return FALSE;
		++*n;
	}
	return TRUE;
}

/* deep: also look into a submission's spec for its job group. */
static gboolean
peek_body(const guint8 *p, const guint8 *end, gboolean deep, BsRecPeek *out)
{
	guint num, wt;
	guint64 v = 0;
	const guint8 *d = NULL;

	while (p < end) {
		if (!field(&p, end, &num, &wt, &v, &d))
			return FALSE;
		if (num == 1 && wt == WT_VARINT)
			out->job_id = v;
		if (out->body == EV_JOB_NEW) {
			if (num == NEW_QUEUE && wt == WT_LEN) {
				out->queue = d;
				out->queue_len = v;
			} else if (num == NEW_ARRAY_INDEXES && wt == WT_VARINT) {
				out->n_indexes++;
			} else if (num == NEW_ARRAY_INDEXES && wt == WT_LEN) {
				if (!count_varints(d, d + v, &out->n_indexes))
					return FALSE;
			} else if (deep && num == NEW_SPEC && wt == WT_LEN) {
				if (!spec_grouped(d, d + v, &out->grouped))
					return FALSE;
			}
		} else if (out->body == EV_JOB_REQUEUE && num == REQUEUE_TO_HEAD &&
		    wt == WT_VARINT && v != 0) {
			out->to_head = TRUE;
		}
	}
	return TRUE;
}

static gboolean
peek(const guint8 *p, guint32 len, gboolean deep, BsRecPeek *out)
{
	const guint8 *end = p + len, *body = NULL;
	guint64 body_len = 0, v = 0;
	guint num, wt;
	const guint8 *d = NULL;
	gboolean have_seq = FALSE;

	memset(out, 0, sizeof *out);
	while (p < end) {
		if (!field(&p, end, &num, &wt, &v, &d))
			return FALSE;
		if (num == EV_SEQ && wt == WT_VARINT) {
			out->seq = v;
			have_seq = TRUE;
		} else if (num >= EV_JOB_NEW && wt == WT_LEN) {
			/* A oneof: two bodies is not an event this code wrote. */
			if (out->body != 0)
				return FALSE;
			out->body = num;
			body = d;
			body_len = v;
		}
	}
	return have_seq && (body == NULL ||
	    peek_body(body, body + body_len, deep, out));
}

gboolean
bs_rec_peek(const guint8 *p, guint32 len, BsRecPeek *out)
{
	return peek(p, len, TRUE, out);
}

/* The bodies that name a job in their field 1 (proto/event.proto). */
static gboolean
is_job_body(guint body)
{
	switch (body) {
	case 10: case 11: case 12: case 13: case 14: case 15: case 16:
	case 17: case 18: case 22: case 26: case 27: case 32: case 39:
		return TRUE;
	default:
		return FALSE;
	}
}

BsSkipSet *
bs_skip_set_new(void)
{
	BsSkipSet *s = g_new0(BsSkipSet, 1);

	s->jobs = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
	    g_free);
	s->spans = g_ptr_array_new();
	return s;
}

void
bs_skip_set_free(BsSkipSet *s)
{
	if (s == NULL)
		return;
	if (s->jobs != NULL)
		g_hash_table_destroy(s->jobs);
	if (s->spans != NULL)
		g_ptr_array_unref(s->spans);
	g_free(s->bits);
	g_free(s);
}

static void
turn_off(BsSkipSet *s)
{
	s->off = TRUE;
	g_ptr_array_set_size(s->spans, 0);
}

void
bs_skip_set_scan(BsSkipSet *s, const guint8 *p, guint32 len)
{
	BsRecPeek pk;
	JobSpan *j = NULL;

	if (s->off)
		return;
	/* Records follow each other by seq (the replay checks it again). */
	if (!peek(p, len, TRUE, &pk) || (s->spans->len > 0 &&
	    pk.seq != s->base + s->spans->len)) {
		turn_off(s);
		return;
	}
	if (s->spans->len == 0)
		s->base = pk.seq;
	if (pk.body == EV_JOB_MOVE || pk.body == EV_JOB_PREEXEC ||
	    (pk.body == EV_JOB_REQUEUE && pk.to_head)) {
		turn_off(s);
		return;
	}
	if (is_job_body(pk.body))
		j = g_hash_table_lookup(s->jobs, &pk.job_id);
	if (pk.body == EV_JOB_NEW) {
		if (j != NULL) {
			j->unsafe = TRUE;
		} else {
			j = g_new0(JobSpan, 1);
			j->job_id = pk.job_id;
			j->new_seq = pk.seq;
			j->alive = pk.n_indexes > 0 ? pk.n_indexes : 1;
			j->unsafe = pk.grouped;
			g_hash_table_insert(s->jobs, &j->job_id, j);
		}
	} else if (j != NULL) {
		if (pk.body == EV_JOB_SWITCH || pk.body == EV_JOB_MODIFY)
			j->unsafe = TRUE;
		else if (pk.body == EV_JOB_CLEAN && j->alive-- > 0) {
			j->clean_seq = pk.seq;
			if (j->alive == 0)
				s->candidates++;
		}
	}
	g_ptr_array_add(s->spans, j);
}

gboolean
bs_skip_set_any(const BsSkipSet *s)
{
	return !s->off && s->candidates > 0;
}

void
bs_skip_set_done(BsSkipSet *s, guint64 horizon)
{
	s->n_bits = s->off || horizon == 0 ? 0 : s->spans->len;
	s->bits = g_malloc0(s->n_bits / 4 + 1);
	for (guint64 i = 0; i < s->n_bits; i++) {
		const JobSpan *j = s->spans->pdata[i];
		guint64 seq = s->base + i;

		if (j != NULL && !j->unsafe && j->alive == 0 &&
		    j->clean_seq <= horizon && seq >= j->new_seq &&
		    seq <= j->clean_seq)
			s->bits[i / 4] |= (guint8)((seq == j->new_seq ? 3u : 1u) <<
			    (i % 4 * 2));
	}
	g_clear_pointer(&s->spans, g_ptr_array_unref);
	g_clear_pointer(&s->jobs, g_hash_table_destroy);
}

gboolean
bs_skip_set_skips(const BsSkipSet *s, guint64 seq, const guint8 *p,
    guint32 len, BsRecPeek *pk)
{
	guint64 i;
	guint b;

	if (s == NULL || s->bits == NULL || seq < s->base)
		return FALSE;
	i = seq - s->base;
	if (i >= s->n_bits || !(b = s->bits[i / 4] >> (i % 4 * 2) & 3))
		return FALSE;
	if (b == 1) {
		memset(pk, 0, sizeof *pk);
		pk->seq = seq;
		return TRUE;
	}
	/* A submission: its job id and queue for the caller. */
	return peek(p, len, FALSE, pk) && pk->seq == seq;
}
