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
		if (r->table != NULL)
			g_hash_table_remove(r->table, r->key);
		if (r->key != NULL)
			g_bytes_unref(r->key);
		/* The environment is shared, not the spec's to free. */
		r->spec->env = NULL;
		r->spec->n_env = 0;
		shared_env_unref(r->env);
		basalt__job_spec__free_unpacked(r->spec, NULL);
		bs_resreq_free(r->resreq);
		bs_depend_free(r->depend);
		g_free(r);
	}
}

/* Jobs freed in this process, by any state: see state_jobs_freed. */
static guint64 jobs_freed;

guint64
state_jobs_freed(void)
{
	return jobs_freed;
}

static void
job_free(Job *j)
{
	jobs_freed++;
	job_spec_ref_drop(j->spec);
	g_strfreev(j->exec_hosts);
	if (j->effective != NULL)
		basalt__job_effective__free_unpacked(j->effective, NULL);
	g_free(j->usage);
	g_clear_pointer(&j->pending_reason, g_ref_string_release);
	g_free(j->suspend_reason);
	g_free(j->exit_reason);
	if (j->preexec_hosts != NULL)
		g_ptr_array_free(j->preexec_hosts, TRUE);
	g_free(j->term_reason);
	job_msgs_free(j);
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

/* ---- shared environments ---- */

/*
 * Eight bytes a step: every submission's environment (~1.5 KB for a login
 * shell) is hashed to be interned, on replay and from a checkpoint too,
 * and g_str_hash's byte loop was most of what interning cost.
 */
static guint64
mix_bytes(guint64 h, const char *s, size_t len)
{
	const guint64 mul = G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
	guint64 w;
	size_t k;

	for (k = 0; k + 8 <= len; k += 8) {
		memcpy(&w, s + k, 8);
		h = (h ^ w) * mul;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s + k, len - k);
	h = (h ^ w ^ ((guint64)len << 48)) * mul;
	h ^= h >> 29;
	return h;
}

static guint
env_hash(char *const *vars, size_t n)
{
	guint64 h = n;

	for (size_t i = 0; i < n; i++)
		h = mix_bytes(h, vars[i], strlen(vars[i]));
	return (guint)(h ^ (h >> 32));
}

/* The specs' keys (apply.c) are a packed spec of a few hundred bytes:
 * g_bytes_hash's byte at a time was 8% of loading a checkpoint of jobs
 * with distinct specs. */
static guint
spec_key_hash(gconstpointer key)
{
	gsize len;
	const char *p = g_bytes_get_data((GBytes *)key, &len);
	guint64 h = mix_bytes(len, p, len);

	return (guint)(h ^ (h >> 32));
}

static guint
shared_env_hash(gconstpointer p)
{
	return ((const SharedEnv *)p)->hash;
}

static gboolean
shared_env_equal(gconstpointer pa, gconstpointer pb)
{
	const SharedEnv *a = pa, *b = pb;

	if (a->hash != b->hash || a->n != b->n)
		return FALSE;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->vars[i], b->vars[i]) != 0)
			return FALSE;
	return TRUE;
}

SharedEnv *
state_env_intern(State *st, char *const *vars, size_t n)
{
	SharedEnv key = { .hash = env_hash(vars, n), .n = n, .vars = (char **)vars };
	SharedEnv *e = g_hash_table_lookup(st->envs, &key);
	gsize bytes = (n + 1) * sizeof(char *);
	char *p;

	if (e != NULL) {
		e->ref++;
		return e;
	}
	for (size_t i = 0; i < n; i++)
		bytes += strlen(vars[i]) + 1;
	e = g_new(SharedEnv, 1);
	e->ref = 1;
	e->hash = key.hash;
	e->n = n;
	e->vars = g_malloc(bytes);
	p = (char *)(e->vars + n + 1);
	for (size_t i = 0; i < n; i++) {
		gsize len = strlen(vars[i]) + 1;

		memcpy(p, vars[i], len);
		e->vars[i] = p;
		p += len;
	}
	e->vars[n] = NULL;
	e->table = st->envs;
	g_hash_table_add(st->envs, e);
	return e;
}

void
shared_env_unref(SharedEnv *e)
{
	if (e == NULL || --e->ref > 0)
		return;
	if (e->table != NULL)
		g_hash_table_remove(e->table, e);
	g_free(e->vars);
	g_free(e);
}

/* ---- jobs by execution host ---- */

void
state_host_index_add(State *st, Job *j)
{
	GHashTable *set;

	if (j->exec_hosts == NULL || j->exec_hosts[0] == NULL)
		return;
	set = g_hash_table_lookup(st->by_host, j->exec_hosts[0]);
	if (set == NULL) {
		set = g_hash_table_new(g_direct_hash, g_direct_equal);
		g_hash_table_insert(st->by_host, g_strdup(j->exec_hosts[0]), set);
	}
	g_hash_table_add(set, j);
}

void
state_host_index_remove(State *st, Job *j)
{
	GHashTable *set;

	if (j->exec_hosts == NULL || j->exec_hosts[0] == NULL)
		return;
	set = g_hash_table_lookup(st->by_host, j->exec_hosts[0]);
	if (set != NULL && g_hash_table_remove(set, j) && g_hash_table_size(set) == 0)
		g_hash_table_remove(st->by_host, j->exec_hosts[0]);
}

