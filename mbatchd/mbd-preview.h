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

#endif
