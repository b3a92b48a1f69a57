/*
 * bsub -I, -Ip, -Is: listen, authenticate the job's relay, relay, exit
 * with the job's status (bsub-interactive.h).
 *
 * Where bsub listens.  On a cluster with MUNGE (LSF_AUTH=munge) on TCP, on
 * every address of this host with a port the kernel picks, advertised as
 * the address this host's name resolves to; the job may run on any host.
 * Without MUNGE, only local links are trusted (as for the daemons), so bsub
 * listens on a Unix socket in a fresh 0700 directory, and the job must run
 * on this host.
 *
 * Who may connect.  Over TCP the relay's hello carries a MUNGE credential
 * that sbatchd made as root for exactly this job and the nonce bsub chose
 * for this submission; bsub accepts nothing else, so another user who
 * finds the port can neither read nor type into the session.  bsub answers
 * with its own credential, which the relay accepts only from the job's
 * owner.  On the Unix socket the kernel's SO_PEERCRED says who connected
 * (root or this user; nobody else can reach the 0700 directory).  A
 * refused connection is closed and bsub keeps waiting.
 *
 * The terminal.  -Ip and -Is put the local terminal in raw mode, so ^C and
 * ^Z travel as bytes to the job's pseudo-terminal and its line discipline
 * signals the job's foreground process group there.  The terminal is
 * restored on every way out: normal end, lost link, and the signals that
 * end bsub.  -I leaves the terminal as it is: ^C interrupts bsub.
 *
 * Ending.  SIGINT, SIGTERM, SIGHUP (a closed terminal) or SIGQUIT end bsub
 * and kill the job (a kill request to mbatchd; bsub then holds the link
 * until the relay reports the end, at most KILL_WAIT_MS, as the relay
 * hangs the job up when the link closes and records the end as a lost
 * link).  When the relay reports the command's end,
 * or the link is lost, bsub asks mbatchd how the job ended and exits as
 * bsub -K does: the job's exit code, 128+signal, or 126 for a job killed
 * before it started.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "api/api.h"
#include "auth/auth.h"
#include "bsub-interactive.h"
#include "cmd-util.h"
#include "iact/iact-wire.h"
#include "usage-format.h"
#include "util/error.h"
#include "util/writeall.h"

/* A caller gets this long to say hello.  Callers are served side by side
 * (at most MAX_CALLERS, the oldest makes room), so one that stalls delays
 * no one. */
#define HELLO_TIMEOUT_MS 10000
#define MAX_CALLERS 16
/* How often a waiting bsub asks whether its job ended without starting. */
#define PENDING_CHECK_MS 2000
/* How long bsub waits for mbatchd to record the end of the job. */
#define FINAL_WAIT_S 60
/* After bsub's kill request, how long it waits for the job's end. */
#define KILL_WAIT_MS 5000

struct BsubIa {
	int mode;
	int lfd;
	char *dir;              /* the Unix socket's private directory */
	char *sock_path;
	char *munge;            /* MUNGE socket, NULL: none (Unix socket) */
	gboolean use_munge;
	char *nonce;
	guint64 job_id;
	char *host;             /* where the job started */
	guint32 winsize;        /* the window size the job spec carries */
	gboolean input_file;    /* -i: the job reads a file, not our stdin */
};

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t got_winch;
static struct termios saved_tio;
static gboolean raw_on;

static void
on_signal(int sig)
{
	if (sig == SIGWINCH)
		got_winch = 1;
	else
		got_signal = sig;
}

static void
restore_terminal(void)
{
	if (raw_on)
		(void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	raw_on = FALSE;
}

static void
raw_terminal(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tio) < 0)
		return;
	t = saved_tio;
	cfmakeraw(&t);
	/* Output processing goes too: the job's pseudo-terminal already
	 * turned its newlines into CR LF. */
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) == 0) {
		raw_on = TRUE;
		atexit(restore_terminal);
	}
}

static guint32
window_size(void)
{
	struct winsize ws;

	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) < 0 &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0)
		return 0;
	return (guint32)ws.ws_row << 16 | ws.ws_col;
}

