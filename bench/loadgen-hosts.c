/*
 * Emulated execution hosts: each one does over its own TCP connection what
 * sbatchd does over its link (sbatchd/sbd-link.c, sbd-exec.c, sbd-job.c),
 * minus the processes:
 *
 *   hello as ROLE_EXEC_HOST with the host name, RegisterHost listing the
 *   jobs it holds, heartbeats every heartbeat_interval_s with the running
 *   jobs' usage, StartJob answered with a process group id and followed by
 *   a RUN report, then after the run time a DONE (or EXIT) report that is
 *   kept and sent again with each heartbeat until mbatchd acknowledges it;
 *   SignalJob and PeekJob answered as sbatchd answers them.
 *
 * Ten thousand hosts make ten thousand timers if each keeps its own; here
 * every host has the same heartbeat interval and every job the same run
 * time, so two FIFO queues ordered by due time and one tick serve them all.
 * Hosts connect at most max_dialing at a time, so the master's listen
 * backlog never overflows at start.
 */
#include "config.h"

#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "auth/auth.h"
#include "bench/loadgen.h"

#define CALL_TIMEOUT_MS 30000
#define BACKOFF_MIN_MS 200
#define BACKOFF_MAX_MS 5000

typedef struct {
	guint64 seq;
	Basalt__HostJob hj;
	Basalt__ResourceUsage usage;
	gint64 time;
	char *reason;
} LgReport;

typedef struct {
	LgHost *host;
	guint64 id;
	guint32 index;
	Basalt__JobState state;
	int pgid;
	int exit_status;
	int term_signal;
	gboolean finished;
	guint64 final_seq;
	gint64 end_us;            /* when it finishes by itself */
	GList *run_link;          /* in lg->running while running */
} LgJob;

struct LgHost {
	Basalt__ExecService_Service service;   /* first: handlers find the host */
	Lg *lg;
	guint idx;
	char *name;
	gint64 boot_time;
	BsRpcConn *conn;
	guint gen;                /* link generation: replies of older links are stale */
	gboolean registered;
	gboolean dialing;         /* counted in lg->n_dialing */
	guint backoff_ms;
	guint reconnect_src;
	guint heartbeat_s;
	gint64 next_hb_us;
	GList *hb_link;           /* in lg->heartbeats while registered */
	gboolean hb_busy;
	GHashTable *jobs;         /* job key -> LgJob */
	GQueue reports;           /* LgReport*, unacknowledged, in seq order */
	guint64 next_seq;
	guint64 sent_upto;
};

typedef struct {
	LgHost *host;
	guint gen;
	guint64 seq;
} LgCall;

static void host_dial(LgHost *h);

static guint64
job_key(guint64 id, guint32 index)
{
	return (id << 32) | index;
}

static guint
digits(guint n)
{
	guint d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

char *
lg_host_name(const Lg *lg, guint i)
{
	guint d = lg->digits > 0 ? lg->digits : digits(lg->first + lg->n_hosts);

	return g_strdup_printf("%s%0*u", lg->prefix, (int)d, lg->first + i + 1);
}

void
lg_print_hosts(const Lg *lg)
{
	printf("Begin Host\nHOSTNAME  model  type  server  RESOURCES\n");
	for (guint i = 0; i < lg->n_hosts; i++) {
		g_autofree char *name = lg_host_name(lg, i);

		printf("%s  !  !  1  ()\n", name);
	}
	printf("End Host\n");
}

static LgCall *
call_new(LgHost *h, guint64 seq)
{
	LgCall *c = g_new(LgCall, 1);

	c->host = h;
	c->gen = h->gen;
	c->seq = seq;
	return c;
}

static gboolean
current(const LgCall *c)
{
	return c->host->conn != NULL && c->gen == c->host->gen;
}

static gboolean
host_call(LgHost *h, const char *name, const ProtobufCMessage *req,
    BsRpcReplyFunc cb, LgCall *data)
{
	g_autoptr(GError) err = NULL;

	if (bs_rpc_conn_call(h->conn, &basalt__host_service__descriptor,
	    lg_method(&basalt__host_service__descriptor, name), req,
	    CALL_TIMEOUT_MS, cb, data, &err))
		return TRUE;
	if (h->lg->verbose)
		g_printerr("loadgen: %s: cannot call %s: %s\n", h->name, name,
		    err ? err->message : "?");
	g_free(data);
	return FALSE;
}

/* ---- jobs and reports ---- */

static void
host_job_fill(const LgJob *j, Basalt__HostJob *hj, Basalt__ResourceUsage *u)
{
	basalt__host_job__init(hj);
	basalt__resource_usage__init(u);
	hj->job_id = j->id;
	hj->array_index = j->index;
	hj->state = j->state;
	hj->pgid = j->pgid;
	hj->exit_status = j->exit_status;
	hj->term_signal = j->term_signal;
	/* A small, plausible footprint, like a shell running a short command. */
	u->max_rss_kb = 2048;
	u->rss_kb = j->finished ? 0 : 2048;
	u->nprocs = j->finished ? 0 : 1;
	u->pgid = j->pgid;
	hj->usage = u;
}

static void
report_free(LgReport *r)
{
	g_free(r->reason);
	g_free(r);
}

static void report_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data);

