/*
 * bs-fakepeer: the hostile peers of the trust tests (t0500..t0520), so a
 * test can play a user who pretends to be an execution host, a master or
 * another user, with the real wire protocol.
 *
 *   bs-fakepeer host ADDR --name H [--cred C] [--boot N] [--job ID] [--seq N]
 *       hello as EXEC_HOST, RegisterHost H (holding job ID as RUN, else no
 *       job), then one JobReport with seq N about job 999999 if --seq is
 *       given.
 *   bs-fakepeer client ADDR [--cred C] [--hello-name U] --submit CMD
 *       [--cwd DIR] [--out FILE] [--env K=V]...
 *       hello as CLIENT and submit CMD.
 *   bs-fakepeer master --listen IP:PORT [--cred C] --touch FILE
 *       serve the master port: accept any execution host and, when it
 *       registers, order it to run `touch FILE` as root.
 *
 * ADDR is unix:PATH or IP:PORT.  C is none, garbage, or munge:SOCKET for a
 * credential of the calling user from that munged (its payload says what
 * the hello says; the master answers the dialer's nonce with it).
 * Prints one line per outcome; exits 0 when the peer got what it asked
 * for, 2 when it was refused, 1 on any other failure.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "batch.pb-c.h"
#include "host.pb-c.h"
#include "rpc/client.h"
#include "rpc/rpc.h"
#include "util/error.h"

static const char *opt_cred = "none";
static const char *opt_name;
static const char *opt_hello_name;
static const char *opt_submit;
static const char *opt_cwd;
static const char *opt_out;
static const char *opt_listen;
static const char *opt_touch;
static char **opt_env;
static gint64 opt_boot;
static guint64 opt_seq;
static gint64 opt_job;

static GBytes *
make_cred(int role, const char *name, char **nonce)
{
	GError *err = NULL;
	GBytes *b;

	if (strcmp(opt_cred, "none") == 0)
		return NULL;
	if (strcmp(opt_cred, "garbage") == 0)
		return g_bytes_new_static("MUNGE:AAAAforgedforgedforged:", 28);
	if (strncmp(opt_cred, "munge:", 6) != 0) {
		fprintf(stderr, "bs-fakepeer: bad --cred %s\n", opt_cred);
		exit(1);
	}
	b = bs_auth_hello_credential(opt_cred + 6, role, name, nonce, &err);
	if (b == NULL) {
		fprintf(stderr, "bs-fakepeer: %s\n", err->message);
		exit(1);
	}
	return b;
}

static BsClient *
dial(const char *addr, int role, const char *name)
{
	BsClientOptions o;
	GError *err = NULL;
	GBytes *cred = make_cred(role, name, NULL);
	g_autofree char *host = NULL;
	BsClient *c;

	bs_client_options_init(&o);
	o.role = role;
	o.name = name;
	o.timeout_ms = 10000;
	if (strncmp(addr, "unix:", 5) == 0) {
		o.unix_path = addr + 5;
	} else {
		const char *colon = strrchr(addr, ':');

		if (colon == NULL) {
			fprintf(stderr, "bs-fakepeer: bad address %s\n", addr);
			exit(1);
		}
		host = g_strndup(addr, (gsize)(colon - addr));
		o.host = host;
		o.port = (guint16)atoi(colon + 1);
	}
	if (cred != NULL)
		o.credential = g_bytes_get_data(cred, &o.credential_len);
	c = bs_client_connect(&o, &err);
	if (cred != NULL)
		g_bytes_unref(cred);
	if (c == NULL) {
		printf("refused: %s\n", err->message);
		exit(err->code == BS_ERROR_REFUSED ? 2 : 1);
	}
	printf("hello accepted\n");
	return c;
}

static int
call_failed(const char *what, GError *err)
{
	printf("%s failed: %s\n", what, err->message);
	g_error_free(err);
	return 1;
}

static int
run_host(const char *addr)
{
	BsClient *c = dial(addr, BASALT__ROLE__ROLE_EXEC_HOST, opt_name);
	Basalt__RegisterRequest req = BASALT__REGISTER_REQUEST__INIT;
	Basalt__RegisterReply *r = NULL;
	GError *err = NULL;

	Basalt__HostJob held = BASALT__HOST_JOB__INIT, *heldp = &held;

	req.host_name = (char *)opt_name;
	req.ncpus = 64;
	req.boot_time = opt_boot;
	if (opt_job > 0) {
		held.job_id = (guint64)opt_job;
		held.state = BASALT__JOB_STATE__JOB_STATE_RUN;
		req.jobs = &heldp;
		req.n_jobs = 1;
	}
	if (!bs_client_call(c, &basalt__host_service__descriptor, 0, &req.base,
	    (ProtobufCMessage **)&r, &err)) {
		bs_client_free(c);
		return call_failed("RegisterHost", err);
	}
	if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		printf("registration refused: %s\n", r->error->message);
		basalt__register_reply__free_unpacked(r, NULL);
		bs_client_free(c);
		return 2;
	}
	printf("registered %s\n", opt_name);
	basalt__register_reply__free_unpacked(r, NULL);
	if (opt_seq != 0) {
		Basalt__JobReport rep = BASALT__JOB_REPORT__INIT;
		Basalt__HostJob hj = BASALT__HOST_JOB__INIT;
		Basalt__JobReportReply *rr = NULL;

		hj.job_id = 999999;
		hj.state = BASALT__JOB_STATE__JOB_STATE_DONE;
		rep.seq = opt_seq;
		rep.job = &hj;
		if (!bs_client_call(c, &basalt__host_service__descriptor, 2,
		    &rep.base, (ProtobufCMessage **)&rr, &err)) {
			bs_client_free(c);
			return call_failed("Report", err);
		}
		printf("report acked %" G_GUINT64_FORMAT "\n", rr->acked_seq);
		basalt__job_report_reply__free_unpacked(rr, NULL);
	}
	bs_client_free(c);
	return 0;
}

static int
run_client(const char *addr)
{
	BsClient *c = dial(addr, BASALT__ROLE__ROLE_CLIENT,
	    opt_hello_name != NULL ? opt_hello_name : g_get_user_name());
	Basalt__SubmitRequest req = BASALT__SUBMIT_REQUEST__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__SubmitReply *r = NULL;
	GError *err = NULL;

	spec.command = (char *)opt_submit;
	spec.cwd = (char *)(opt_cwd != NULL ? opt_cwd : "/");
	spec.stdout_path = (char *)(opt_out != NULL ? opt_out : "/dev/null");
	spec.env = opt_env;
	spec.n_env = opt_env != NULL ? g_strv_length(opt_env) : 0;
	req.spec = &spec;
	if (!bs_client_call(c, &basalt__batch_service__descriptor, 0, &req.base,
	    (ProtobufCMessage **)&r, &err)) {
		bs_client_free(c);
		return call_failed("Submit", err);
	}
	if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		printf("submission refused: %s\n", r->error->message);
		basalt__submit_reply__free_unpacked(r, NULL);
		bs_client_free(c);
		return 2;
	}
	printf("Job <%" G_GUINT64_FORMAT "> is submitted\n", r->job_id);
	basalt__submit_reply__free_unpacked(r, NULL);
	bs_client_free(c);
	return 0;
}

/* ---- the fake master ---- */