/* The IPv4 address other hosts reach us at: our name's, else loopback. */
static char *
own_address(void)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	char host[256], buf[INET_ADDRSTRLEN] = "127.0.0.1";
	const char *fixed = g_getenv("LSB_INTERACTIVE_ADDRESS");

	if (fixed != NULL && *fixed != '\0')
		return g_strdup(fixed);
	if (gethostname(host, sizeof host) == 0 &&
	    getaddrinfo(host, NULL, &hints, &res) == 0 && res != NULL) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr,
		    buf, sizeof buf);
	}
	if (res != NULL)
		freeaddrinfo(res);
	return g_strdup(buf);
}

static gboolean
listen_tcp(BsubIa *ia, Basalt__JobSpec *spec, GError **err)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof sin;
	g_autofree char *addr = own_address();

	ia->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ia->lfd < 0 || bind(ia->lfd, (struct sockaddr *)&sin, sizeof sin) < 0 ||
	    listen(ia->lfd, 8) < 0 ||
	    getsockname(ia->lfd, (struct sockaddr *)&sin, &len) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "bsub: cannot listen for "
		    "the interactive job: %s. Job not submitted.", g_strerror(errno));
		return FALSE;
	}
	spec->interactive_address = g_strdup_printf("tcp:%s:%u", addr,
	    (unsigned)ntohs(sin.sin_port));
	return TRUE;
}

static gboolean
listen_unix(BsubIa *ia, Basalt__JobSpec *spec, GError **err)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *tmp = g_getenv("TMPDIR");

	/* mkdtemp makes it 0700: only we (and root) can reach the socket. */
	ia->dir = g_build_filename(tmp && *tmp ? tmp : "/tmp", "bsub-I.XXXXXX", NULL);
	if (mkdtemp(ia->dir) == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "bsub: cannot create %s: %s. "
		    "Job not submitted.", ia->dir, g_strerror(errno));
		g_clear_pointer(&ia->dir, g_free);
		return FALSE;
	}
	ia->sock_path = g_build_filename(ia->dir, "socket", NULL);
	if (strlen(ia->sock_path) >= sizeof sun.sun_path) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "bsub: socket path %s is "
		    "too long (set TMPDIR). Job not submitted.", ia->sock_path);
		return FALSE;
	}
	strcpy(sun.sun_path, ia->sock_path);
	ia->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ia->lfd < 0 || bind(ia->lfd, (struct sockaddr *)&sun, sizeof sun) < 0 ||
	    listen(ia->lfd, 8) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "bsub: cannot listen on %s: "
		    "%s. Job not submitted.", ia->sock_path, g_strerror(errno));
		return FALSE;
	}
	spec->interactive_address = g_strdup_printf("unix:%s", ia->sock_path);
	return TRUE;
}

BsubIa *
bsub_ia_listen(Basalt__JobSpec *spec, GError **err)
{
	g_autofree char *envdir = lsb_envdir();
	g_autoptr(GHashTable) conf = lsb_read_lsf_conf(envdir, NULL);
	BsubIa *ia = g_new0(BsubIa, 1);
	gboolean ok;

	ia->mode = (int)spec->interactive;
	ia->input_file = spec->stdin_path != NULL && *spec->stdin_path != '\0';
	ia->lfd = -1;
	ia->use_munge = conf != NULL && bs_auth_enabled(conf);
	ia->munge = ia->use_munge && bs_auth_socket(conf) ?
	    g_strdup(bs_auth_socket(conf)) : NULL;
	ia->nonce = bs_auth_nonce();
	ok = ia->use_munge ? listen_tcp(ia, spec, err) : listen_unix(ia, spec, err);
	if (!ok) {
		bsub_ia_free(ia);
		return NULL;
	}
	spec->interactive_nonce = g_strdup(ia->nonce);
	ia->winsize = spec->interactive_winsize = window_size();
	return ia;
}

void
bsub_ia_free(BsubIa *ia)
{
	if (ia == NULL)
		return;
	if (ia->lfd >= 0)
		close(ia->lfd);
	if (ia->sock_path != NULL)
		(void)unlink(ia->sock_path);
	if (ia->dir != NULL)
		(void)rmdir(ia->dir);
	g_free(ia->sock_path);
	g_free(ia->dir);
	g_free(ia->munge);
	g_free(ia->nonce);
	g_free(ia->host);
	g_free(ia);
}

static void
install_signals(void)
{
	struct sigaction sa;
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH };

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;      /* no SA_RESTART: poll and write wake */
	for (gsize i = 0; i < G_N_ELEMENTS(sigs); i++)
		(void)sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* The hello's credential: made by root for this job and nonce. */
