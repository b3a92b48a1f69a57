/*
 * The provider's side of the job relay (mc-jobs.h): a consumer cluster's
 * RemoteStart becomes a job record here, dispatched through mbd-orders.c
 * to the leased host's sbatchd; its changes go back as RemoteStatus.
 *
 * Who may start what (the provider runs another cluster's job as one of
 * its own users):
 *   - only over an ok link: MUNGE root from a host lsf.shared lists as a
 *     Server of the cluster the link speaks for (mc-links.c), and that
 *     cluster is the consumer this side names, whatever the message says;
 *   - only on hosts of a lease whose consumer is that cluster and whose
 *     provider is this one, within the consumer's slots there now;
 *   - only as a user with an account here, with its uid and gid from
 *     this side's passwd, whatever the consumer said; root only when this
 *     cluster's lsf.conf says LSF_ROOT_REX=all (LSF's switch for root jobs
 *     from other clusters; "local" or any other value admits only this
 *     cluster's own), and then the host's sbatchd still applies its own
 *     LSF_ROOT_REX / LSB_ALLOW_ROOT_JOBS;
 *   - sizes: names bounded, at most MAX_RELAY_HOSTS slots per run, the
 *     frame bounds the rest.
 */
#include "config.h"

#include <pwd.h>
#include <string.h>

#include "mbatchd/mbd-orders.h"
#include "mbatchd/mc-jobs.h"
#include "mbatchd/mc-links.h"
#include "mbatchd/sched/lease.h"
#include "mbatchd/svc/svc.h"
#include "util/error.h"
#include "util/log.h"

#define MAX_RELAY_HOSTS 4096
#define MAX_NAME 255
#define STATUS_TIMEOUT_MS 10000
#define RETRY_S 5
#define LOST_REASON "The run was lost on this cluster; its consumer cluster " \
    "places the job again;"
/* A record whose dispatch here failed: the run never started, and the
 * consumer is told so (PEND), whether or not it saw the refusal. */
#define NOT_STARTED_PREFIX "Not started on this cluster: "

/* A relayed record whose state the consumer has not acknowledged yet. */
typedef struct {
	guint64 key;              /* Job.key of the record */
	gboolean in_flight;
	JobState sent_state;
	int sent_pgid;
} Outgoing;

typedef struct McJobs {
	Manager *m;
	GHashTable *out;          /* &Outgoing.key -> Outgoing */
	/* "cluster\nid\nindex" -> the Job.key (guint64*) of the latest run's
	 * record, built on first use (after the journal's replay) and kept
	 * by record_new(): a start or signal finds its record without
	 * walking every job.  A cleaned record leaves a key state_job()
	 * no longer knows: none. */
	GHashTable *by_origin;
	gboolean indexed;
	guint flush_source;
	guint retry_timer;
	guint resend_timer;       /* mc-jobs-consumer.c's */
} McJobs;

static McJobs *
mcj(Manager *m)
{
	return m->mc_jobs;
}

gboolean
mc_jobs_remote_host(const char *host, const char **cluster)
{
	const char *at = host != NULL ? strchr(host, '@') : NULL;

	if (at == NULL || at == host || at[1] == '\0')
		return FALSE;
	if (cluster != NULL)
		*cluster = at + 1;
	return TRUE;
}

const Basalt__RemoteOrigin *
mc_jobs_origin(const Job *j)
{
	const Basalt__JobSpec *spec = j != NULL ? job_spec(j) : NULL;

	return spec != NULL ? spec->mc_origin : NULL;
}

static guint
method(const char *name)
{
	const ProtobufCMethodDescriptor *d =
	    protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__cluster_service__descriptor, name);

	return (guint)(d - basalt__cluster_service__descriptor.methods);
}

static const char *
local_cluster(Manager *m)
{
	return m->cfg->cluster->name;
}

static gboolean
name_ok(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	if (n == 0 || n > MAX_NAME)
		return FALSE;
	for (const char *p = s; *p != '\0'; p++)
		if (!g_ascii_isgraph(*p))
			return FALSE;
	return TRUE;
}

/* ---- the records ----------------------------------------------------------- */

static gboolean
origin_is(const Basalt__RemoteOrigin *o, const char *cluster, guint64 id,
    guint32 index)
{
	return o != NULL && o->job_id == id && o->array_index == index &&
	    g_strcmp0(o->cluster, cluster) == 0;
}