static Basalt__HostService_Service host_svc;

static void
started(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data)
{
	const Basalt__StartJobReply *r = (const void *)reply;

	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		printf("start order failed: %s\n", error ? error->message : "?");
	else if (r->error != NULL && r->error->code != 0)
		printf("start order refused: %s\n", r->error->message);
	else
		printf("start order accepted, pgid %d\n", r->pgid);
	fflush(stdout);
}

static void
fake_register_host(Basalt__HostService_Service *svc,
    const Basalt__RegisterRequest *req, Basalt__RegisterReply_Closure closure,
    void *call)
{
	Basalt__RegisterReply reply = BASALT__REGISTER_REPLY__INIT;
	Basalt__StartJobRequest start = BASALT__START_JOB_REQUEST__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	g_autofree char *cmd = g_strdup_printf("touch %s", opt_touch);

	printf("RegisterHost from %s\n", req->host_name);
	fflush(stdout);
	reply.heartbeat_interval_s = 60;
	reply.cluster_name = (char *)"basalt";
	closure(&reply, call);
	spec.command = cmd;
	spec.cwd = (char *)"/";
	spec.stdout_path = (char *)"/dev/null";
	start.job_id = 424242;
	start.user = (char *)"root";
	start.spec = &spec;
	start.instance = 1;
	bs_rpc_conn_call(bs_rpc_call_conn(call), &basalt__exec_service__descriptor,
	    0, &start.base, 10000, started, NULL, NULL);
}

