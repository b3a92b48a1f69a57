/*
 * The tables behind State and the small queries everyone needs.  Names
 * (users, queues, hosts, job names) are interned once in a string chunk:
 * a hundred thousand jobs of one user then share one copy of "alice".
 */
#include "config.h"

#include <string.h>

#include "job/depend.h"
#include "resreq/resreq.h"
#include "state.h"

void
job_spec_ref_drop(JobSpecRef *r)
{
	if (r != NULL && g_atomic_int_dec_and_test(&r->ref)) {
		basalt__job_spec__free_unpacked(r->spec, NULL);
		bs_resreq_free(r->resreq);
		bs_depend_free(r->depend);
		g_free(r);
	}
}

static void
job_free(Job *j)
{
	job_spec_ref_drop(j->spec);
	g_strfreev(j->exec_hosts);
	g_free(j->pending_reason);
	g_free(j->suspend_reason);
	g_free(j);
}

static void
queue_rt_free(QueueRt *q)
{
	g_queue_clear(&q->pending);
	g_free(q);
}

static void
host_rt_free(HostRt *h)
{
	g_free(h->close_comment);
	g_free(h);
}

/*
 * The jobs table's hash.  Not g_int64_hash: before GLib 2.80 it keeps only
 * the low 32 bits, which in a job_key are the array index, 0 for every job
 * that is not an element; the table then degenerates into one long probe
 * chain (a million journal records took 4 s to replay instead of 1).
 */
static guint
job_key_hash(gconstpointer k)
{
	guint64 v = *(const guint64 *)k;

	return (guint)((v >> 32) ^ (v & 0xffffffffu) * 0x9e3779b1u);
}

State *
state_new(void)
{
	State *st = g_new0(State, 1);

	st->jobs = g_hash_table_new_full(job_key_hash, g_int64_equal, NULL,
	    (GDestroyNotify)job_free);
	st->queues = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    (GDestroyNotify)queue_rt_free);
	st->hosts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    (GDestroyNotify)host_rt_free);
	g_queue_init(&st->finished);
	st->names = g_string_chunk_new(4096);
	st->interned = g_hash_table_new(g_str_hash, g_str_equal);
	return st;
}

void
state_free(State *st)
{
	if (st == NULL)
		return;
	g_queue_clear(&st->finished);
	g_hash_table_destroy(st->queues);
	g_hash_table_destroy(st->jobs);
	g_hash_table_destroy(st->hosts);
	g_hash_table_destroy(st->interned);
	g_string_chunk_free(st->names);
	g_free(st);
}

const char *
state_intern(State *st, const char *s)
{
	char *copy;

	if (s == NULL)
		return NULL;
	copy = g_hash_table_lookup(st->interned, s);
	if (copy == NULL) {
		copy = g_string_chunk_insert(st->names, s);
		g_hash_table_add(st->interned, copy);
	}
	return copy;
}

Job *
state_job(const State *st, guint64 id, guint32 index)
{
	guint64 key = job_key(id, index);

	return g_hash_table_lookup(st->jobs, &key);
}

QueueRt *
state_queue(State *st, const char *name)
{
	return g_hash_table_lookup(st->queues, name);
}

QueueRt *
state_queue_ensure(State *st, const char *name)
{
	QueueRt *q = state_queue(st, name);

	if (q == NULL) {
		q = g_new0(QueueRt, 1);
		q->name = state_intern(st, name);
		q->open = TRUE;
		q->active = TRUE;
		g_queue_init(&q->pending);
		g_hash_table_insert(st->queues, (gpointer)q->name, q);
	}
	return q;
}

HostRt *
state_host_ensure(State *st, const char *name)
{
	HostRt *h = g_hash_table_lookup(st->hosts, name);

	if (h == NULL) {
		h = g_new0(HostRt, 1);
		h->name = state_intern(st, name);
		g_hash_table_insert(st->hosts, (gpointer)h->name, h);
	}
	return h;
}

gboolean
job_is_pending(const Job *j)
{
	return j->state == JS_PEND || j->state == JS_PSUSP;
}

gboolean
job_is_started(const Job *j)
{
	return j->state == JS_RUN || j->state == JS_USUSP ||
	    j->state == JS_SSUSP || j->state == JS_UNKWN;
}

gboolean
job_is_finished(const Job *j)
{
	return j->state == JS_DONE || j->state == JS_EXIT;
}

const char *
job_state_name(JobState s)
{
	static const char *const names[] = {
		[JS_PEND] = "PEND", [JS_PSUSP] = "PSUSP", [JS_RUN] = "RUN",
		[JS_USUSP] = "USUSP", [JS_SSUSP] = "SSUSP", [JS_DONE] = "DONE",
		[JS_EXIT] = "EXIT", [JS_UNKWN] = "UNKWN", [JS_ZOMBI] = "ZOMBI",
	};

	if ((guint)s < G_N_ELEMENTS(names) && names[s] != NULL)
		return names[s];
	return "UNKWN";
}

int
job_slots(const Job *j)
{
	const Basalt__JobSpec *spec = job_spec(j);

	if (j->exec_hosts != NULL)
		return (int)g_strv_length(j->exec_hosts);
	return spec != NULL && spec->min_slots > 0 ? (int)spec->min_slots : 1;
}

const Basalt__JobSpec *
job_spec(const Job *j)
{
	return j->spec != NULL ? j->spec->spec : NULL;
}

void
job_set_pending_reason(Job *j, const char *reason)
{
	if (g_strcmp0(j->pending_reason, reason) == 0)
		return;
	g_free(j->pending_reason);
	j->pending_reason = g_strdup(reason);
}

void
job_set_usage(Job *j, const Basalt__ResourceUsage *u)
{
	j->usage.utime_us = u->utime_us;
	j->usage.stime_us = u->stime_us;
	j->usage.max_rss_kb = MAX(j->usage.max_rss_kb, u->max_rss_kb);
	j->usage.rss_kb = u->rss_kb;
	j->usage.nprocs = u->nprocs;
	j->usage.pgid = u->pgid;
}