static void
report_send(LgHost *h, LgReport *r)
{
	Basalt__JobReport rep = BASALT__JOB_REPORT__INIT;

	rep.seq = r->seq;
	rep.job = &r->hj;
	r->hj.usage = &r->usage;
	rep.time = r->time;
	rep.reason = r->reason;
	if (host_call(h, "Report", &rep.base, report_replied, call_new(h, r->seq)))
		h->sent_upto = MAX(h->sent_upto, r->seq);
}

/* Every report after sent_upto, as sbatchd sends its spool. */
static void
reports_send(LgHost *h)
{
	if (!h->registered)
		return;
	for (GList *l = h->reports.head; l != NULL; l = l->next) {
		LgReport *r = l->data;

		if (r->seq > h->sent_upto)
			report_send(h, r);
	}
}

static void
job_free(LgJob *j)
{
	if (j->run_link != NULL)
		g_queue_delete_link(&j->host->lg->running, j->run_link);
	g_free(j);
}

static void
reports_acked(LgHost *h, guint64 acked)
{
	GHashTableIter it;
	gpointer v;

	while (h->reports.head != NULL &&
	    ((LgReport *)h->reports.head->data)->seq <= acked) {
		report_free(g_queue_pop_head(&h->reports));
		h->lg->reports_acked++;
	}
	/* A finished job is kept until its final report is in. */
	g_hash_table_iter_init(&it, h->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		LgJob *j = v;

		if (j->finished && j->final_seq != 0 && j->final_seq <= acked)
			g_hash_table_iter_remove(&it);
	}
}

static void
report_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__JobReportReply *r = (const Basalt__JobReportReply *)reply;
	g_autofree LgCall *c = data;
	LgHost *h = c->host;

	if (!current(c))
		return;
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK) {
		if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK &&
		    h->lg->verbose)
			g_printerr("loadgen: %s: report %" G_GUINT64_FORMAT " refused: %s\n",
			    h->name, c->seq, r->error->message);
		if (r->acked_seq > 0)
			reports_acked(h, r->acked_seq);
		if (r->acked_seq >= c->seq)
			return;
	}
	/* Not acknowledged: from this one on, again with the next heartbeat. */
	h->sent_upto = MIN(h->sent_upto, c->seq - 1);
}

static void
job_report(LgJob *j, const char *reason)
{
	LgHost *h = j->host;
	LgReport *r = g_new0(LgReport, 1);

	r->seq = ++h->next_seq;
	host_job_fill(j, &r->hj, &r->usage);
	r->time = g_get_real_time() / G_USEC_PER_SEC;
	r->reason = g_strdup(reason != NULL ? reason : "");
	if (j->finished)
		j->final_seq = r->seq;
	g_queue_push_tail(&h->reports, r);
	if (h->registered)
		report_send(h, r);
}

static void
job_finish(LgJob *j, int exit_status, int term_signal, const char *reason)
{
	if (j->finished)
		return;
	if (j->run_link != NULL) {
		g_queue_delete_link(&j->host->lg->running, j->run_link);
		j->run_link = NULL;
	}
	j->finished = TRUE;
	j->exit_status = exit_status;
	j->term_signal = term_signal;
	j->state = exit_status == 0 && term_signal == 0 ?
	    BASALT__JOB_STATE__JOB_STATE_DONE : BASALT__JOB_STATE__JOB_STATE_EXIT;
	j->host->lg->jobs_finished++;
	job_report(j, reason);
}

/* ---- ExecService: what mbatchd asks of the host ---- */

static LgHost *
host_of(void *svc)
{
	return (LgHost *)svc;   /* the service is the host's first member */
}