static gboolean
check_munge_hello(BsubIa *ia, const Basalt__InteractiveHello *h)
{
	const char *why = NULL;
	char *payload = NULL;
	char job[32], nonce[128], host[256];
	uid_t uid;
	gboolean ok;

	if (ia_munge_decode(ia->munge, h->credential.data, h->credential.len,
	    &uid, &payload, &why) < 0)
		return FALSE;
	ok = uid == 0 &&
	    ia_payload_get(payload, IA_HELLO_TAG, "job", job, sizeof job) == 0 &&
	    g_ascii_strtoull(job, NULL, 10) == ia->job_id &&
	    ia_payload_get(payload, IA_HELLO_TAG, "nonce", nonce, sizeof nonce) == 0 &&
	    strcmp(nonce, ia->nonce) == 0 &&
	    ia_payload_get(payload, IA_HELLO_TAG, "host", host, sizeof host) == 0;
	if (ok)
		ia->host = g_strdup(host);
	free(payload);
	return ok;
}

static gboolean
check_unix_hello(BsubIa *ia, int fd, const Basalt__InteractiveHello *h)
{
	struct ucred uc;
	socklen_t len = sizeof uc;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0 ||
	    (uc.uid != 0 && uc.uid != getuid()))
		return FALSE;
	if (h->job_id != ia->job_id || h->nonce == NULL ||
	    strcmp(h->nonce, ia->nonce) != 0)
		return FALSE;
	ia->host = g_strdup(h->host && *h->host ? h->host : "localhost");
	return TRUE;
}

/* The hello of a connection, checked: TRUE for our job's relay. */
static gboolean
hello_ok(BsubIa *ia, int fd, const Basalt__InteractiveFrame *in)
{
	if (in->kind_case != BASALT__INTERACTIVE_FRAME__KIND_HELLO)
		return FALSE;
	g_clear_pointer(&ia->host, g_free);
	return ia->use_munge ? check_munge_hello(ia, in->hello) :
	    check_unix_hello(ia, fd, in->hello);
}

/* Our reply, with our credential: 0, or -1. */
static int
reply_to(BsubIa *ia, int fd)
{
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT;
	Basalt__InteractiveReply rep = BASALT__INTERACTIVE_REPLY__INIT;
	g_autofree char *payload = NULL;
	char *cred = NULL;
	const char *why = NULL;
	int rc;

	if (ia->use_munge) {
		payload = g_strdup_printf(IA_REPLY_TAG " nonce=%s job=%" G_GUINT64_FORMAT,
		    ia->nonce, ia->job_id);
		if (ia_munge_encode(ia->munge, payload, &cred, &why) < 0) {
			fprintf(stderr, "bsub: cannot get a MUNGE credential: %s\n", why);
			return -1;
		}
		rep.credential.data = (uint8_t *)cred;
		rep.credential.len = strlen(cred);
	}
	f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_REPLY;
	f.reply = &rep;
	rc = ia_send_wait(fd, &f, HELLO_TIMEOUT_MS);
	free(cred);
	return rc;
}

/* A connection that has not said hello yet. */
typedef struct {
	int fd;
	IaReader rd;
	gint64 deadline;
} Caller;

static void
caller_drop(Caller *c, guint *n, guint i)
{
	close(c[i].fd);
	ia_reader_clear(&c[i].rd);
	c[i] = c[--*n];
}

