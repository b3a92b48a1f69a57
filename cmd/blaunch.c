/*
 * blaunch: start a parallel job's tasks on the hosts of its allocation.
 *
 *   blaunch [-n] [-u hostfile | -z "host ..." | host] [-use-login-shell |
 *           -no-shell] command [argument ...]
 *
 * Run inside a job (LSB_JOBID is set), as LSF's blaunch is: for each host
 * named (or, with none, for every slot of the allocation) it dials that
 * host's sbatchd on its task port (sbatchd/sbd-tasks.c) with the user's
 * MUNGE credential, and checks the answer carries a credential of root or
 * the LSF administrator before it sends anything.  The task's stdout and
 * stderr come back over the connection to blaunch's own; SIGINT, SIGTERM,
 * SIGHUP, SIGUSR1 and SIGUSR2 sent to blaunch go on to every task; blaunch
 * waits for all of them and exits with the status of the one task, or with
 * several the first non-zero status in host order (128+N for a task killed
 * by signal N; 255 for a task that could not be started or was lost).
 *
 * It is the remote shell MPI launchers are told to use (Open MPI
 * plm_rsh_agent, MPICH Hydra -launcher-exec): `blaunch host command...` runs
 * the command line through /bin/sh on that host, as rsh would.
 *
 * It talks to nobody but sbatchd: a host's address is the first line naming
 * it in $LSF_ENVDIR/hosts, else the resolver's; the port is LSF_RES_PORT
 * (6878), or with LSF_RES_PORT=0 the port that host's sbatchd wrote to
 * $LSB_SHAREDIR/res.port.<host> (virtual hosts on one machine).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>

#include "api/api.h"
#include "auth/auth.h"
#include "auth/peer.h"
#include "host.pb-c.h"
#include "rpc/rpc.h"
#include "util/error.h"
#include "util/log.h"
#include "util/writeall.h"

#define RES_PORT_DEFAULT 6878
#define CALL_TIMEOUT_MS 60000

extern char **environ;

typedef struct {
	char *host;
	BsRpcConn *conn;
	char *nonce;
	guint64 task_id;          /* 0 until started */
	gboolean done;
	int status;               /* exit code, 128+signal, 255 */
} Target;

static GPtrArray *targets;
static GMainLoop *loop;
static GHashTable *conf;
static char *envdir;
static const char *munge_socket;
static uid_t admin_uid;
static char **command;
static Basalt__StartTaskRequest__Shell shell_mode;
static guint64 job_id;
static guint32 job_index;

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: blaunch [-n] [-u host_file | -z \"host_name ...\" | "
	    "host_name] [-use-login-shell | -no-shell] command [argument ...]\n"
	    "       blaunch -h | -V\n");
}

static void
check_all_done(void)
{
	for (guint i = 0; i < targets->len; i++)
		if (!((Target *)targets->pdata[i])->done)
			return;
	g_main_loop_quit(loop);
}

static void
target_done(Target *t, int status)
{
	if (t->done)
		return;
	t->done = TRUE;
	t->status = status;
	check_all_done();
}

static Target *
target_of_conn(BsRpcConn *conn)
{
	for (guint i = 0; i < targets->len; i++)
		if (((Target *)targets->pdata[i])->conn == conn)
			return targets->pdata[i];
	return NULL;
}

/* ---- what sbatchd sends back: output and the end ---------------------- */

static void
io_output(Basalt__TaskIoService_Service *svc, const Basalt__TaskOutput *in,
    Basalt__TaskIoAck_Closure closure, void *call)
{
	Basalt__TaskIoAck ack = BASALT__TASK_IO_ACK__INIT;

	if (target_of_conn(bs_rpc_call_conn(call)) != NULL)
		/* A failure means our reader is gone: the output is lost. */
		(void)bs_write_all(in->stream == 2 ? 2 : 1, in->data.data,
		    in->data.len, NULL);
	closure(&ack, call);
}