static char *
origin_key(const char *cluster, guint64 id, guint32 index)
{
	return g_strdup_printf("%s\n%" G_GUINT64_FORMAT "\n%u", cluster, id, index);
}

static void
index_put(McJobs *x, const Basalt__RemoteOrigin *o, guint64 key)
{
	guint64 *v = g_new(guint64, 1);

	*v = key;
	g_hash_table_replace(x->by_origin, origin_key(o->cluster, o->job_id,
	    o->array_index), v);
}

static void
index_build(McJobs *x)
{
	GHashTableIter it;
	gpointer v;

	x->indexed = TRUE;
	g_hash_table_iter_init(&it, x->m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		const Basalt__RemoteOrigin *o = mc_jobs_origin(j);
		g_autofree char *k = NULL;
		const guint64 *have;
		const Job *h;

		if (o == NULL)
			continue;
		k = origin_key(o->cluster, o->job_id, o->array_index);
		have = g_hash_table_lookup(x->by_origin, k);
		h = have != NULL ? state_job(x->m->st, *have >> 32,
		    (guint32)(*have & 0xffffffffu)) : NULL;
		if (h == NULL || mc_jobs_origin(h)->instance < o->instance)
			index_put(x, o, j->key);
	}
}

/* The record of the consumer's latest run of the job, NULL: none. */
static Job *
record_latest(Manager *m, const char *cluster, guint64 id, guint32 index)
{
	McJobs *x = mcj(m);
	g_autofree char *k = origin_key(cluster, id, index);
	const guint64 *key;
	Job *j;

	if (!x->indexed)
		index_build(x);
	key = g_hash_table_lookup(x->by_origin, k);
	j = key != NULL ? state_job(m->st, *key >> 32,
	    (guint32)(*key & 0xffffffffu)) : NULL;
	return origin_is(mc_jobs_origin(j), cluster, id, index) ? j : NULL;
}

/* The record of run `instance` (0: the latest run). */
static Job *
record_find(Manager *m, const char *cluster, guint64 id, guint32 index,
    guint32 instance)
{
	Job *j = record_latest(m, cluster, id, index);

	if (j == NULL || (instance != 0 && mc_jobs_origin(j)->instance != instance))
		return NULL;
	return j;
}

/* mc-jobs.h.  A record's first host is one of the cluster's lease hosts
 * (its job set in by_host holds it): only their jobs are looked at, each
 * host's once however many leases name it. */
GHashTable *
mc_jobs_relayed_slots(Manager *m, const char *cluster)
{
	GHashTable *used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	const GPtrArray *leases = state_leases(m->st);

	for (guint i = 0; i < leases->len; i++) {
		const Lease *l = g_ptr_array_index(leases, i);

		if (g_strcmp0(l->consumer, cluster) != 0)
			continue;
		for (guint h = 0; h < l->hosts->len; h++) {
			const LeaseHost *lh = g_ptr_array_index(l->hosts, h);
			g_autoptr(GPtrArray) jobs = NULL;

			if (!g_hash_table_add(seen, lh->name))
				continue;
			jobs = state_jobs_on_host(m->st, lh->name);
			for (guint k = 0; k < jobs->len; k++) {
				const Job *j = g_ptr_array_index(jobs, k);
				const Basalt__RemoteOrigin *o = mc_jobs_origin(j);

				if (o == NULL || g_strcmp0(o->cluster, cluster) != 0 ||
				    !job_is_started(j) || j->exec_hosts == NULL)
					continue;
				for (char **e = j->exec_hosts; *e != NULL; e++)
					g_hash_table_replace(used, g_strdup(*e), GINT_TO_POINTER(
					    GPOINTER_TO_INT(g_hash_table_lookup(used, *e)) + 1));
			}
		}
	}
	return used;
}

/* The consumer's slots on host in its leases from this cluster; -1: the
 * host is in none of them. */
static int
leased_slots(Manager *m, const char *cluster, const char *host)
{
	const GPtrArray *leases = state_leases(m->st);
	int slots = -1;

	for (guint i = 0; i < leases->len; i++) {
		const Lease *l = g_ptr_array_index(leases, i);

		if (g_strcmp0(l->consumer, cluster) != 0 ||
		    g_strcmp0(l->provider, local_cluster(m)) != 0)
			continue;
		for (guint h = 0; h < l->hosts->len; h++) {
			const LeaseHost *lh = g_ptr_array_index(l->hosts, h);

			if (strcmp(lh->name, host) == 0)
				slots = MAX(slots, 0) + lh->consumer_slots;
		}
	}
	return slots;
}