static void
error_set(Basalt__Error *e, Basalt__ErrorCode code, char *msg)
{
	basalt__error__init(e);
	e->code = code;
	e->message = msg;
}

static void
x_start_job(Basalt__ExecService_Service *svc, const Basalt__StartJobRequest *in,
    Basalt__StartJobReply_Closure closure, void *call)
{
	LgHost *h = host_of(svc);
	Lg *lg = h->lg;
	Basalt__StartJobReply r = BASALT__START_JOB_REPLY__INIT;
	guint64 key = job_key(in->job_id, in->array_index);
	LgJob *j = g_hash_table_lookup(h->jobs, &key);

	/* Idempotent, as in sbatchd: a job already running here is the same. */
	if (j == NULL || j->finished) {
		if (j != NULL)
			g_hash_table_remove(h->jobs, &key);
		j = g_new0(LgJob, 1);
		j->host = h;
		j->id = in->job_id;
		j->index = in->array_index;
		j->pgid = lg->next_pgid++;
		if (lg->next_pgid <= 0)
			lg->next_pgid = 2;
		j->state = BASALT__JOB_STATE__JOB_STATE_RUN;
		j->end_us = g_get_monotonic_time() + (gint64)(lg->run_s * G_USEC_PER_SEC);
		g_hash_table_insert(h->jobs, g_memdup2(&key, sizeof key), j);
		g_queue_push_tail(&lg->running, j);
		j->run_link = lg->running.tail;
		lg->jobs_started++;
		/* sbatchd spools and sends the RUN report before it answers. */
		job_report(j, NULL);
	}
	r.pgid = j->pgid;
	closure(&r, call);
}

static gboolean
kills(int sig)
{
	return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP ||
	    sig == SIGQUIT || sig == SIGUSR1 || sig == SIGUSR2;
}

static void
x_signal_job(Basalt__ExecService_Service *svc, const Basalt__SignalJobRequest *in,
    Basalt__SignalJobReply_Closure closure, void *call)
{
	LgHost *h = host_of(svc);
	Basalt__SignalJobReply r = BASALT__SIGNAL_JOB_REPLY__INIT;
	Basalt__Error e;
	guint64 key = job_key(in->job_id, in->array_index);
	LgJob *j = g_hash_table_lookup(h->jobs, &key);
	g_autofree char *msg = NULL;
	const char *reason = in->reason != NULL && *in->reason ? in->reason : NULL;

	if (in->action == BASALT__EXEC_ACTION__EXEC_ACTION_FORGET) {
		if (j != NULL)
			g_hash_table_remove(h->jobs, &key);
	} else if (j == NULL) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> is not found on host %s",
		    in->job_id, h->name);
		error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_NO_JOB, msg);
		r.error = &e;
	} else if (j->finished) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> has already finished",
		    in->job_id);
		error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE, msg);
		r.error = &e;
	} else {
		switch (in->action) {
		case BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE:
			/* The first of SIGINT, SIGTERM, SIGKILL ends a plain job. */
			job_finish(j, 128 + SIGINT, SIGINT, reason);
			break;
		case BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND:
			if (j->state == BASALT__JOB_STATE__JOB_STATE_RUN) {
				j->state = BASALT__JOB_STATE__JOB_STATE_USUSP;
				job_report(j, NULL);
			}
			break;
		case BASALT__EXEC_ACTION__EXEC_ACTION_RESUME:
			if (j->state == BASALT__JOB_STATE__JOB_STATE_USUSP) {
				j->state = BASALT__JOB_STATE__JOB_STATE_RUN;
				job_report(j, NULL);
			}
			break;
		case BASALT__EXEC_ACTION__EXEC_ACTION_SIGNAL:
			if (in->signal <= 0 || in->signal >= NSIG) {
				msg = g_strdup_printf("bad signal number %d", in->signal);
				error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE, msg);
				r.error = &e;
			} else if (kills(in->signal)) {
				job_finish(j, 128 + in->signal, in->signal, reason);
			}
			break;
		default:
			msg = g_strdup_printf("unknown action %d", in->action);
			error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE, msg);
			r.error = &e;
			break;
		}
	}
	closure(&r, call);
}