static void
io_exited(Basalt__TaskIoService_Service *svc, const Basalt__TaskExit *in,
    Basalt__TaskIoAck_Closure closure, void *call)
{
	Basalt__TaskIoAck ack = BASALT__TASK_IO_ACK__INIT;
	Target *t = target_of_conn(bs_rpc_call_conn(call));

	closure(&ack, call);
	if (t == NULL)
		return;
	if (in->reason != NULL && *in->reason != '\0')
		fprintf(stderr, "blaunch: task on host %s: %s\n", t->host, in->reason);
	target_done(t, in->term_signal > 0 ? 128 + in->term_signal :
	    in->exit_code & 0xff);
}

static Basalt__TaskIoService_Service io_service = {
	.base = BASALT__TASK_IO_SERVICE__BASE_INIT,
	.output = io_output,
	.exited = io_exited,
};

/* ---- starting --------------------------------------------------------- */

static void
started(BsRpcConn *conn, Basalt__RpcStatus status, const ProtobufCMessage *msg,
    const GError *error, void *data)
{
	Target *t = data;
	const Basalt__StartTaskReply *r = (const Basalt__StartTaskReply *)msg;

	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		fprintf(stderr, "blaunch: cannot start the task on host %s: %s\n",
		    t->host, error != NULL ? error->message : "no answer");
		target_done(t, 255);
	} else if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		fprintf(stderr, "blaunch: cannot start the task on host %s: %s\n",
		    t->host, r->error->message);
		target_done(t, 255);
	} else {
		t->task_id = r->task_id;
	}
}

static void
on_ready(BsRpcConn *conn, void *data)
{
	Target *t = data;
	Basalt__StartTaskRequest req = BASALT__START_TASK_REQUEST__INIT;
	g_autofree char *cwd = g_get_current_dir();
	g_autoptr(GError) err = NULL;

	req.job_id = job_id;
	req.array_index = job_index;
	req.argv = command;
	req.n_argv = g_strv_length(command);
	req.shell = shell_mode;
	req.env = environ;
	req.n_env = g_strv_length(environ);
	req.cwd = cwd;
	if (!bs_rpc_conn_call(conn, &basalt__task_service__descriptor, 0,
	    &req.base, CALL_TIMEOUT_MS, started, t, &err)) {
		fprintf(stderr, "blaunch: cannot start the task on host %s: %s\n",
		    t->host, err->message);
		target_done(t, 255);
	}
}

static void
on_closed(BsRpcConn *conn, const char *reason, void *data)
{
	Target *t = data;

	if (!t->done) {
		fprintf(stderr, "blaunch: lost the task on host %s: %s\n", t->host,
		    reason != NULL ? reason : "connection closed");
		target_done(t, 255);
	}
}

static gboolean
is_admin(uid_t uid, void *data)
{
	return uid == admin_uid;
}

/* The answer must be sbatchd's: root or the LSF administrator, our nonce. */
static gboolean
verify_sbatchd(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	Target *t = data;
	BsAuthCred c;

	if (!bs_auth_server_verify(munge_socket, cred, len, t->nonce,
	    "not sbatchd", is_admin, NULL, &c, reason))
		return FALSE;
	bs_auth_cred_clear(&c);
	return TRUE;
}

/* ---- where hosts are -------------------------------------------------- */

/* The first "ADDRESS NAME ALIAS..." line of $LSF_ENVDIR/hosts naming it. */
static char *
hosts_file_address(const char *name)
{
	g_autofree char *path = g_build_filename(envdir, "hosts", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_auto(GStrv) w = NULL;
		char *hash = strchr(lines[i], '#');

		if (hash != NULL)
			*hash = '\0';
		w = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
		for (guint k = 1; w[0] != NULL && w[k] != NULL; k++)
			if (g_ascii_strcasecmp(w[k], name) == 0)
				return g_strdup(w[0]);
	}
	return NULL;
}

static gboolean
task_port(const char *host, guint16 *port, GError **err)
{
	const char *v = g_hash_table_lookup(conf, "LSF_RES_PORT");
	g_autofree char *share = NULL, *name = NULL, *path = NULL, *text = NULL;
	guint64 n = RES_PORT_DEFAULT;

	if (v != NULL && *v != '\0' &&
	    !g_ascii_string_to_unsigned(v, 10, 0, 65535, &n, err))
		return FALSE;
	if (n != 0) {
		*port = (guint16)n;
		return TRUE;
	}
	share = lsb_conf_path(conf, envdir, "LSB_SHAREDIR");
	if (share == NULL)
		share = g_build_filename(envdir, "work", NULL);
	name = g_strconcat("res.port.", host, NULL);
	path = g_build_filename(share, name, NULL);
	if (!g_file_get_contents(path, &text, NULL, NULL) ||
	    !g_ascii_string_to_unsigned(g_strstrip(text), 10, 1, 65535, &n, NULL)) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG, "LSF_RES_PORT is 0 and "
		    "%s holds no port: is sbatchd running on host %s?", path, host);
		return FALSE;
	}
	*port = (guint16)n;
	return TRUE;
}