/* LSF_ROOT_REX=all: root jobs of other clusters are accepted. */
static gboolean
root_from_clusters(Manager *m)
{
	const char *v = g_hash_table_lookup(m->cfg->lsf->values, "LSF_ROOT_REX");

	return v != NULL && g_ascii_strcasecmp(v, "all") == 0;
}

static const char *
proxy_queue(Manager *m)
{
	const char *const *dq = bs_config_default_queues(m->cfg);

	for (; dq != NULL && *dq != NULL; dq++)
		if (bs_config_queue(m->cfg, *dq) != NULL)
			return *dq;
	if (m->cfg->queues->len == 0)
		return NULL;
	return ((const BsQueueConf *)g_ptr_array_index(m->cfg->queues, 0))->name;
}

/* The hosts of the run, this side's names; NULL with *why when one is
 * not this cluster's or not leased to the consumer with a slot free. */
static char **
local_hosts(Manager *m, const char *cluster,
    const Basalt__RemoteStartRequest *s, char **why)
{
	g_autoptr(GHashTable) want = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) used = NULL;
	GHashTableIter it;
	gpointer k, v;

	if (s->n_exec_hosts == 0 || s->n_exec_hosts > MAX_RELAY_HOSTS) {
		*why = g_strdup_printf("a run of 1 to %d slots", MAX_RELAY_HOSTS);
		return NULL;
	}
	for (size_t i = 0; i < s->n_exec_hosts; i++) {
		const char *at;
		char *h;

		if (!name_ok(s->exec_hosts[i]) ||
		    !mc_jobs_remote_host(s->exec_hosts[i], &at) ||
		    strcmp(at, local_cluster(m)) != 0) {
			*why = g_strdup_printf("host %.64s is not a host of "
			    "cluster %s", s->exec_hosts[i], local_cluster(m));
			return NULL;
		}
		h = g_strndup(s->exec_hosts[i], (gsize)(at - 1 - s->exec_hosts[i]));
		g_ptr_array_add(out, h);
		g_hash_table_insert(want, h, GINT_TO_POINTER(
		    GPOINTER_TO_INT(g_hash_table_lookup(want, h)) + 1));
	}
	used = mc_jobs_relayed_slots(m, cluster);
	g_hash_table_iter_init(&it, want);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		int slots = leased_slots(m, cluster, k);

		if (slots < 0) {
			*why = g_strdup_printf("host %s is not leased to "
			    "cluster %s", (char *)k, cluster);
			return NULL;
		}
		if (GPOINTER_TO_INT(g_hash_table_lookup(used, k)) + GPOINTER_TO_INT(v) > slots) {
			*why = g_strdup_printf("cluster %s has no free slot of "
			    "its lease on host %s", cluster, (char *)k);
			return NULL;
		}
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_steal(out, NULL);
}

/*
 * The user's path patterns name the user's job, the consumer's: %J and %EJ
 * become its id, %I and %EI its index, here, before this side's sbatchd
 * expands the rest with this record's identity (bsub(1) PATH PATTERNS).
 * %% stays for sbatchd, so %%J still means a literal %J.
 */
static char *
origin_path(const char *tmpl, guint64 id, guint32 index)
{
	GString *out;

	if (tmpl == NULL || strchr(tmpl, '%') == NULL)
		return NULL;
	out = g_string_new(NULL);
	for (const char *p = tmpl; *p != '\0'; p++) {
		if (p[0] != '%' || p[1] == '\0') {
			g_string_append_c(out, *p);
		} else if (p[1] == '%' || strncmp(p + 1, "JG", 2) == 0) {
			g_string_append_len(out, p, 2);
			p++;
		} else if (p[1] == 'J' || strncmp(p + 1, "EJ", 2) == 0) {
			g_string_append_printf(out, "%" G_GUINT64_FORMAT, id);
			p += p[1] == 'E' ? 2 : 1;
		} else if (p[1] == 'I' || strncmp(p + 1, "EI", 2) == 0) {
			g_string_append_printf(out, "%u", index);
			p += p[1] == 'E' ? 2 : 1;
		} else {
			g_string_append_c(out, *p);
		}
	}
	return g_string_free(out, FALSE);
}

