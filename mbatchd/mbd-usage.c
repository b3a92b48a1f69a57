/*
 * Accumulated slot usage per queue, decayed over time: what orders the
 * queues of a slot pool (queue-based fairshare), so each queue's running
 * count stays near its share over time.  Usage is slot-seconds; it halves
 * every POOL_USAGE_HALF_LIFE hours (lsb.params; HIST_HOURS by default; 0
 * means no decay).  It is volatile on purpose: after a restart the pool
 * starts even, which only shifts who goes first for a while.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mbatchd/mbd.h"

static double
half_life_s(const Manager *m)
{
	int h = m->cfg->params->pool_usage_half_life;

	if (h == BS_CONF_UNLIMITED)
		h = m->cfg->params->hist_hours;
	return h > 0 ? (double)h * 3600.0 : 0.0;
}

static void
add_run(Manager *m, const Job *j, double dt)
{
	double *u;

	if (j->state != JS_RUN)
		return;
	u = g_hash_table_lookup(m->queue_usage, j->queue);
	if (u == NULL) {
		u = g_new0(double, 1);
		g_hash_table_insert(m->queue_usage, (gpointer)j->queue, u);
	}
	*u += job_slots(j) * dt;
}

void
usage_tick(Manager *m)
{
	gint64 now = g_get_monotonic_time();
	double dt = m->usage_last > 0 ? (double)(now - m->usage_last) / G_USEC_PER_SEC : 0;
	double hl = half_life_s(m);
	double factor = hl > 0 ? pow(0.5, dt / hl) : 1.0;
	GHashTableIter it;
	gpointer k, v;

	m->usage_last = now;
	g_hash_table_iter_init(&it, m->queue_usage);
	while (g_hash_table_iter_next(&it, &k, &v))
		*(double *)v *= factor;
	if (dt <= 0)
		return;
	/* A running job was dispatched, so it has hosts and is in by_host:
	 * walking that index rather than every job keeps the tick's cost
	 * with the started jobs, not with a million pending ones. */
	g_hash_table_iter_init(&it, m->st->by_host);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		GHashTableIter jt;
		gpointer jv;

		g_hash_table_iter_init(&jt, v);
		while (g_hash_table_iter_next(&jt, &jv, NULL))
			add_run(m, jv, dt);
	}
}

double
usage_of(const Manager *m, const char *queue)
{
	const double *u = g_hash_table_lookup(m->queue_usage, queue);

	return u != NULL ? *u : 0.0;
}