static gboolean
target_dial(Target *t, GError **err)
{
	g_autofree char *addr = hosts_file_address(t->host);
	BsRpcDialOptions opts;
	GBytes *cred;
	guint16 port;

	if (addr == NULL && (addr = bs_rpc_master_address(t->host, err)) == NULL)
		return FALSE;
	if (!task_port(t->host, &port, err))
		return FALSE;
	cred = bs_auth_hello_credential(munge_socket, BASALT__ROLE__ROLE_CLIENT,
	    g_get_user_name(), &t->nonce, err);
	if (cred == NULL)
		return FALSE;
	bs_rpc_dial_options_init(&opts);
	opts.host = addr;
	opts.port = port;
	opts.role = BASALT__ROLE__ROLE_CLIENT;
	opts.name = g_get_user_name();
	opts.credential = g_bytes_get_data(cred, &opts.credential_len);
	opts.verify_reply = verify_sbatchd;
	opts.verify_data = t;
	opts.serve = &io_service.base;
	t->conn = bs_rpc_dial(&opts, NULL, on_ready, on_closed, t, err);
	g_bytes_unref(cred);
	return t->conn != NULL;
}

/* ---- the allocation --------------------------------------------------- */

static void
add_words(GPtrArray *out, const char *text)
{
	g_auto(GStrv) w = g_strsplit_set(text, " \t\r\n", -1);

	for (guint i = 0; w[i] != NULL; i++)
		if (*w[i] != '\0')
			g_ptr_array_add(out, g_strdup(w[i]));
}

/* One entry per slot, in order. */
static GPtrArray *
allocation(void)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	const char *file = g_getenv("LSB_DJOB_HOSTFILE");
	const char *hosts = g_getenv("LSB_HOSTS");
	const char *mcpu = g_getenv("LSB_MCPU_HOSTS");
	g_autofree char *text = NULL;

	if (file != NULL && g_file_get_contents(file, &text, NULL, NULL)) {
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		/* "host" or "host slots" per line. */
		for (guint i = 0; lines[i] != NULL; i++) {
			g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
			guint64 n = 1;

			if (w[0] == NULL || *w[0] == '\0' || *w[0] == '#')
				continue;
			if (w[1] != NULL)
				(void)g_ascii_string_to_unsigned(w[1], 10, 1, 100000, &n, NULL);
			for (guint64 k = 0; k < n; k++)
				g_ptr_array_add(out, g_strdup(w[0]));
		}
	} else if (hosts != NULL && *hosts != '\0') {
		add_words(out, hosts);
	} else if (mcpu != NULL) {
		g_auto(GStrv) w = g_strsplit_set(mcpu, " \t", -1);
		guint n = 0;

		for (guint i = 0; w[i] != NULL; i++) {
			guint64 k;

			if (*w[i] == '\0')
				continue;
			if (n++ % 2 == 0) {
				g_ptr_array_add(out, g_strdup(w[i]));
			} else if (g_ascii_string_to_unsigned(w[i], 10, 1, 100000, &k,
			    NULL) && out->len > 0) {
				for (guint64 c = 1; c < k; c++)
					g_ptr_array_add(out, g_strdup(out->pdata[out->len - 1]));
			}
		}
	}
	return out;
}

static gboolean
in_allocation(GPtrArray *alloc, const char *host)
{
	for (guint i = 0; i < alloc->len; i++)
		if (g_ascii_strcasecmp(alloc->pdata[i], host) == 0)
			return TRUE;
	return FALSE;
}

/* Is name a host of the cluster (lsf.cluster.*'s Host section, or
 * $LSF_ENVDIR/hosts)?  Read only to tell the rsh form naming a host
 * outside the allocation from a command. */