static void
x_peek_job(Basalt__ExecService_Service *svc, const Basalt__PeekJobRequest *in,
    Basalt__PeekReply_Closure closure, void *call)
{
	LgHost *h = host_of(svc);
	Basalt__PeekReply r = BASALT__PEEK_REPLY__INIT;
	Basalt__Error e;
	guint64 key = job_key(in->job_id, in->array_index);
	LgJob *j = g_hash_table_lookup(h->jobs, &key);
	g_autofree char *msg = NULL;

	if (j == NULL) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> is not found on host %s",
		    in->job_id, h->name);
		error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_NO_JOB, msg);
		r.error = &e;
	} else {
		/* No process, so no output: an empty page at the asked offset. */
		r.next_offset = in->offset;
		r.finished = j->finished;
	}
	closure(&r, call);
}

/* ---- the link: dial, register, heartbeat, reconnect ---- */

static void
dialing_done(LgHost *h)
{
	if (h->dialing) {
		h->dialing = FALSE;
		h->lg->n_dialing--;
	}
}

static gboolean
reconnect_due(gpointer data)
{
	LgHost *h = data;

	h->reconnect_src = 0;
	host_dial(h);
	return G_SOURCE_REMOVE;
}

static void
link_down(LgHost *h)
{
	Lg *lg = h->lg;

	h->gen++;
	if (h->registered)
		lg->n_registered--;
	h->registered = FALSE;
	h->hb_busy = FALSE;
	if (h->hb_link != NULL) {
		g_queue_delete_link(&lg->heartbeats, h->hb_link);
		h->hb_link = NULL;
	}
	dialing_done(h);
	g_clear_pointer(&h->conn, bs_rpc_conn_unref);
}

static void
on_closed(BsRpcConn *conn, const char *reason, void *data)
{
	LgHost *h = data;

	if (conn != h->conn)
		return;
	if (!h->lg->stopping)
		g_printerr("loadgen: %s: link to mbatchd lost: %s\n", h->name, reason);
	link_down(h);
	if (h->lg->stopping)
		return;
	h->reconnect_src = g_timeout_add(h->backoff_ms, reconnect_due, h);
	h->backoff_ms = MIN(h->backoff_ms * 2, BACKOFF_MAX_MS);
}

static void
heartbeat_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__HeartbeatReply *r = (const Basalt__HeartbeatReply *)reply;
	g_autofree LgCall *c = data;
	LgHost *h = c->host;

	if (!current(c))
		return;
	h->hb_busy = FALSE;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		bs_rpc_conn_close(h->conn, err ? err->message : "heartbeat failed");
		return;
	}
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
		g_printerr("loadgen: %s: heartbeat refused: %s\n", h->name,
		    r->error->message);
}

/* The host's jobs as HostJobs: all (registration) or the running ones. */
static Basalt__HostJob **
host_jobs(LgHost *h, gboolean running_only, size_t *n, Basalt__HostJob **hj_out,
    Basalt__ResourceUsage **u_out)
{
	guint size = g_hash_table_size(h->jobs);
	Basalt__HostJob *hj = g_new0(Basalt__HostJob, size + 1);
	Basalt__ResourceUsage *u = g_new0(Basalt__ResourceUsage, size + 1);
	Basalt__HostJob **ptrs = g_new0(Basalt__HostJob *, size + 1);
	GHashTableIter it;
	gpointer v;
	size_t k = 0;

	g_hash_table_iter_init(&it, h->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		LgJob *j = v;

		if (running_only && j->finished)
			continue;
		host_job_fill(j, &hj[k], &u[k]);
		ptrs[k] = &hj[k];
		k++;
	}
	*n = k;
	*hj_out = hj;
	*u_out = u;
	return ptrs;
}

static void
heartbeat_send(LgHost *h)
{
	Basalt__HeartbeatRequest req = BASALT__HEARTBEAT_REQUEST__INIT;
	Basalt__LoadIndices load = BASALT__LOAD_INDICES__INIT;
	Basalt__HostJob *hj;
	Basalt__ResourceUsage *u;

	/* Reports an unhelpful reply left unacknowledged go again now. */
	reports_send(h);
	if (h->hb_busy)
		return;
	load.r15s = 0.1;
	load.r1m = 0.1;
	load.r15m = 0.1;
	load.ut = 0.05;
	load.mem_free_kb = h->lg->mem_kb / 2;
	load.swap_free_kb = h->lg->mem_kb / 4;
	load.tmp_free_kb = 8 * 1024 * 1024;
	req.host_name = h->name;
	req.load = &load;
	req.jobs = host_jobs(h, TRUE, &req.n_jobs, &hj, &u);
	h->hb_busy = host_call(h, "Heartbeat", &req.base, heartbeat_replied,
	    call_new(h, 0));
	g_free(req.jobs);
	g_free(hj);
	g_free(u);
}

