/*
 * Stage: time windows, the time-driven stage.  Rule (lsf-reference.md,
 * lsb.queues RUN_WINDOW, DISPATCH_WINDOW, TERMINATE_WHEN; lsb.hosts
 * DISPATCH_WINDOW):
 *
 * - Outside its queue's RUN_WINDOW a running job is suspended (SSUSP,
 *   "The run windows of the queue are closed;"), or killed when the queue
 *   has TERMINATE_WHEN = WINDOW; a job the window suspended is resumed
 *   when a window opens again.  Jobs suspended otherwise (by the user, by
 *   preemption) are not the window's to resume.
 * - Outside its RUN_WINDOW or DISPATCH_WINDOW a queue starts nothing
 *   (Inact_Win: "The queue is inactivated by its time windows");
 *   started jobs are unaffected by DISPATCH_WINDOW.
 * - Outside its lsb.hosts DISPATCH_WINDOW a host is closed_Wind for new
 *   jobs ("Dispatch windows closed").
 * - The plan says when the next window opens or closes (next_wake), so
 *   the daemon runs a pass then even if nothing else happens.
 *
 * Windows are written in local time: snap->now plus snap->utc_offset is
 * the wall clock they are read against, and nothing else tells the time.
 * lib/conf parses the windows and tells open from closed.
 */
#include "config.h"

#include "conf/conf_time.h"
#include "pass.h"

#define DAY_MIN 1440
#define WEEK_MIN (7 * DAY_MIN)

/* Minutes from `now_min` forward to `point` on a cycle of `len` minutes,
 * strictly later: a boundary at the current minute has already passed. */
static int
minutes_until(int now_min, int point, int len)
{
	int d = ((point - now_min) % len + len) % len;

	return d == 0 ? len : d;
}

/*
 * Seconds from t to the next minute at which any of the windows begins
 * or ends, or -1 when none ever does (no windows, or windows that are the
 * whole day or week).  A boundary where another window keeps the state is
 * still returned: a pass that finds nothing to do costs little.
 */
gint64
sched_windows_next_boundary(const GArray *windows, GDateTime *t)
{
	int mod, mow, sec, best = -1;

	if (windows == NULL)
		return -1;
	mod = g_date_time_get_hour(t) * 60 + g_date_time_get_minute(t);
	mow = (g_date_time_get_day_of_week(t) % 7) * DAY_MIN + mod;
	sec = g_date_time_get_second(t);
	for (guint i = 0; i < windows->len; i++) {
		const BsTimeWindow *w = &g_array_index(windows, BsTimeWindow, i);
		int b, e, now, len, d;

		if (w->begin_day < 0) {
			b = w->begin_min;
			e = w->end_min;
			now = mod;
			len = DAY_MIN;
		} else {
			b = w->begin_day * DAY_MIN + w->begin_min;
			e = w->end_day * DAY_MIN + w->end_min;
			now = mow;
			len = WEEK_MIN;
		}
		if (b % len == e % len)
			continue;	/* open all the time */
		d = MIN(minutes_until(now, b, len), minutes_until(now, e, len));
		if (best < 0 || d < best)
			best = d;
	}
	return best < 0 ? -1 : (gint64)best * 60 - sec;
}

static void
wake_for(Pass *p, const GArray *windows, GDateTime *t)
{
	gint64 s = sched_windows_next_boundary(windows, t);

	if (s > 0)
		plan_wake_at(p->plan, p->snap->now + s);
}

static void
hold(Pass *p, guint r, SchedDecisionKind kind)
{
	const SchedRunning *run = &p->snap->running[r];

	p->run_held[r] = TRUE;
	plan_add(p->plan, kind, r, 0);
	/* Suspended slots count as suspended from now on (count.h). */
	if (kind == SCHED_DO_WINDOW_SUSPEND)
		for (guint a = 0; a < run->n_allocs; a++)
			sched_count_suspend(&p->count, p->snap, run->user,
			    run->allocs[a].host, run->allocs[a].slots);
}

static void
release(Pass *p, guint r)
{
	const SchedRunning *run = &p->snap->running[r];

	plan_add(p->plan, SCHED_DO_WINDOW_RESUME, r, 0);
	for (guint a = 0; a < run->n_allocs; a++)
		sched_count_suspend(&p->count, p->snap, run->user,
		    run->allocs[a].host, -run->allocs[a].slots);
}

/* Running jobs against their queue's run window. */
static void
run_windows(Pass *p)
{
	const SchedSnapshot *s = p->snap;

	for (guint r = 0; r < s->n_running; r++) {
		const SchedRunning *run = &s->running[r];
		const SchedQueue *q = &s->queues[run->queue];

		if (!p->run_open[run->queue] && run->state == SCHED_RUN_RUN) {
			if (!q->terminate_on_window)
				hold(p, r, SCHED_DO_WINDOW_SUSPEND);
			else if (!run->terminating)
				hold(p, r, SCHED_DO_WINDOW_TERMINATE);
			else
				p->run_held[r] = TRUE;	/* on its way out */
		} else if (p->run_open[run->queue] &&
		    run->state == SCHED_RUN_SSUSP && run->window_held) {
			release(p, r);
		}
	}
}

void
stage_windows(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	GDateTime *t = g_date_time_new_from_unix_utc(s->now + s->utc_offset);

	p->queue_open = g_new(gboolean, MAX(s->n_queues, 1u));
	p->run_open = g_new(gboolean, MAX(s->n_queues, 1u));
	p->host_state = g_new(SchedHostState, MAX(s->n_hosts, 1u));
	p->run_held = g_new0(gboolean, MAX(s->n_running, 1u));
	for (guint q = 0; q < s->n_queues; q++) {
		const SchedQueue *sq = &s->queues[q];

		p->run_open[q] = bs_conf_windows_open(sq->run_window, t);
		p->queue_open[q] = p->run_open[q] &&
		    bs_conf_windows_open(sq->dispatch_window, t);
		wake_for(p, sq->run_window, t);
		wake_for(p, sq->dispatch_window, t);
	}
	for (guint h = 0; h < s->n_hosts; h++) {
		const SchedHost *sh = &s->hosts[h];

		p->host_state[h] = sh->state;
		if (sh->dispatch_window == NULL)
			continue;
		if (sh->state == SCHED_HOST_OK &&
		    !bs_conf_windows_open(sh->dispatch_window, t))
			p->host_state[h] = SCHED_HOST_CLOSED_WIND;
		wake_for(p, sh->dispatch_window, t);
	}
	run_windows(p);
	g_date_time_unref(t);
}
