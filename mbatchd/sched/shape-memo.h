/*
 * Internal to mbatchd/sched: what placement remembers per job shape in a
 * pass (stage-place.c): the pending record of a shape that found no host,
 * and the shapes held by MAX_JOBS that found no victim.
 */
#ifndef BS_SCHED_SHAPE_MEMO_H
#define BS_SCHED_SHAPE_MEMO_H

#include <glib.h>

/* What the placement of a job depends on besides the counters. */
typedef struct {
	guint queue, user;
	int min_slots, ptile;
	gboolean one_host;
	guint project, app;       /* what lsb.resources limits also read */
	gint64 run_limit;         /* backfill candidates only, else 0 */
	gboolean exclusive;       /* bsub -x: only empty hosts (exclusive.c) */
	guint consumer;           /* resource plans: its quota (hybrid-place.c) */
} Shape;

typedef struct ShapeMemo ShapeMemo;

/* A memo whose values are value_size bytes each, or a set when 0. */
ShapeMemo *shape_memo_new(gsize value_size);
void shape_memo_free(ShapeMemo *m);
/* The value kept for shape k (a set: a non-NULL pointer), or NULL.  It
 * stays valid until the next insert or clear. */
gpointer shape_memo_lookup(const ShapeMemo *m, const Shape *k);
/* Keep value (a set: NULL) for shape k, replacing what it had. */
void shape_memo_insert(ShapeMemo *m, const Shape *k, gconstpointer value);
/* Forget every shape. */
void shape_memo_clear(ShapeMemo *m);

#endif
