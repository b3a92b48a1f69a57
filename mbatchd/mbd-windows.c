/*
 * RUN_WINDOW: outside its queue's run windows a running job is suspended
 * (SSUSP, "The run windows of the queue are closed;"), and it is resumed
 * when a window opens again.  With TERMINATE_WHEN = WINDOW the job is
 * killed instead.  Checked on every tick of the manager.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd.h"
#include "util/log.h"

#define WINDOW_REASON "The run windows of the queue are closed;"

static void
apply_window(Manager *m, Job *j, const BsQueueConf *q, gboolean open)
{
	gboolean held = j->state == JS_SSUSP &&
	    g_strcmp0(j->suspend_reason, WINDOW_REASON) == 0;

	if (!open && j->state == JS_RUN) {
		if (q->terminate_when & BS_TERMINATE_WHEN_WINDOW) {
			hosts_signal_job(m, j, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE,
			    0, "the run window closed");
			return;
		}
		if (hosts_signal_job(m, j, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND,
		    0, WINDOW_REASON))
			commit_job_status(m, j, JS_SSUSP, NULL, WINDOW_REASON);
	} else if (open && held) {
		if (hosts_signal_job(m, j, BASALT__EXEC_ACTION__EXEC_ACTION_RESUME,
		    0, NULL))
			commit_job_status(m, j, JS_RUN, NULL, NULL);
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