static void
fake_heartbeat(Basalt__HostService_Service *svc,
    const Basalt__HeartbeatRequest *req,
    Basalt__HeartbeatReply_Closure closure, void *call)
{
	Basalt__HeartbeatReply reply = BASALT__HEARTBEAT_REPLY__INIT;

	closure(&reply, call);
}

static void
fake_report(Basalt__HostService_Service *svc, const Basalt__JobReport *req,
    Basalt__JobReportReply_Closure closure, void *call)
{
	Basalt__JobReportReply reply = BASALT__JOB_REPORT_REPLY__INIT;

	reply.acked_seq = req->seq;
	closure(&reply, call);
}

static void
fake_task_job(Basalt__HostService_Service *svc, const Basalt__TaskJobRequest *req,
    Basalt__TaskJobReply_Closure closure, void *call)
{
	Basalt__TaskJobReply reply = BASALT__TASK_JOB_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;

	e.code = BASALT__ERROR_CODE__ERROR_CODE_NO_JOB;
	e.message = "a fake master knows no job";
	reply.error = &e;
	closure(&reply, call);
}

static void
fake_task_usage(Basalt__HostService_Service *svc,
    const Basalt__TaskUsageRequest *req, Basalt__TaskUsageReply_Closure closure,
    void *call)
{
	Basalt__TaskUsageReply reply = BASALT__TASK_USAGE_REPLY__INIT;

	closure(&reply, call);
}

/* Learn the dialer's nonce: anyone may decode a credential at munged. */
static gboolean
fake_authenticate(BsRpcPeer *peer, const guint8 *cred, gsize len,
    char **reason, void *data)
{
	BsAuthCred c;

	if (strncmp(opt_cred, "munge:", 6) == 0 &&
	    bs_auth_hello_verify(opt_cred + 6, cred, len, peer->role, peer->name,
	    &c, NULL)) {
		peer->auth_nonce = g_steal_pointer(&c.nonce);
		bs_auth_cred_clear(&c);
	}
	printf("hello from %s\n", peer->name);
	fflush(stdout);
	return TRUE;
}

static GBytes *
fake_reply_cred(const BsRpcPeer *peer, void *data)
{
	if (strcmp(opt_cred, "garbage") == 0)
		return g_bytes_new_static("MUNGE:AAAAforged:", 17);
	if (peer->auth_nonce == NULL)
		return NULL;
	return bs_auth_reply_credential(opt_cred + 6, peer->auth_nonce,
	    "basalt", NULL);
}

static void
fake_closed(BsRpcConn *conn, const char *reason, void *data)
{
	printf("connection closed: %s\n", reason);
	fflush(stdout);
}

