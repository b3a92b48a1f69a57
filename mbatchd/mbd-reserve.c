/*
 * Slot reservations kept between scheduling passes (mbd-reserve.h): what
 * the last plan reserved, per job, and per host for bhosts.  The table is
 * replaced whole after each pass, so a job that started, ended or lost
 * its reservation simply is not in it any more.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/mbd-reserve.h"

static void
entry_free(gpointer p)
{
	MbdReserve *r = p;

	g_strfreev(r->hosts);
	g_free(r);
}

void
reserve_table_init(Manager *m)
{
	m->reserves = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
	    entry_free);
	m->reserved_on = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

void
reserve_table_free(Manager *m)
{
	g_clear_pointer(&m->reserves, g_hash_table_destroy);
	g_clear_pointer(&m->reserved_on, g_hash_table_destroy);
}

const MbdReserve *
reserve_of(Manager *m, const Job *j)
{
	return m->reserves != NULL ? g_hash_table_lookup(m->reserves, &j->key) : NULL;
}

guint
reserve_on_host(Manager *m, const char *host)
{
	return m->reserved_on != NULL ?
	    GPOINTER_TO_UINT(g_hash_table_lookup(m->reserved_on, host)) : 0;
}

/* -W, else the application's or the queue's RUNLIMIT: effective.c's rule
 * for the run limit, without building the whole effective set for every
 * pending job of every pass.  (-W above a maximum was refused at
 * submission.) */
static gint64
pending_run_limit(const BsConfig *cfg, const BsQueueConf *qc,
    const Basalt__JobSpec *spec)
{
	if (spec->runlimit_s > 0)
		return (gint64)spec->runlimit_s;
	return sched_input_run_limit(qc, effective_app(cfg, spec));
}

gint64
reserve_running_limit(const Job *j)
{
	return j->effective != NULL && j->effective->runlimit_s != NULL ?
	    (gint64)j->effective->runlimit_s->value : 0;
}

void
reserve_to_snapshot(Build *b, const Job *j, const BsQueueConf *qc, SchedJob *sj)
{
	const MbdReserve *r;
	guint first = b->allocs->len;

	if (qc->backfill)
		sj->run_limit = pending_run_limit(b->cfg, qc, job_spec(j));
	if ((r = reserve_of(b->m, j)) == NULL)
		return;
	sj->reserve_banned_until = r->banned_until;
	for (guint i = 0; r->hosts != NULL && r->hosts[i] != NULL; i++) {
		SchedAlloc a = { .slots = 1 };
		SchedAlloc *last = b->allocs->len > first ?
		    &g_array_index(b->allocs, SchedAlloc, b->allocs->len - 1) : NULL;

		/* A host gone from the configuration drops out. */
		if (!sched_input_host(&b->in, r->hosts[i], &a.host))
			continue;
		if (last != NULL && last->host == a.host) {
			last->slots++;
			continue;
		}
		g_array_append_val(b->allocs, a);
	}
	if (b->allocs->len == first)
		return;
	sj->reserved = GUINT_TO_POINTER(first + 1);
	sj->n_reserved = b->allocs->len - first;
	sj->reserve_since = r->since;
}

void
reserve_fix_pointers(Build *b, SchedJob *sj)
{
	if (sj->reserved != NULL)
		sj->reserved = (SchedAlloc *)(void *)b->allocs->data +
		    GPOINTER_TO_UINT(sj->reserved) - 1;
}

void
reserve_from_plan(Manager *m, Build *b, const SchedPlan *plan)
{
	g_hash_table_remove_all(m->reserves);
	g_hash_table_remove_all(m->reserved_on);
	for (guint i = 0; i < plan->reserves->len; i++) {
		const SchedReserve *sr = &g_array_index(plan->reserves, SchedReserve, i);
		const Job *j = g_ptr_array_index(b->pending_jobs, sr->job);
		MbdReserve *r = g_new0(MbdReserve, 1);
		GPtrArray *hosts = g_ptr_array_new();

		r->since = sr->since;
		r->start = sr->start;
		r->banned_until = sr->banned_until;
		for (guint a = sr->first_alloc; a < sr->first_alloc + sr->n_allocs; a++) {
			const SchedAlloc *al = &g_array_index(plan->allocs, SchedAlloc, a);
			const char *name = b->snap.hosts[al->host].name;
			guint had = reserve_on_host(m, name);

			for (int s = 0; s < al->slots; s++)
				g_ptr_array_add(hosts, g_strdup(name));
			g_hash_table_replace(m->reserved_on, g_strdup(name),
			    GUINT_TO_POINTER(had + (guint)al->slots));
		}
		if (hosts->len > 0) {
			g_ptr_array_add(hosts, NULL);
			r->hosts = (char **)g_ptr_array_free(hosts, FALSE);
		} else {
			g_ptr_array_free(hosts, TRUE);
		}
		g_hash_table_replace(m->reserves, g_memdup2(&j->key, sizeof j->key), r);
	}
}