static void
callers_accept(BsubIa *ia, Caller *c, guint *n)
{
	int fd = accept4(ia->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	if (*n == MAX_CALLERS)
		caller_drop(c, n, 0);   /* the oldest makes room */
	memset(&c[*n], 0, sizeof c[*n]);
	c[*n].fd = fd;
	c[*n].deadline = g_get_monotonic_time() + HELLO_TIMEOUT_MS * 1000;
	(*n)++;
}

/*
 * Every caller at once, each with its own deadline, so a peer that
 * connects and says nothing delays no one.  The socket of the caller
 * whose hello proves it is our job's relay, or -1 for none yet.
 */
static int
callers_serve(BsubIa *ia, Caller *c, guint *n, const struct pollfd *p)
{
	gint64 now = g_get_monotonic_time();

	for (guint i = 0; i < *n;) {
		Basalt__InteractiveFrame *in = NULL;
		int rc = 0, fd = c[i].fd;

		if (p[i].fd == fd && p[i].revents != 0)
			rc = ia_read(&c[i].rd, fd, &in);
		if (rc == 1) {
			gboolean ok = hello_ok(ia, fd, in);

			basalt__interactive_frame__free_unpacked(in, NULL);
			if (ok && reply_to(ia, fd) == 0) {
				ia_reader_clear(&c[i].rd);
				c[i] = c[--*n];
				return fd;
			}
		}
		if (rc != 0 || now > c[i].deadline)
			caller_drop(c, n, i);
		else
			i++;
	}
	return -1;
}

/* A query that selects this job alone, with the arrays it points to. */
typedef struct {
	Basalt__JobQuery q;
	uint64_t id;
	uint32_t idx;
} OneJob;

static void
one_job(OneJob *o, guint64 job_id)
{
	basalt__job_query__init(&o->q);
	o->id = job_id;
	o->idx = 0;
	o->q.n_job_ids = o->q.n_array_indexes = 1;
	o->q.job_ids = &o->id;
	o->q.array_indexes = &o->idx;
}

/* One look at the job (NULL when mbatchd does not answer). */
static Basalt__JobList *
query_job(guint64 job_id)
{
	OneJob o;
	ProtobufCMessage *m = NULL;
	g_autoptr(GError) err = NULL;

	one_job(&o, job_id);
	o.q.all_states = TRUE;
	if (!lsb_call(LSB_JOBS, &o.q.base, &m, &err))
		return NULL;
	return (Basalt__JobList *)m;
}

static gboolean
finished(const Basalt__JobInfo *j)
{
	return j->state == BASALT__JOB_STATE__JOB_STATE_DONE ||
	    j->state == BASALT__JOB_STATE__JOB_STATE_EXIT;
}

/* Why the job ended, for the terminal: a limit's (or -t's) LSF name and
 * text ("TERM_RUNLIMIT: job killed after reaching LSF run time limit"),
 * else the reason mbatchd or the host gave; "" when none. */
static char *
ended_why(const Basalt__JobInfo *j)
{
	if (j->term_reason != NULL && *j->term_reason != '\0') {
		const char *text = usage_term_text(j->term_reason);

		return text != NULL ? g_strdup_printf(": %s: %s", j->term_reason, text) :
		    g_strdup_printf(": %s", j->term_reason);
	}
	if (j->exit_reason != NULL && *j->exit_reason != '\0')
		return g_strdup_printf(": %s", j->exit_reason);
	return g_strdup("");
}

/* bsub -K's codes, and LSF's message for a job that did not end itself. */
static int
ended_code(const Basalt__JobInfo *j)
{
	g_autofree char *why = NULL;

	if (j->state == BASALT__JOB_STATE__JOB_STATE_DONE)
		return 0;
	why = ended_why(j);
	if (j->start_time == 0) {
		fprintf(stderr, "<<Job is terminated before it started%s>>\n", why);
		return CMD_EXIT_KILLED_PENDING;
	}
	if (j->term_signal > 0) {
		fprintf(stderr, "<<Job is terminated by signal %d%s>>\n",
		    j->term_signal, why);
		return 128 + j->term_signal;
	}
	if (*why != '\0')
		fprintf(stderr, "<<Job is terminated%s>>\n", why);
	return j->exit_status != 0 ? j->exit_status & 0xff : CMD_EXIT_FAIL;
}

/* How the job ended, from mbatchd; wstatus (the relay's, or -1) when
 * mbatchd does not say in time. */
static int
final_code(guint64 job_id, int wstatus)
{
	gint64 deadline = g_get_monotonic_time() + FINAL_WAIT_S * G_USEC_PER_SEC;
	guint delay = 100;

	for (;;) {
		Basalt__JobList *l = query_job(job_id);

		if (l != NULL && l->n_jobs > 0 && finished(l->jobs[0])) {
			int code = ended_code(l->jobs[0]);

			protobuf_c_message_free_unpacked(&l->base, NULL);
			return code;
		}
		if (l != NULL)
			protobuf_c_message_free_unpacked(&l->base, NULL);
		if (g_get_monotonic_time() > deadline || got_signal)
			break;
		g_usleep(delay * 1000);
		delay = MIN(delay * 2, 1000);
	}
	if (wstatus >= 0 && WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (wstatus >= 0 && WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return CMD_EXIT_FAIL;
}

static void
kill_job(guint64 job_id)
{
	Basalt__JobControlRequest r = BASALT__JOB_CONTROL_REQUEST__INIT;
	OneJob o;
	ProtobufCMessage *m = NULL;
	g_autoptr(GError) err = NULL;

	one_job(&o, job_id);
	r.action = BASALT__JOB_ACTION__JOB_ACTION_KILL;
	r.select = &o.q;
	if (lsb_call(LSB_CONTROL, &r.base, &m, &err))
		protobuf_c_message_free_unpacked(m, NULL);
}

/* Until the relay dials in: the socket, or -1 when the job ended first
 * (*code set) or bsub was signalled. */
static int
wait_for_relay(BsubIa *ia, int *code)
{
	gint64 next_check = g_get_monotonic_time() + PENDING_CHECK_MS * 1000;
	Caller callers[MAX_CALLERS];
	guint n = 0;
	int fd = -1;

	fprintf(stderr, "<<Waiting for dispatch ...>>\n");
	while (fd < 0 && !got_signal) {
		struct pollfd p[MAX_CALLERS + 1];

		for (guint i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = callers[i].fd, .events = POLLIN };
		p[n] = (struct pollfd){ .fd = ia->lfd, .events = POLLIN };
		if (poll(p, n + 1, 250) < 0)
			continue;
		fd = callers_serve(ia, callers, &n, p);
		if (fd >= 0)
			break;
		if (p[n].revents & POLLIN)
			callers_accept(ia, callers, &n);
		if (g_get_monotonic_time() < next_check)
			continue;
		next_check = g_get_monotonic_time() + PENDING_CHECK_MS * 1000;
		Basalt__JobList *l = query_job(ia->job_id);

		if (l != NULL && l->n_jobs > 0 && finished(l->jobs[0])) {
			*code = ended_code(l->jobs[0]);
			protobuf_c_message_free_unpacked(&l->base, NULL);
			break;
		}
		if (l != NULL)
			protobuf_c_message_free_unpacked(&l->base, NULL);
	}
	while (n > 0)
		caller_drop(callers, &n, 0);
	return fd;
}

static void
send_window(IaOut *out)
{
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT;
	Basalt__InteractiveWindow w = BASALT__INTERACTIVE_WINDOW__INIT;
	guint32 ws = window_size();

	if (ws == 0)
		return;
	w.rows = ws >> 16;
	w.cols = ws & 0xffff;
	f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_WINDOW;
	f.window = &w;
	(void)ia_out_set(out, &f);
}

/* Our stdin is a terminal that was hung up (closed): its file then
 * answers every ioctl with EIO, where a pipe or a file says ENOTTY. */
static gboolean
hung_up(int fd)
{
	struct termios t;

	return tcgetattr(fd, &t) < 0 && errno == EIO;
}

/* The relay takes no more from us: what was queued for it is dropped
 * (FALSE, for send_ok). */
static gboolean
sending_lost(IaOut *out)
{
	out->len = out->off = 0;
	return FALSE;
}

/* Relay until the exit frame (wstatus) or the link ends; FALSE when bsub
 * was signalled. */
static gboolean
relay(BsubIa *ia, int sock, int *wstatus)
{
	static IaOut out;
	static guint8 chunk[IA_CHUNK];
	IaReader rd;
	/* -I -i: the job's input is the file; ours is left unread.  With a
	 * pseudo-terminal the keys still go, for ^C and ^Z. */
	gboolean in_open = !(ia->mode == 1 && ia->input_file);
	/* A job that ends at once closes the link while our first frame
	 * (its input's end, a window size) is on its way: that write fails,
	 * but its output and exit frame still wait in the socket.  A failed
	 * write ends only our sending; reading goes on to the end. */
	gboolean send_ok = TRUE;

	memset(&rd, 0, sizeof rd);
	*wstatus = -1;
	for (;;) {
		struct pollfd p[2];
		nfds_t np = 1;
		Basalt__InteractiveFrame *f = NULL;

		if (got_signal)
			break;
		if (got_winch && send_ok && ia_out_empty(&out) && ia->mode != 1) {
			got_winch = 0;
			send_window(&out);
		}
		p[0] = (struct pollfd){ .fd = sock, .events = POLLIN |
		    (ia_out_empty(&out) ? 0 : POLLOUT) };
		if (in_open && send_ok && ia_out_empty(&out))
			p[np++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		if (poll(p, np, -1) < 0)
			continue;
		if ((p[0].revents & POLLOUT) && ia_out_flush(&out, sock) < 0)
			send_ok = sending_lost(&out);
		if (np > 1 && p[1].revents != 0) {
			Basalt__InteractiveFrame o = BASALT__INTERACTIVE_FRAME__INIT;
			ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);

			if (n > 0) {
				o.kind_case = BASALT__INTERACTIVE_FRAME__KIND_INPUT;
				o.input.data = chunk;
				o.input.len = (size_t)n;
			} else if ((n == 0 || errno != EINTR) && hung_up(STDIN_FILENO)) {
				/* The kernel wakes a hung-up terminal's reader before it
				 * sends the SIGHUP: forwarded as an end of input, the
				 * closed terminal let the job's shell end well (exit 0)
				 * instead of killing it as the SIGHUP does. */
				got_signal = SIGHUP;
				break;
			} else if (n == 0 || errno != EINTR) {
				o.kind_case = BASALT__INTERACTIVE_FRAME__KIND_INPUT_EOF;
				o.input_eof = TRUE;
				in_open = FALSE;
			}
			if (o.kind_case != BASALT__INTERACTIVE_FRAME__KIND__NOT_SET) {
				(void)ia_out_set(&out, &o);
				if (ia_out_flush(&out, sock) < 0)
					send_ok = sending_lost(&out);
			}
		}
		if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		int rc = ia_read(&rd, sock, &f);

		if (rc < 0)
			break;
		if (rc == 0)
			continue;
		/* Writing blocks while our reader is slow: the relay's frames
		 * then wait in the socket, and the job in its write(). */
		if (f->kind_case == BASALT__INTERACTIVE_FRAME__KIND_OUTPUT)
			(void)bs_write_all(STDOUT_FILENO, f->output.data,
			    f->output.len, &got_signal);
		else if (f->kind_case == BASALT__INTERACTIVE_FRAME__KIND_ERROR_OUTPUT)
			(void)bs_write_all(STDERR_FILENO, f->error_output.data,
			    f->error_output.len, &got_signal);
		else if (f->kind_case == BASALT__INTERACTIVE_FRAME__KIND_EXIT)
			*wstatus = f->exit;
		basalt__interactive_frame__free_unpacked(f, NULL);
	}
	ia_reader_clear(&rd);
	return !got_signal;
}

/* bsub was signalled and asked mbatchd to kill the job: the link stays
 * up (output dropped) until the relay reports the end, for a while, so
 * the job ends by the kill and not as a lost link (a closed link first
 * would make the relay hang the job up and record it as lost). */
static void
await_end(int sock)
{
	gint64 deadline = g_get_monotonic_time() + KILL_WAIT_MS * 1000;
	IaReader rd;

	memset(&rd, 0, sizeof rd);
	for (;;) {
		gint64 left = (deadline - g_get_monotonic_time()) / 1000;
		struct pollfd p = { .fd = sock, .events = POLLIN };
		Basalt__InteractiveFrame *f = NULL;
		int rc;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		if ((rc = ia_read(&rd, sock, &f)) < 0)
			break;
		if (rc == 0)
			continue;
		rc = f->kind_case == BASALT__INTERACTIVE_FRAME__KIND_EXIT;
		basalt__interactive_frame__free_unpacked(f, NULL);
		if (rc)
			break;
	}
	ia_reader_clear(&rd);
}

int
bsub_ia_run(BsubIa *ia, guint64 job_id)
{
	int code = CMD_EXIT_FAIL, sock, wstatus = -1;

	ia->job_id = job_id;
	install_signals();
	/* A resize before the handler was in place sent a SIGWINCH nobody
	 * caught: the size the spec carries is then stale, so send the
	 * current one as if the signal had come. */
	if (window_size() != ia->winsize)
		got_winch = 1;
	sock = wait_for_relay(ia, &code);
	if (sock < 0 && !got_signal)
		return code;
	if (sock >= 0) {
		close(ia->lfd);
		ia->lfd = -1;
		fprintf(stderr, "<<Starting on %s>>\n", ia->host);
		if (ia->mode != 1)
			raw_terminal();
		(void)relay(ia, sock, &wstatus);
		restore_terminal();
	}
	if (got_signal) {
		int sig = got_signal;

		fprintf(stderr, "\n<<Terminating the job: bsub got signal %d>>\n", sig);
		kill_job(job_id);
		if (sock >= 0) {
			await_end(sock);
			close(sock);
		}
		return 128 + sig;
	}
	close(sock);
	return final_code(job_id, wstatus);
}