static int
run_master(void)
{
	BsRpcServerOptions o;
	BsRpcServer *srv;
	GError *err = NULL;
	const char *colon = opt_listen != NULL ? strrchr(opt_listen, ':') : NULL;
	g_autofree char *ip = NULL;
	Basalt__HostService_Service init = BASALT__HOST_SERVICE__INIT(fake_);

	if (colon == NULL || opt_touch == NULL) {
		fprintf(stderr, "bs-fakepeer: master needs --listen IP:PORT and "
		    "--touch FILE\n");
		return 1;
	}
	host_svc = init;
	ip = g_strndup(opt_listen, (gsize)(colon - opt_listen));
	bs_rpc_server_options_init(&o);
	o.authenticate = fake_authenticate;
	o.reply_credential = fake_reply_cred;
	srv = bs_rpc_server_new(&o, NULL);
	bs_rpc_server_register(srv, BASALT__ROLE__ROLE_EXEC_HOST, &host_svc.base);
	bs_rpc_server_set_callbacks(srv, NULL, fake_closed, NULL);
	if (!bs_rpc_server_listen_tcp(srv, ip, (guint16)atoi(colon + 1), NULL,
	    &err)) {
		fprintf(stderr, "bs-fakepeer: %s\n", err->message);
		return 1;
	}
	printf("listening on %s\n", opt_listen);
	fflush(stdout);
	g_main_loop_run(g_main_loop_new(NULL, FALSE));
	return 0;
}

int
main(int argc, char **argv)
{
	char *mode = argc > 1 ? argv[1] : NULL;
	char *addr = NULL;
	gchar *seq = NULL;
	GOptionEntry entries[] = {
		{ "cred", 0, 0, G_OPTION_ARG_STRING, &opt_cred, "credential", "C" },
		{ "name", 0, 0, G_OPTION_ARG_STRING, &opt_name, "host name", "H" },
		{ "hello-name", 0, 0, G_OPTION_ARG_STRING, &opt_hello_name, "name", "U" },
		{ "boot", 0, 0, G_OPTION_ARG_INT64, &opt_boot, "boot time", "N" },
		{ "seq", 0, 0, G_OPTION_ARG_STRING, &seq, "report seq", "N" },
		{ "job", 0, 0, G_OPTION_ARG_INT64, &opt_job, "a RUN job", "ID" },
		{ "submit", 0, 0, G_OPTION_ARG_STRING, &opt_submit, "command", "CMD" },
		{ "cwd", 0, 0, G_OPTION_ARG_STRING, &opt_cwd, "cwd", "DIR" },
		{ "out", 0, 0, G_OPTION_ARG_STRING, &opt_out, "stdout", "FILE" },
		{ "env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_env, "env", "K=V" },
		{ "listen", 0, 0, G_OPTION_ARG_STRING, &opt_listen, "listen", "IP:PORT" },
		{ "touch", 0, 0, G_OPTION_ARG_STRING, &opt_touch, "file", "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionContext *ctx = g_option_context_new("host|client|master [ADDR]");
	GError *err = NULL;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err) || mode == NULL) {
		fprintf(stderr, "bs-fakepeer: %s\n", err ? err->message :
		    "usage: bs-fakepeer host|client|master ...");
		return 1;
	}
	g_option_context_free(ctx);
	if (seq != NULL)
		opt_seq = g_ascii_strtoull(seq, NULL, 10);
	g_free(seq);
	setvbuf(stdout, NULL, _IOLBF, 0);
	addr = argc > 2 ? argv[2] : NULL;
	if (strcmp(mode, "master") == 0)
		return run_master();
	if (addr == NULL) {
		fprintf(stderr, "bs-fakepeer: %s needs an address\n", mode);
		return 1;
	}
	if (strcmp(mode, "host") == 0 && opt_name != NULL)
		return run_host(addr);
	if (strcmp(mode, "client") == 0 && opt_submit != NULL)
		return run_client(addr);
	fprintf(stderr, "bs-fakepeer: bad arguments\n");
	return 1;
}