/* Journal the record of the consumer's run: EvJobNew with the origin. */
static Job *
record_new(Manager *m, const char *cluster, const Basalt__RemoteStartRequest *s,
    const char *host, const struct passwd *pw, const char *queue, GError **err)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = *s->spec;
	Basalt__RemoteOrigin o = BASALT__REMOTE_ORIGIN__INIT;
	g_autofree char *name = NULL;
	g_autofree char *cwd = origin_path(spec.cwd, s->job_id, s->array_index);
	g_autofree char *out = origin_path(spec.stdout_path, s->job_id, s->array_index);
	g_autofree char *errp = origin_path(spec.stderr_path, s->job_id, s->array_index);
	g_autofree char *in = origin_path(spec.stdin_path, s->job_id, s->array_index);
	g_autofree char *outdir = origin_path(spec.outdir, s->job_id, s->array_index);

	if (cwd != NULL)
		spec.cwd = cwd;
	if (out != NULL)
		spec.stdout_path = out;
	if (errp != NULL)
		spec.stderr_path = errp;
	if (in != NULL)
		spec.stdin_path = in;
	if (outdir != NULL)
		spec.outdir = outdir;
	o.cluster = (char *)cluster;
	o.job_id = s->job_id;
	o.array_index = s->array_index;
	o.instance = s->instance;
	o.host = (char *)host;
	/* What names the consumer's world, or acts at submission or in this
	 * side's scheduler, does not cross: the run is placed already. */
	spec.mc_origin = &o;
	spec.n_queues = 0;
	spec.queues = NULL;
	spec.n_hosts = 0;
	spec.hosts = NULL;
	spec.dependency = NULL;
	spec.app_profile = NULL;
	spec.job_group = NULL;
	spec.consumer = NULL;
	spec.hold = FALSE;
	spec.begin_time = 0;
	spec.mail_user = NULL;
	spec.notify_begin = FALSE;
	spec.notify_end = FALSE;
	if ((e.job_id = svc_next_job_id(m)) == 0) {
		g_set_error_literal(err, BS_ERROR, BS_ERROR_FAILED,
		    "no job id is free below MAX_JOBID");
		return NULL;
	}
	e.spec = &spec;
	e.user = pw->pw_name;
	e.uid = pw->pw_uid;
	e.gid = pw->pw_gid;
	e.queue = (char *)queue;
	e.from_host = (char *)cluster;
	/* What bjobs here shows: whose job this is, "ID@cluster". */
	name = s->array_index != 0 ?
	    g_strdup_printf("%" G_GUINT64_FORMAT "[%u]@%s", s->job_id,
	    s->array_index, cluster) :
	    g_strdup_printf("%" G_GUINT64_FORMAT "@%s", s->job_id, cluster);
	e.job_name = name;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	if (!manager_commit(m, &ev, err))
		return NULL;
	if (mcj(m)->indexed)
		index_put(mcj(m), &o, job_key(e.job_id, 0));
	return state_job(m->st, e.job_id, 0);
}