static void
registered(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__RegisterReply *r = (const Basalt__RegisterReply *)reply;
	g_autofree LgCall *c = data;
	LgHost *h = c->host;
	Lg *lg = h->lg;

	if (!current(c))
		return;
	dialing_done(h);
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		bs_rpc_conn_close(h->conn, err ? err->message : "RegisterHost failed");
		return;
	}
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		g_autofree char *why = g_strdup_printf("mbatchd refused host %s: %s",
		    h->name, r->error->message);

		bs_rpc_conn_close(h->conn, why);
		return;
	}
	h->registered = TRUE;
	lg->n_registered++;
	h->backoff_ms = BACKOFF_MIN_MS;
	h->heartbeat_s = r->heartbeat_interval_s ? r->heartbeat_interval_s : 5;
	for (size_t i = 0; i < r->n_forget_job_ids; i++) {
		GHashTableIter it;
		gpointer v;

		g_hash_table_iter_init(&it, h->jobs);
		while (g_hash_table_iter_next(&it, NULL, &v))
			if (((LgJob *)v)->id == r->forget_job_ids[i])
				g_hash_table_iter_remove(&it);
	}
	/* Runs mbatchd forgot; the load generator keeps one run per job. */
	for (size_t i = 0; i < r->n_forget_jobs; i++)
		g_hash_table_remove(h->jobs, &(guint64){ job_key(
		    r->forget_jobs[i]->job_id, r->forget_jobs[i]->array_index) });
	h->sent_upto = 0;
	reports_send(h);
	h->next_hb_us = g_get_monotonic_time() + (gint64)h->heartbeat_s * G_USEC_PER_SEC;
	g_queue_push_tail(&lg->heartbeats, h);
	h->hb_link = lg->heartbeats.tail;
	if (lg->n_registered == lg->n_hosts && !lg->all_registered_said) {
		lg->all_registered_said = TRUE;
		g_printerr("loadgen: all %u hosts registered in %.2f s\n", lg->n_hosts,
		    (double)(g_get_monotonic_time() - lg->start_us) / G_USEC_PER_SEC);
	}
}

static void
on_ready(BsRpcConn *conn, void *data)
{
	LgHost *h = data;
	Basalt__RegisterRequest req = BASALT__REGISTER_REQUEST__INIT;
	Basalt__HostJob *hj;
	Basalt__ResourceUsage *u;
	struct utsname un;

	if (conn != h->conn)
		return;
	req.host_name = h->name;
	req.ncpus = h->lg->ncpus;
	req.mem_kb = h->lg->mem_kb;
	req.swap_kb = h->lg->mem_kb / 2;
	req.host_type = (char *)"LINUX";
	req.host_model = (char *)(uname(&un) == 0 ? un.machine : "");
	req.boot_time = h->boot_time;
	req.jobs = host_jobs(h, FALSE, &req.n_jobs, &hj, &u);
	if (!host_call(h, "RegisterHost", &req.base, registered, call_new(h, 0)))
		bs_rpc_conn_close(h->conn, "cannot send RegisterHost");
	g_free(req.jobs);
	g_free(hj);
	g_free(u);
}

static void
host_dial(LgHost *h)
{
	Lg *lg = h->lg;
	g_autoptr(GError) err = NULL;
	g_autoptr(GBytes) cred = NULL;
	BsRpcDialOptions opts;

	bs_rpc_dial_options_init(&opts);
	opts.host = lg->mbd_address;
	opts.port = lg->mbd_port;
	opts.role = BASALT__ROLE__ROLE_EXEC_HOST;
	opts.name = h->name;
	opts.serve = &h->service.base;
	opts.limits.hello_timeout_ms = 10000;
	/* As sbatchd: a credential per dial with MUNGE, else the master's
	 * local socket (the emulator runs as root or an administrator). */
	if (lg->munge) {
		cred = bs_auth_hello_credential(lg->munge_socket, opts.role,
		    h->name, NULL, &err);
		if (cred == NULL) {
			g_printerr("loadgen: %s: %s\n", h->name, err->message);
			h->reconnect_src = g_timeout_add(h->backoff_ms,
			    reconnect_due, h);
			h->backoff_ms = MIN(h->backoff_ms * 2, BACKOFF_MAX_MS);
			return;
		}
		opts.credential = g_bytes_get_data(cred, &opts.credential_len);
	} else {
		opts.host = NULL;
		opts.unix_path = lg->sock_path;
	}
	h->gen++;
	h->dialing = TRUE;
	lg->n_dialing++;
	h->conn = bs_rpc_dial(&opts, NULL, on_ready, on_closed, h, &err);
	if (h->conn == NULL) {
		g_printerr("loadgen: %s: cannot dial %s:%u: %s\n", h->name,
		    lg->mbd_address, lg->mbd_port, err->message);
		dialing_done(h);
		h->reconnect_src = g_timeout_add(h->backoff_ms, reconnect_due, h);
		h->backoff_ms = MIN(h->backoff_ms * 2, BACKOFF_MAX_MS);
	}
}