GPtrArray *
state_jobs_on_host(const State *st, const char *host)
{
	GHashTable *set = g_hash_table_lookup(st->by_host, host);
	GPtrArray *out = g_ptr_array_new();
	GHashTableIter it;
	gpointer j;

	if (set == NULL)
		return out;
	g_hash_table_iter_init(&it, set);
	while (g_hash_table_iter_next(&it, &j, NULL))
		g_ptr_array_add(out, j);
	return out;
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
	st->envs = g_hash_table_new(shared_env_hash, shared_env_equal);
	st->specs = g_hash_table_new(spec_key_hash, g_bytes_equal);
	st->by_host = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    (GDestroyNotify)g_hash_table_destroy);
	state_dep_index_init(st);
	state_tokens_init(st);
	state_jobgroups_init(st);
	state_leases_init(st);
	return st;
}

void
state_free(State *st)
{
	GHashTableIter it;
	gpointer e;

	if (st == NULL)
		return;
	g_queue_clear(&st->finished);
	g_hash_table_destroy(st->by_host);
	state_dep_index_free(st);
	g_hash_table_destroy(st->queues);
	g_hash_table_destroy(st->jobs);
	state_tokens_free(st);
	state_jobgroups_free(st);
	state_leases_free(st);
	g_hash_table_destroy(st->hosts);
	g_hash_table_destroy(st->interned);
	state_ckpt_refs_drop(st);
	/* Specs still held elsewhere live on, unlisted. */
	g_hash_table_iter_init(&it, st->specs);
	while (g_hash_table_iter_next(&it, NULL, &e))
		((JobSpecRef *)e)->table = NULL;
	g_hash_table_destroy(st->specs);
	/* Specs still held elsewhere keep their environment, unlisted. */
	g_hash_table_iter_init(&it, st->envs);
	while (g_hash_table_iter_next(&it, &e, NULL))
		((SharedEnv *)e)->table = NULL;
	g_hash_table_destroy(st->envs);
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

Basalt__JobEffective *
job_effective_copy(const Basalt__JobEffective *e)
{
	size_t len = basalt__job_effective__get_packed_size(e);
	g_autofree guint8 *buf = g_malloc(len > 0 ? len : 1);

	/* Through the wire form, so that protobuf-c's free_unpacked is the
	 * one free for every copy, whatever fields the message grows. */
	basalt__job_effective__pack(e, buf);
	return basalt__job_effective__unpack(NULL, len, buf);
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
	g_clear_pointer(&j->pending_reason, g_ref_string_release);
	j->pending_reason = reason != NULL ? g_ref_string_new_intern(reason) : NULL;
}

const Basalt__ResourceUsage *
job_usage(const Job *j)
{
	static const Basalt__ResourceUsage none = BASALT__RESOURCE_USAGE__INIT;

	return j->usage != NULL ? &j->usage->usage : &none;
}

JobUsage *
job_usage_ensure(Job *j)
{
	if (j->usage == NULL) {
		j->usage = g_new0(JobUsage, 1);
		basalt__resource_usage__init(&j->usage->usage);
		basalt__resource_usage__init(&j->usage->task_usage);
	}
	return j->usage;
}

static gboolean
usage_is_zero(const Basalt__ResourceUsage *u)
{
	return u->utime_us == 0 && u->stime_us == 0 && u->max_rss_kb == 0 &&
	    u->rss_kb == 0 && u->nprocs == 0 && u->pgid == 0 &&
	    u->avg_rss_kb == 0 && u->max_nprocs == 0 && u->nthreads == 0 &&
	    u->max_nthreads == 0 && u->swap_kb == 0 && u->max_swap_kb == 0;
}

void
job_set_usage(Job *j, const Basalt__ResourceUsage *u)
{
	Basalt__ResourceUsage *ju;

	/* Nothing used (a checkpoint's status of a job that never ran):
	 * the record stays unmade. */
	if (j->usage == NULL && usage_is_zero(u))
		return;
	ju = &job_usage_ensure(j)->usage;

	ju->utime_us = u->utime_us;
	ju->stime_us = u->stime_us;
	ju->max_rss_kb = MAX(ju->max_rss_kb, u->max_rss_kb);
	ju->rss_kb = u->rss_kb;
	ju->nprocs = u->nprocs;
	ju->pgid = u->pgid;
	/* Accounting (sbatchd keeps the run's maxima and mean; an older
	 * sbatchd sends none, so a maximum never goes down). */
	ju->avg_rss_kb = u->avg_rss_kb != 0 ? u->avg_rss_kb : ju->avg_rss_kb;
	ju->max_nprocs = MAX(ju->max_nprocs, MAX(u->max_nprocs, u->nprocs));
	ju->nthreads = u->nthreads;
	ju->max_nthreads = MAX(ju->max_nthreads, MAX(u->max_nthreads, u->nthreads));
	ju->swap_kb = u->swap_kb;
	ju->max_swap_kb = MAX(ju->max_swap_kb, MAX(u->max_swap_kb, u->swap_kb));
}

guint
job_preexec_fails(const Job *j, const char *host)
{
	guint n = 0;

	if (j->preexec_hosts == NULL)
		return 0;
	if (host == NULL)
		return j->preexec_hosts->len;
	for (guint i = 0; i < j->preexec_hosts->len; i++)
		if (strcmp(j->preexec_hosts->pdata[i], host) == 0)
			n++;
	return n;
}