static void
remote_start(Manager *m, const char *cluster, const ProtobufCMessage *msg,
    ProtobufCClosure closure, void *call, void *data)
{
	const Basalt__RemoteStartRequest *s =
	    (const Basalt__RemoteStartRequest *)msg;
	Basalt__RemoteStartReply r = BASALT__REMOTE_START_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	g_autofree char *why = NULL;
	g_auto(GStrv) hosts = NULL;
	g_autoptr(GError) err = NULL;
	const struct passwd *pw = NULL;
	const char *queue = NULL;
	Job *j = NULL, *old;

	(void)data;
	e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
	if (s->spec == NULL || s->job_id == 0 || s->instance == 0)
		why = g_strdup("a start order names a job, its run and its spec");
	else if (!name_ok(s->user))
		why = g_strdup("a start order names its user");
	else if (s->spec->interactive != 0)
		why = g_strdup("interactive jobs do not run on leased hosts");
	if (why == NULL && (j = record_find(m, cluster, s->job_id,
	    s->array_index, s->instance)) != NULL) {
		/* A repeat (a reply lost, a link back): that run is there. */
		r.provider_job_id = j->id;
		r.duplicate = TRUE;
		closure(&r.base, call);
		return;
	}
	/* A repeat of a run older than one this side has: the consumer moved
	 * on long ago; never started again. */
	if (why == NULL && (old = record_latest(m, cluster, s->job_id,
	    s->array_index)) != NULL && mc_jobs_origin(old)->instance > s->instance)
		why = g_strdup_printf("run %u of the job is older than run %u "
		    "known here", s->instance, mc_jobs_origin(old)->instance);
	if (why == NULL)
		hosts = local_hosts(m, cluster, s, &why);
	if (why == NULL && ((pw = getpwnam(s->user)) == NULL)) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
		why = g_strdup_printf("User <%s> has no account in cluster %s",
		    s->user, local_cluster(m));
	} else if (why == NULL && pw->pw_uid == 0 && !root_from_clusters(m)) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
		why = g_strdup_printf("Cluster %s runs root jobs of other "
		    "clusters only with LSF_ROOT_REX=all", local_cluster(m));
	}
	if (why == NULL && (queue = proxy_queue(m)) == NULL)
		why = g_strdup_printf("cluster %s has no queue", local_cluster(m));
	/* An older run of the same job still here: the consumer moved on
	 * (requeued it), so that run is killed before the new one starts. */
	old = why == NULL ? record_latest(m, cluster, s->job_id, s->array_index) : NULL;
	if (old != NULL && job_is_started(old))
		orders_terminate(m, old, NULL, "the consumer cluster started "
		    "the job again", FALSE, NULL);
	if (why == NULL && (j = record_new(m, cluster, s, hosts[0], pw, queue, &err)) == NULL) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_INTERNAL;
		why = g_strdup(err->message);
	}
	if (why == NULL && !orders_dispatch_limits(m, j, hosts, s->effective, &err)) {
		JobOutcome out = { .exit_status = 127 };
		g_autofree char *ended = NULL;

		e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
		why = g_strdup(err != NULL ? err->message : "refused");
		ended = g_strconcat(NOT_STARTED_PREFIX, why, NULL);
		/* Never run: the record ends, the consumer places the job
		 * again (it goes back to pending there). */
		if (job_is_pending(j))
			commit_job_status(m, j, JS_EXIT, &out, ended);
	}
	if (why != NULL) {
		log_warning("cluster %s: RemoteStart of job %" G_GUINT64_FORMAT
		    "[%u] run %u refused: %s", cluster, s->job_id,
		    s->array_index, s->instance, why);
		e.message = why;
		r.error = &e;
	} else {
		log_info("cluster %s: job %" G_GUINT64_FORMAT "[%u] run %u runs here "
		    "as job %" G_GUINT64_FORMAT " on %s", cluster, s->job_id,
		    s->array_index, s->instance, j->id, hosts[0]);
		r.provider_job_id = j->id;
	}
	closure(&r.base, call);
}

static void
remote_signal(Manager *m, const char *cluster, const ProtobufCMessage *msg,
    ProtobufCClosure closure, void *call, void *data)
{
	const Basalt__RemoteSignalRequest *s =
	    (const Basalt__RemoteSignalRequest *)msg;
	Basalt__RemoteSignalReply r = BASALT__REMOTE_SIGNAL_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	g_autoptr(GError) err = NULL;
	g_autofree char *reason = NULL;
	Job *j = NULL;
	gboolean ok = FALSE;

	(void)data;
	j = record_find(m, cluster, s->job_id, s->array_index, s->instance);
	if (s->reason != NULL)
		reason = g_strndup(s->reason, 200);
	if (j == NULL || !job_is_started(j)) {
		g_set_error(&err, BS_ERROR, BS_ERROR_FAILED, "No such run of "
		    "the job in cluster %s", local_cluster(m));
	} else {
		switch (s->action) {
		case BASALT__REMOTE_ACTION__REMOTE_ACTION_TERMINATE:
			ok = orders_run_terminating(m, j) ||
			    orders_terminate(m, j, NULL, reason != NULL ? reason :
			    "killed by the consumer cluster", FALSE, &err);
			break;
		case BASALT__REMOTE_ACTION__REMOTE_ACTION_SUSPEND:
			ok = j->state == JS_USUSP || orders_suspend(m, j, JS_USUSP,
			    reason != NULL ? reason : "suspended by the consumer "
			    "cluster", NULL, &err);
			break;
		case BASALT__REMOTE_ACTION__REMOTE_ACTION_RESUME:
			ok = j->state == JS_RUN || orders_resume(m, j, &err);
			break;
		case BASALT__REMOTE_ACTION__REMOTE_ACTION_SIGNAL:
			ok = orders_signal(m, j, s->signal, NULL, &err);
			break;
		default:
			g_set_error(&err, BS_ERROR, BS_ERROR_FAILED, "action %d is "
			    "not relayed", s->action);
			break;
		}
	}
	if (!ok) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_NO_JOB;
		e.message = err != NULL ? err->message : "refused";
		r.error = &e;
	}
	closure(&r.base, call);
}