static void
job_unref_value(gpointer p)
{
	job_free(p);
}

void
lg_hosts_start(Lg *lg)
{
	Basalt__ExecService_Service init = {
		.base = BASALT__EXEC_SERVICE__BASE_INIT,
		.start_job = x_start_job,
		.signal_job = x_signal_job,
		.peek_job = x_peek_job,
	};
	gint64 boot = g_get_real_time() / G_USEC_PER_SEC;

	lg->hosts = g_new0(LgHost, lg->n_hosts);
	lg->next_pgid = 1000;
	for (guint i = 0; i < lg->n_hosts; i++) {
		LgHost *h = &lg->hosts[i];

		h->service = init;
		h->lg = lg;
		h->idx = i;
		h->name = lg_host_name(lg, i);
		h->boot_time = boot;
		h->backoff_ms = BACKOFF_MIN_MS;
		/* sbatchd's report seq survives its restarts (the spool is on
		 * disk) and mbatchd applies each seq once per host; a loadgen
		 * started again must not reuse seqs, so they count on from the
		 * clock, in microseconds. */
		h->next_seq = (guint64)g_get_real_time();
		h->jobs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
		    job_unref_value);
		g_queue_init(&h->reports);
	}
	lg_hosts_tick(lg, g_get_monotonic_time());
}

void
lg_hosts_tick(Lg *lg, gint64 now)
{
	/* More hosts connect while fewer than max_dialing are in progress. */
	while (lg->next_dial < lg->n_hosts && lg->n_dialing < lg->max_dialing)
		host_dial(&lg->hosts[lg->next_dial++]);
	while (lg->running.head != NULL &&
	    ((LgJob *)lg->running.head->data)->end_us <= now) {
		LgJob *j = lg->running.head->data;

		job_finish(j, lg->exit_code, 0, NULL);
	}
	while (lg->heartbeats.head != NULL &&
	    ((LgHost *)lg->heartbeats.head->data)->next_hb_us <= now) {
		LgHost *h = g_queue_pop_head(&lg->heartbeats);

		h->hb_link = NULL;
		heartbeat_send(h);
		if (!h->registered)
			continue;
		h->next_hb_us = now + (gint64)h->heartbeat_s * G_USEC_PER_SEC;
		g_queue_push_tail(&lg->heartbeats, h);
		h->hb_link = lg->heartbeats.tail;
	}
}

void
lg_hosts_stop(Lg *lg)
{
	for (guint i = 0; lg->hosts != NULL && i < lg->n_hosts; i++) {
		LgHost *h = &lg->hosts[i];
		BsRpcConn *conn = h->conn;

		g_clear_handle_id(&h->reconnect_src, g_source_remove);
		if (conn != NULL) {
			bs_rpc_conn_ref(conn);
			bs_rpc_conn_close(conn, "loadgen is shutting down");
			link_down(h);
			bs_rpc_conn_unref(conn);
		}
	}
	for (guint i = 0; lg->hosts != NULL && i < lg->n_hosts; i++) {
		LgHost *h = &lg->hosts[i];

		g_hash_table_destroy(h->jobs);
		g_queue_clear_full(&h->reports, (GDestroyNotify)report_free);
		g_free(h->name);
	}
	g_queue_clear(&lg->running);
	g_queue_clear(&lg->heartbeats);
	g_clear_pointer(&lg->hosts, g_free);
}

void
lg_hosts_summary(const Lg *lg)
{
	printf("hosts: %u registered of %u; jobs started %" G_GUINT64_FORMAT
	    ", finished %" G_GUINT64_FORMAT ", reports acknowledged %" G_GUINT64_FORMAT "\n",
	    lg->n_registered, lg->n_hosts, lg->jobs_started, lg->jobs_finished,
	    lg->reports_acked);
}