static gboolean
cluster_host(const char *name)
{
	g_autoptr(GDir) dir = g_dir_open(envdir, 0, NULL);
	const char *f;
	g_autofree char *addr = hosts_file_address(name);

	if (addr != NULL)
		return TRUE;
	while (dir != NULL && (f = g_dir_read_name(dir)) != NULL) {
		g_autofree char *path = NULL, *text = NULL;
		g_auto(GStrv) lines = NULL;
		gboolean in_host = FALSE;

		if (!g_str_has_prefix(f, "lsf.cluster."))
			continue;
		path = g_build_filename(envdir, f, NULL);
		if (!g_file_get_contents(path, &text, NULL, NULL))
			continue;
		lines = g_strsplit(text, "\n", -1);
		for (guint i = 0; lines[i] != NULL; i++) {
			g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i]), " \t", 2);

			if (w[0] == NULL || *w[0] == '\0' || *w[0] == '#')
				continue;
			if (g_ascii_strcasecmp(w[0], "Begin") == 0 && w[1] != NULL)
				in_host = g_ascii_strcasecmp(g_strstrip(w[1]), "Host") == 0;
			else if (g_ascii_strcasecmp(w[0], "End") == 0)
				in_host = FALSE;
			else if (in_host && g_ascii_strcasecmp(w[0], name) == 0)
				return TRUE;
		}
	}
	return FALSE;
}

/* ---- signals ---------------------------------------------------------- */

static void
signal_sent(BsRpcConn *conn, Basalt__RpcStatus status, const ProtobufCMessage *msg,
    const GError *error, void *data)
{
}

static void
forward_signal(int sig)
{
	for (guint i = 0; i < targets->len; i++) {
		Target *t = targets->pdata[i];
		Basalt__SignalTaskRequest req = BASALT__SIGNAL_TASK_REQUEST__INIT;

		if (t->done || t->task_id == 0 || t->conn == NULL)
			continue;
		req.task_id = t->task_id;
		req.signal = sig;
		(void)bs_rpc_conn_call(t->conn, &basalt__task_service__descriptor, 1,
		    &req.base, CALL_TIMEOUT_MS, signal_sent, NULL, NULL);
	}
}

/*
 * A signal root sent (sbatchd carrying out bkill, bkill -s, a queue's
 * TERMINATE) is already on its way to every task of the job through the
 * job's order on each host: forwarding it too would deliver it twice.
 * Every other one (the user's kill, a terminal's ^C) goes on to the tasks.
 */
static gboolean
on_signalfd(gint fd, GIOCondition cond, gpointer data)
{
	struct signalfd_siginfo si;

	while (read(fd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_code == SI_USER && si.ssi_uid == 0 && getuid() != 0)
			continue;
		forward_signal((int)si.ssi_signo);
	}
	return G_SOURCE_CONTINUE;
}

/* ---- main ------------------------------------------------------------- */