/* ---- status back to the consumer ------------------------------------------- */

static void flush_soon(McJobs *x);

static void
mark(McJobs *x, const Job *j)
{
	Outgoing *o = g_hash_table_lookup(x->out, &j->key);

	if (o == NULL) {
		o = g_new0(Outgoing, 1);
		o->key = j->key;
		o->sent_state = JS_PEND;
		o->sent_pgid = -1;
		g_hash_table_insert(x->out, &o->key, o);
	}
	flush_soon(x);
}

void
mc_jobs_note(Manager *m, const Basalt__Event *ev)
{
	guint64 id;
	guint32 index;
	Job *j;

	if (mcj(m) == NULL)
		return;
	switch (ev->body_case) {
	case BASALT__EVENT__BODY_JOB_START:
		id = ev->job_start->job_id;
		index = ev->job_start->array_index;
		break;
	case BASALT__EVENT__BODY_JOB_STATUS:
		id = ev->job_status->job_id;
		index = ev->job_status->array_index;
		break;
	case BASALT__EVENT__BODY_JOB_REQUEUE:
		id = ev->job_requeue->job_id;
		index = ev->job_requeue->array_index;
		break;
	case BASALT__EVENT__BODY_JOB_PREEXEC:
		id = ev->job_preexec->job_id;
		index = ev->job_preexec->array_index;
		break;
	default:
		return;
	}
	if ((j = state_job(m->st, id, index)) != NULL && mc_jobs_origin(j) != NULL)
		mark(mcj(m), j);
}

typedef struct {
	McJobs *x;
	guint64 key;
} StatusCall;

static void
status_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	g_autofree StatusCall *c = data;
	const Basalt__RemoteStatusReply *reply =
	    (const Basalt__RemoteStatusReply *)msg;
	Outgoing *o = g_hash_table_lookup(c->x->out, &c->key);
	const Job *j;

	(void)conn;
	(void)error;
	if (o == NULL)
		return;
	o->in_flight = FALSE;
	j = state_job(c->x->m->st, c->key >> 32, (guint32)(c->key & 0xffffffffu));
	if (j == NULL) {
		g_hash_table_remove(c->x->out, &c->key);
		return;
	}
	/* Answered (even with "no such run": the consumer moved on): done,
	 * unless the record changed since. */
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK && reply != NULL) {
		if (j->state != o->sent_state || j->pgid != o->sent_pgid) {
			flush_soon(c->x);
			return;
		}
		g_hash_table_remove(c->x->out, &c->key);
		/* The consumer knows the run is lost and places the job
		 * again itself: this record never runs again here. */
		if (job_is_pending(j)) {
			JobOutcome out = { .exit_status = 127 };

			commit_job_status(c->x->m, j, JS_EXIT, &out, LOST_REASON);
		}
	}
	/* Otherwise the retry timer or the link's return sends it again. */
}

static gboolean
send_status(McJobs *x, Outgoing *o)
{
	Manager *m = x->m;
	const Job *j = state_job(m->st, o->key >> 32, (guint32)(o->key & 0xffffffffu));
	const Basalt__RemoteOrigin *og = mc_jobs_origin(j);
	Basalt__RemoteStatusRequest hj = BASALT__REMOTE_STATUS_REQUEST__INIT;
	Basalt__ResourceUsage usage;
	StatusCall *c;

	if (og == NULL)
		return FALSE;
	hj.job_id = og->job_id;
	hj.array_index = og->array_index;
	hj.instance = og->instance;
	hj.state = j->state;
	if (j->state == JS_EXIT && j->exit_reason != NULL &&
	    g_str_has_prefix(j->exit_reason, NOT_STARTED_PREFIX))
		hj.state = JS_PEND;
	hj.pgid = j->pgid;
	hj.exit_status = j->exit_status;
	hj.term_signal = j->term_signal;
	usage = *job_usage(j);
	usage.n_pids = 0;
	usage.pids = NULL;
	hj.usage = &usage;
	hj.term_reason = j->term_reason;
	/* A requeued record has no hosts any more: the run's first host. */
	hj.host_name = j->exec_hosts != NULL ? j->exec_hosts[0] : og->host;
	hj.reason = j->state == JS_EXIT ? j->exit_reason : j->suspend_reason;
	/* A record's run ends at its first pre-exec failure (mbd-prepost.c);
	 * after a checkpoint the level is lost, the job's is the likelier. */
	if (j->state == JS_EXIT && j->preexec_hosts != NULL && j->preexec_hosts->len > 0)
		hj.preexec_failed = j->preexec_level != 0 ? j->preexec_level : 2;
	c = g_new0(StatusCall, 1);
	c->x = x;
	c->key = o->key;
	if (!mc_link_call(m, og->cluster, method("RemoteStatus"), &hj.base,
	    STATUS_TIMEOUT_MS, status_done, c, NULL)) {
		g_free(c);
		return FALSE;
	}
	log_debug("cluster %s: job %" G_GUINT64_FORMAT "[%u] run %u is %s "
	    "(pgid %d) on %s: told", og->cluster, og->job_id, og->array_index,
	    og->instance, job_state_name(j->state), j->pgid, hj.host_name);
	o->in_flight = TRUE;
	o->sent_state = j->state;
	o->sent_pgid = j->pgid;
	return TRUE;
}

