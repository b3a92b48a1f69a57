/*
 * Emulated users: M connections on mbatchd's Unix socket, each submitting
 * one job after another through BatchService.Submit, as a user running
 * bsub in a loop would, but without a process per job.
 *
 * The SubmitRequest is built once by bsub's own argument parser
 * (cmd/bsub-args.c) from the bsub options given after "--", this process's
 * environment, working directory and host name: byte for byte what bsub
 * would send from here.  mbatchd takes the submitter's identity from
 * SO_PEERCRED, so every emulated user is the uid running loadgen.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/loadgen.h"
#include "cmd/bsub-args.h"

extern char **environ;

struct LgClient {
	Lg *lg;
	guint idx;
	BsRpcConn *conn;
	gboolean ready;
	gboolean busy;            /* a call is in flight */
	guint since_query;
	gint64 query_start_us;
};

static void client_next(LgClient *c);

static void
client_gone(LgClient *c)
{
	Lg *lg = c->lg;

	if (c->conn == NULL)
		return;
	g_clear_pointer(&c->conn, bs_rpc_conn_unref);
	c->ready = FALSE;
	lg->n_clients_open--;
	if (lg->n_clients_open == 0 && !lg->clients_done) {
		lg->clients_done = TRUE;
		lg_maybe_finish(lg);
	}
}

static void
all_replied(Lg *lg)
{
	if (lg->clients_done)
		return;
	lg->clients_done = TRUE;
	lg_clients_summary(lg);
	for (guint i = 0; i < lg->n_clients; i++) {
		LgClient *c = &lg->clients[i];

		if (c->conn != NULL) {
			BsRpcConn *conn = bs_rpc_conn_ref(c->conn);

			bs_rpc_conn_close(conn, "all jobs submitted");
			client_gone(c);
			bs_rpc_conn_unref(conn);
		}
	}
	lg_maybe_finish(lg);
}

static void
submitted(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__SubmitReply *r = (const Basalt__SubmitReply *)reply;
	LgClient *c = data;
	Lg *lg = c->lg;
	const char *why = NULL;

	c->busy = FALSE;
	lg->last_reply_us = g_get_monotonic_time();
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		why = err != NULL ? err->message : "call failed";
	else if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
		why = r->error->message;
	if (why != NULL) {
		if (lg->submits_failed < 5)
			g_printerr("loadgen: submission refused: %s\n", why);
		lg->submits_failed++;
	} else {
		lg->submits_ok++;
	}
	if (lg->submits_ok + lg->submits_failed >= lg->n_jobs) {
		all_replied(lg);
		return;
	}
	if (c->conn == conn && !lg->stopping)
		client_next(c);
}

static void
queried(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	LgClient *c = data;
	Lg *lg = c->lg;

	c->busy = FALSE;
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK) {
		lg->queries++;
		lg->query_us += (guint64)(g_get_monotonic_time() - c->query_start_us);
	} else if (lg->verbose) {
		g_printerr("loadgen: query failed: %s\n", err ? err->message : "?");
	}
	if (c->conn == conn && !lg->stopping)
		client_next(c);
}

static gboolean
take_token(Lg *lg)
{
	if (lg->rate <= 0)
		return TRUE;
	if (lg->tokens < 1.0)
		return FALSE;
	lg->tokens -= 1.0;
	return TRUE;
}

/* The next call of this user: a query now and then, else a submission. */
static void
client_next(LgClient *c)
{
	Lg *lg = c->lg;
	g_autoptr(GError) err = NULL;

	if (!c->ready || c->busy || lg->clients_done || lg->stopping)
		return;
	if (lg->query_every > 0 && c->since_query >= lg->query_every) {
		Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;

		c->since_query = 0;
		c->query_start_us = g_get_monotonic_time();
		c->busy = bs_rpc_conn_call(c->conn, &basalt__batch_service__descriptor,
		    lg_method(&basalt__batch_service__descriptor, "Jobs"), &q.base, 0,
		    queried, c, &err);
		if (c->busy)
			return;
	}
	if (lg->submits_sent >= lg->n_jobs || !take_token(lg))
		return;
	c->busy = bs_rpc_conn_call(c->conn, &basalt__batch_service__descriptor,
	    lg_method(&basalt__batch_service__descriptor, "Submit"), &lg->submit->base,
	    0, submitted, c, &err);
	if (!c->busy) {
		g_printerr("loadgen: cannot submit: %s\n", err ? err->message : "?");
		return;
	}
	if (lg->submits_sent == 0)
		lg->first_submit_us = g_get_monotonic_time();
	lg->submits_sent++;
	c->since_query++;
}