static int
fail(const char *fmt, ...)
{
	va_list ap;

	fputs("blaunch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int
main(int argc, char **argv)
{
	g_autoptr(GPtrArray) hosts = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) alloc = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *conf_path = NULL;
	gboolean have_hosts = FALSE;
	const char *jobid = g_getenv("LSB_JOBID");
	const char *jobindex = g_getenv("LSB_JOBINDEX");
	struct stat st;
	int i, rc = 0;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };

	/* lib/rpc's connection notes would land in the job's output. */
	bs_log_init("blaunch", BS_LOG_WARNING);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "-V") == 0) {
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		} else if (strcmp(a, "-n") == 0) {
			/* Tasks always read /dev/null. */
		} else if (strcmp(a, "-no-shell") == 0) {
			shell_mode = BASALT__START_TASK_REQUEST__SHELL__SHELL_NONE;
		} else if (strcmp(a, "-use-login-shell") == 0) {
			shell_mode = BASALT__START_TASK_REQUEST__SHELL__SHELL_LOGIN;
		} else if ((strcmp(a, "-u") == 0 || strcmp(a, "-z") == 0) && !have_hosts) {
			g_autofree char *text = NULL;

			if (i + 1 >= argc) {
				usage(stderr);
				return 1;
			}
			if (a[1] == 'u' && !g_file_get_contents(argv[i + 1], &text,
			    NULL, &err))
				return fail("%s", err->message);
			add_words(hosts, a[1] == 'u' ? text : argv[i + 1]);
			have_hosts = TRUE;
			i++;
		} else if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "blaunch: unknown option %s\n", a);
			usage(stderr);
			return 1;
		} else {
			break;
		}
	}
	if (jobid == NULL || *jobid == '\0' ||
	    !g_ascii_string_to_unsigned(jobid, 10, 1, G_MAXUINT64, &job_id, NULL))
		return fail("not inside a job: LSB_JOBID is not set");
	if (jobindex != NULL && *jobindex != '\0') {
		guint64 n;

		if (g_ascii_string_to_unsigned(jobindex, 10, 0, G_MAXUINT32, &n, NULL))
			job_index = (guint32)n;
	}
	alloc = allocation();
	if (alloc->len == 0)
		return fail("the job's hosts are not known (LSB_HOSTS is not set)");
	envdir = lsb_envdir();
	/* rsh's form: blaunch host command ...; a host of the cluster outside
	 * the allocation is refused below, not run as a command. */
	if (!have_hosts && i + 1 < argc && (in_allocation(alloc, argv[i]) ||
	    cluster_host(argv[i]))) {
		g_ptr_array_add(hosts, g_strdup(argv[i]));
		have_hosts = TRUE;
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return 1;
	}
	command = &argv[i];
	if (!have_hosts)
		for (guint k = 0; k < alloc->len; k++)
			g_ptr_array_add(hosts, g_strdup(alloc->pdata[k]));
	if (hosts->len == 0)
		return fail("no host given");
	for (guint k = 0; k < hosts->len; k++)
		if (!in_allocation(alloc, hosts->pdata[k]))
			return fail("host %s is not allocated to job <%s>",
			    (char *)hosts->pdata[k], jobid);

	if ((conf = lsb_read_lsf_conf(envdir, &err)) == NULL)
		return fail("%s", err->message);
	if (!bs_auth_enabled(conf))
		return fail("tasks on other hosts need MUNGE (LSF_AUTH=munge in "
		    "lsf.conf), which this cluster does not use");
	munge_socket = bs_auth_socket(conf);
	conf_path = g_build_filename(envdir, "lsf.conf", NULL);
	admin_uid = stat(conf_path, &st) == 0 ? st.st_uid : 0;

	loop = g_main_loop_new(NULL, FALSE);
	targets = g_ptr_array_new();
	for (guint k = 0; k < hosts->len; k++) {
		Target *t = g_new0(Target, 1);

		t->host = g_strdup(hosts->pdata[k]);
		g_ptr_array_add(targets, t);
	}
	{
		sigset_t set;
		int sfd;

		sigemptyset(&set);
		for (guint k = 0; k < G_N_ELEMENTS(sigs); k++)
			sigaddset(&set, sigs[k]);
		if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
		    (sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
			return fail("cannot watch signals: %s", g_strerror(errno));
		g_unix_fd_add(sfd, G_IO_IN, on_signalfd, NULL);
	}
	for (guint k = 0; k < targets->len; k++) {
		Target *t = targets->pdata[k];

		g_clear_error(&err);
		if (!target_dial(t, &err)) {
			fprintf(stderr, "blaunch: cannot reach host %s: %s\n", t->host,
			    err != NULL ? err->message : "?");
			target_done(t, 255);
		}
	}
	check_all_done();
	if (g_main_loop_is_running(loop) || targets->len > 0) {
		gboolean pending = FALSE;

		for (guint k = 0; k < targets->len; k++)
			pending |= !((Target *)targets->pdata[k])->done;
		if (pending)
			g_main_loop_run(loop);
	}
	for (guint k = 0; k < targets->len; k++) {
		Target *t = targets->pdata[k];

		if (rc == 0 && t->status != 0)
			rc = t->status;
		if (t->conn != NULL) {
			bs_rpc_conn_close(t->conn, "blaunch is done");
			bs_rpc_conn_unref(t->conn);
		}
		g_free(t->host);
		g_free(t->nonce);
		g_free(t);
	}
	g_ptr_array_free(targets, TRUE);
	g_main_loop_unref(loop);
	g_hash_table_unref(conf);
	g_free(envdir);
	return rc;
}