static gboolean
flush(gpointer data)
{
	McJobs *x = data;
	GHashTableIter it;
	gpointer v;
	g_autoptr(GArray) gone = g_array_new(FALSE, FALSE, sizeof(guint64));

	x->flush_source = 0;
	g_hash_table_iter_init(&it, x->out);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Outgoing *o = v;
		const Job *j = state_job(x->m->st, o->key >> 32,
		    (guint32)(o->key & 0xffffffffu));

		if (j == NULL || mc_jobs_origin(j) == NULL) {
			g_array_append_val(gone, o->key);
			continue;
		}
		/* Nothing to tell while a new record waits for its dispatch;
		 * a pending record that ran was requeued here (its host
		 * failed): the consumer is told the run is lost (PEND). */
		if (o->in_flight || (job_is_pending(j) && j->instance == 0))
			continue;
		(void)send_status(x, o);
	}
	for (guint i = 0; i < gone->len; i++)
		g_hash_table_remove(x->out, &g_array_index(gone, guint64, i));
	return G_SOURCE_REMOVE;
}

static void
flush_soon(McJobs *x)
{
	if (x->flush_source == 0)
		x->flush_source = g_idle_add(flush, x);
}

static gboolean
retry(gpointer data)
{
	McJobs *x = data;

	if (g_hash_table_size(x->out) > 0)
		flush_soon(x);
	return G_SOURCE_CONTINUE;
}

/* A link came up: every record of that cluster's jobs is told again (an
 * end during the cut, either side restarted; the consumer applies a run's
 * state once). */
static void
link_changed(Manager *m, const McLink *l, void *data)
{
	McJobs *x = data;
	GHashTableIter it;
	gpointer v;

	(void)m;
	if (l->status != MC_LINK_OK)
		return;
	g_hash_table_iter_init(&it, x->m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Job *j = v;
		const Basalt__RemoteOrigin *o = mc_jobs_origin(j);

		if (o != NULL && g_strcmp0(o->cluster, l->cluster) == 0)
			mark(x, j);
	}
}

static void
outgoing_free(gpointer p)
{
	g_free(p);
}

guint mc_jobs_consumer_init(Manager *m);

void
mc_jobs_init(Manager *m)
{
	McJobs *x = g_new0(McJobs, 1);

	x->m = m;
	x->out = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
	    outgoing_free);
	x->by_origin = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    g_free);
	x->retry_timer = g_timeout_add_seconds(RETRY_S, retry, x);
	m->mc_jobs = x;
	mc_links_on_method(m, method("RemoteStart"), remote_start, x);
	mc_links_on_method(m, method("RemoteSignal"), remote_signal, x);
	mc_links_on_change(m, link_changed, x);
	x->resend_timer = mc_jobs_consumer_init(m);
}

void
mc_jobs_free(Manager *m)
{
	McJobs *x = mcj(m);

	if (x == NULL)
		return;
	if (x->flush_source != 0)
		g_source_remove(x->flush_source);
	if (x->retry_timer != 0)
		g_source_remove(x->retry_timer);
	if (x->resend_timer != 0)
		g_source_remove(x->resend_timer);
	g_hash_table_destroy(x->out);
	g_hash_table_destroy(x->by_origin);
	g_free(x);
	m->mc_jobs = NULL;
}
