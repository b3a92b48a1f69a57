/*
 * A preview: what a scheduling pass would decide on the live state under
 * another configuration (badmin reconfig -preview) or at another time
 * (bconsumers -at), without applying any of it.  The pass is the
 * scheduler's own (sched_run: entitlement, placement, preemption,
 * reclaim) over a snapshot built as every cycle builds it, so the preview
 * shows what applying would do, not an estimate.
 */
#ifndef BS_MBD_PREVIEW_H
#define BS_MBD_PREVIEW_H

#include "mbatchd/mbd-consumers.h"
#include "mbatchd/mbd-snapshot.h"
#include "proto/batch.pb-c.h"

typedef struct {
	Build b;
	SchedPlan *plan;
	BsConfig *cfg;            /* the configuration previewed, owned; NULL:
	                           * the running one */
	gint64 at;                /* the time the pass was run for */
	struct MbdConsumerFigures *figs; /* the pass's quota table */
} MbdPreview;

/*
 * Run the pass on a snapshot of the live state built with cfg (taken;
 * NULL: the running configuration) as if the time were `at` (Unix
 * seconds; 0: now): the plans in force, the windows and the grace
 * deadlines are those of that time.  Nothing is applied or journaled.
 */
MbdPreview *preview_run(Manager *m, BsConfig *cfg, gint64 at);
void preview_free(MbdPreview *p);
/* The running jobs the pass acts on (reclaim, preemption, windows,
 * deadlines), in the plan's order, as new PreviewJob messages whose
 * strings point into the preview and the state: free each with g_free()
 * before preview_free(). */
void preview_jobs(const MbdPreview *p, GPtrArray *out);

/*
 * bconsumers -at, open to every user, so kept cheap (mbd-preview-cache.c):
 * a pass's answer is kept for the rest of the scheduling cycle and given
 * again for any time at which the same plans are in force; a user who is
 * not an administrator may make at most PREVIEW_USER_PASSES new passes in
 * PREVIEW_USER_SECONDS (answers from the cache are free).
 */
#define PREVIEW_USER_PASSES 4
#define PREVIEW_USER_SECONDS 60

typedef struct {
	gint64 at;                /* the time the pass was run for */
	struct MbdConsumerFigures *figs; /* its quota table, owned */
	GPtrArray *jobs;          /* Basalt__PreviewJob, each with its strings
	                           * owned (preview_jobs, copied) */
} MbdPreviewAnswer;

/* The answer for time `at` (Unix seconds, > 0), owned by the cache and
 * valid until the next call or preview_cache_clear(); NULL when `user`
 * (not an administrator) has made their passes of the period: then
 * *retry_in says in how many seconds they may make another. */
const MbdPreviewAnswer *preview_answer(Manager *m, const char *user,
    gboolean admin, gint64 at, gint64 *retry_in);
/* Forget every answer (a reconfiguration: they point at nothing of it,
 * but they are of the old configuration); NULL-safe for the manager's
 * teardown. */
void preview_cache_clear(Manager *m);
void preview_cache_free(Manager *m);

#endif
