/*
 * RUN_WINDOW: outside its queue's run windows a running job is suspended
 * (SSUSP, "The run windows of the queue are closed;"), and it is resumed
 * when a window opens again.  With TERMINATE_WHEN = WINDOW the job is
 * killed instead.  Checked on every tick of the manager; each action is
 * an order (mbd-orders.h): committed first, then sent.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd.h"
#include "mbatchd/mbd-orders.h"
#include "util/log.h"

#define WINDOW_REASON "The run windows of the queue are closed;"

static void
apply_window(Manager *m, Job *j, const BsQueueConf *q, gboolean open)
{
	gboolean held = j->state == JS_SSUSP &&
	    g_strcmp0(j->suspend_reason, WINDOW_REASON) == 0;

	/* A host without a link is tried again on the next tick. */
	if (!open && j->state == JS_RUN) {
		if (q->terminate_when & BS_TERMINATE_WHEN_WINDOW)
			(void)orders_terminate(m, j, NULL, "the run window closed",
			    FALSE, NULL);
		else
			(void)orders_suspend(m, j, JS_SSUSP, WINDOW_REASON, NULL, NULL);
	} else if (open && held) {
		(void)orders_resume(m, j, NULL);
	}
}

void
windows_check(Manager *m)
{
	GDateTime *now = g_date_time_new_now_local();
	GPtrArray *jobs = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;

	/* Collect first: commits change the table being walked. */
	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (((Job *)v)->state == JS_RUN || ((Job *)v)->state == JS_SSUSP)
			g_ptr_array_add(jobs, v);
	for (guint i = 0; i < jobs->len; i++) {
		Job *j = g_ptr_array_index(jobs, i);
		const BsQueueConf *q = bs_config_queue(m->cfg, j->queue);

		if (q != NULL)
			apply_window(m, j, q, bs_conf_windows_open(q->run_window, now));
	}
	g_ptr_array_free(jobs, TRUE);
	g_date_time_unref(now);
}