static void
on_ready(BsRpcConn *conn, void *data)
{
	LgClient *c = data;

	if (conn != c->conn)
		return;
	c->ready = TRUE;
	client_next(c);
}

static void
on_closed(BsRpcConn *conn, const char *reason, void *data)
{
	LgClient *c = data;

	if (conn != c->conn)
		return;
	if (!c->lg->stopping && !c->lg->clients_done)
		g_printerr("loadgen: user connection %u closed: %s\n", c->idx, reason);
	client_gone(c);
}

gboolean
lg_clients_start(Lg *lg, GError **err)
{
	char host[256] = "localhost";
	g_autofree char *cwd = g_get_current_dir();
	BsubContext ctx;
	BsubArgs *a;
	int argc = (int)g_strv_length(lg->bsub_argv);

	if (gethostname(host, sizeof host) != 0)
		g_strlcpy(host, "localhost", sizeof host);
	host[sizeof host - 1] = '\0';
	ctx.envp = environ;
	ctx.cwd = cwd;
	ctx.submit_host = host;
	ctx.now = (gint64)time(NULL);
	a = bsub_args_parse(argc, lg->bsub_argv, &ctx, err);
	if (a == NULL)
		return FALSE;
	if (a->needs_script) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "give the job's command after the bsub options");
		bsub_args_free(a);
		return FALSE;
	}
	lg->submit = g_steal_pointer(&a->req);
	bsub_args_free(a);
	lg->last_refill_us = g_get_monotonic_time();
	lg->clients = g_new0(LgClient, lg->n_clients);
	for (guint i = 0; i < lg->n_clients; i++) {
		LgClient *c = &lg->clients[i];
		BsRpcDialOptions opts;

		c->lg = lg;
		c->idx = i;
		bs_rpc_dial_options_init(&opts);
		opts.unix_path = lg->sock_path;
		opts.role = BASALT__ROLE__ROLE_CLIENT;
		opts.name = "loadgen";
		c->conn = bs_rpc_dial(&opts, NULL, on_ready, on_closed, c, err);
		if (c->conn == NULL)
			return FALSE;
		lg->n_clients_open++;
	}
	return TRUE;
}

void
lg_clients_tick(Lg *lg, gint64 now)
{
	if (lg->clients == NULL || lg->clients_done)
		return;
	if (lg->rate > 0) {
		lg->tokens += lg->rate * (double)(now - lg->last_refill_us) / G_USEC_PER_SEC;
		/* No bursts beyond a tenth of a second's worth (at least one). */
		lg->tokens = MIN(lg->tokens, MAX(1.0, lg->rate / 10));
	}
	lg->last_refill_us = now;
	for (guint i = 0; i < lg->n_clients; i++)
		client_next(&lg->clients[i]);
}

void
lg_clients_stop(Lg *lg)
{
	for (guint i = 0; lg->clients != NULL && i < lg->n_clients; i++) {
		LgClient *c = &lg->clients[i];

		if (c->conn != NULL) {
			BsRpcConn *conn = bs_rpc_conn_ref(c->conn);

			bs_rpc_conn_close(conn, "loadgen is shutting down");
			client_gone(c);
			bs_rpc_conn_unref(conn);
		}
	}
	g_clear_pointer(&lg->clients, g_free);
	if (lg->submit != NULL)
		basalt__submit_request__free_unpacked(lg->submit, NULL);
	lg->submit = NULL;
}

void
lg_clients_summary(const Lg *lg)
{
	double s = lg->last_reply_us > lg->first_submit_us ?
	    (double)(lg->last_reply_us - lg->first_submit_us) / G_USEC_PER_SEC : 0;

	printf("submitted: %" G_GUINT64_FORMAT " jobs, %" G_GUINT64_FORMAT
	    " refused, in %.3f s: %.1f jobs/s\n", lg->submits_ok, lg->submits_failed,
	    s, s > 0 ? (double)lg->submits_ok / s : 0.0);
	if (lg->queries > 0)
		printf("queries: %" G_GUINT64_FORMAT ", mean %.3f ms\n", lg->queries,
		    (double)lg->query_us / (double)lg->queries / 1000.0);
	fflush(stdout);
}
