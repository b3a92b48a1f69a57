/*
 * The job side of an interactive job: see irelay.h.
 *
 * Runs in bs-jobwrap, as the job's owner, after sbatchd's launching child
 * made it a session leader.  The leader takes the pseudo-terminal as its
 * controlling terminal before forking the command, so the command and all
 * it starts share it: ^C and ^Z typed at bsub arrive as bytes and the
 * terminal's line discipline turns them into signals for the foreground
 * process group, as on a local terminal.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "iact-wire.h"
#include "irelay.h"

#define SETUP_MAX 16384
#define DIAL_TIMEOUT_MS 15000
#define REPLY_TIMEOUT_MS 120000
/* After the command ended, how long output of processes it left behind
 * holding the terminal is still relayed. */
#define LINGER_MS 500

struct IaRelay {
	int mode;
	char address[512];
	char nonce[128];
	unsigned long long job;
	unsigned idx;
	char host[256];
	unsigned winsize;
	char munge[1024];
	char cred[8192];
	int keep_out, keep_err;   /* -o, -e: the job has those files */
	int tty;                  /* -tty: its output reaches bsub too */
	int keep_in;              /* -i: its input is that file, not bsub's */
	int tee_out, tee_err;     /* -tty: the -o, -e files, written here */
	int master, slave;
	int in_r, in_w, out_r, out_w, err_r, err_w;
	pid_t cmd;
	int cmd_done;             /* reaped: cmd may name another process now */
};

static volatile sig_atomic_t pending_sig;

/* Only kill(2)'s signals (sbatchd's terminate, the owner's kill): a ^C
 * typed at -Ip's terminal also reaches our group, from the kernel, and is
 * the foreground program's business alone. */
static void
on_signal(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	if (info == NULL || info->si_code == SI_USER)
		pending_sig = sig;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
copy_value(char *dst, size_t n, const char *v)
{
	size_t l = strlen(v);

	if (l >= n)
		l = n - 1;
	memcpy(dst, v, l);
	dst[l] = '\0';
}

/* "key=value" lines, as sbatchd wrote them (sbd-start.c). */
static int
parse_setup(IaRelay *r, char *text)
{
	for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		char *v = strchr(line, '=');

		if (v == NULL)
			continue;
		*v++ = '\0';
		if (strcmp(line, "mode") == 0)
			r->mode = atoi(v);
		else if (strcmp(line, "address") == 0)
			copy_value(r->address, sizeof r->address, v);
		else if (strcmp(line, "nonce") == 0)
			copy_value(r->nonce, sizeof r->nonce, v);
		else if (strcmp(line, "job") == 0)
			r->job = strtoull(v, NULL, 10);
		else if (strcmp(line, "index") == 0)
			r->idx = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(line, "host") == 0)
			copy_value(r->host, sizeof r->host, v);
		else if (strcmp(line, "winsize") == 0)
			r->winsize = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(line, "munge") == 0)
			copy_value(r->munge, sizeof r->munge, v);
		else if (strcmp(line, "cred") == 0)
			copy_value(r->cred, sizeof r->cred, v);
		else if (strcmp(line, "keep_out") == 0)
			r->keep_out = atoi(v);
		else if (strcmp(line, "keep_err") == 0)
			r->keep_err = atoi(v);
		else if (strcmp(line, "tty") == 0)
			r->tty = atoi(v);
		else if (strcmp(line, "keep_in") == 0)
			r->keep_in = atoi(v);
	}
	if (r->mode < IA_MODE_PIPES || r->mode > IA_MODE_SHELL || r->address[0] == '\0') {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int
open_pty(IaRelay *r)
{
	struct termios t;
	const char *name;

	r->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (r->master < 0 || grantpt(r->master) < 0 || unlockpt(r->master) < 0 ||
	    (name = ptsname(r->master)) == NULL)
		return -1;
	/* The leader of the job's session takes it as controlling terminal. */
	r->slave = open(name, O_RDWR | O_CLOEXEC);
	if (r->slave < 0)
		return -1;
	(void)ioctl(r->slave, TIOCSCTTY, 0);
	if (r->winsize != 0) {
		struct winsize ws = { .ws_row = (unsigned short)(r->winsize >> 16),
		    .ws_col = (unsigned short)(r->winsize & 0xffff) };

		(void)ioctl(r->master, TIOCSWINSZ, &ws);
	}
	/* Without shell mode there is no shell to resume a stopped job. */
	if (r->mode == IA_MODE_PTY && tcgetattr(r->slave, &t) == 0) {
		t.c_cc[VSUSP] = _POSIX_VDISABLE;
		(void)tcsetattr(r->slave, TCSANOW, &t);
	}
	return 0;
}

static int
open_pipes(IaRelay *r)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	r->in_r = p[0];
	r->in_w = p[1];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	r->out_r = p[0];
	r->out_w = p[1];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	r->err_r = p[0];
	r->err_w = p[1];
	return 0;
}

IaRelay *
ia_relay_prepare(int setup_fd)
{
	IaRelay *r = calloc(1, sizeof *r);
	char *text = malloc(SETUP_MAX + 1);
	size_t have = 0;
	int err;

	if (r == NULL || text == NULL)
		goto fail;
	r->master = r->slave = r->in_r = r->in_w = -1;
	r->out_r = r->out_w = r->err_r = r->err_w = -1;
	r->tee_out = r->tee_err = -1;
	for (;;) {
		ssize_t n = read(setup_fd, text + have, SETUP_MAX - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		if (have == SETUP_MAX)
			break;
	}
	close(setup_fd);
	text[have] = '\0';
	if (parse_setup(r, text) < 0)
		goto fail;
	free(text);
	text = NULL;
	if ((r->mode == IA_MODE_PIPES ? open_pipes(r) : open_pty(r)) < 0)
		goto fail;
	/* -tty with -o or -e: the command writes to bsub's end and the relay
	 * copies into the files, which sbatchd opened as 1 and 2 for us. */
	if (r->tty && r->keep_out)
		r->tee_out = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (r->tty && r->keep_err)
		r->tee_err = fcntl(2, F_DUPFD_CLOEXEC, 3);
	return r;
fail:
	err = errno;
	free(text);
	free(r);
	errno = err;
	return NULL;
}

/*
 * -i: the file stays the command's input (bsub then sends none).
 * -o, -e: the files stay its output and error, unless -tty asks for the
 * screen too; then it writes to bsub's end and the relay copies.
 */
void
ia_relay_child(IaRelay *r)
{
	int to_out = !r->keep_out || r->tty, to_err = !r->keep_err || r->tty;

	if (r->mode == IA_MODE_PIPES) {
		if (!r->keep_in)
			(void)dup2(r->in_r, 0);
		if (to_out)
			(void)dup2(r->out_w, 1);
		if (to_err)
			(void)dup2(r->err_w, 2);
		return;     /* the pipes' own descriptors are close-on-exec */
	}
	if (!r->keep_in)
		(void)dup2(r->slave, 0);
	if (to_out)
		(void)dup2(r->slave, 1);
	if (to_err)
		(void)dup2(r->slave, 2);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * The job's process groups: the command's own (a job-control shell makes
 * one) and the terminal's foreground group.  Our own group is left out:
 * its members got sbatchd's signal already, and we would only signal
 * ourselves (or, with SIGKILL, lose the status record).  The command's
 * pid is used only until it is reaped, never after, when it may be reused.
 */
static void
signal_job(IaRelay *r, int sig)
{
	pid_t own = getpgrp();

	if (r->master >= 0) {
		pid_t fg = tcgetpgrp(r->master);

		if (fg > 1 && fg != own)
			(void)kill(-fg, sig);
	}
	if (r->cmd > 1 && !r->cmd_done) {
		if (r->cmd != own)
			(void)kill(-r->cmd, sig);
		(void)kill(r->cmd, sig);
	}
	/* -I: the command shares our group; we ignore SIGHUP and SIGCONT. */
	if (r->mode == IA_MODE_PIPES && (sig == SIGHUP || sig == SIGCONT))
		(void)kill(0, sig);
}

/*
 * The rest of the job's session: what a job-control shell left running in
 * the background when it ended (the kernel hangs up only the terminal's
 * foreground group), and what a command without job control left in our
 * own group (-Ip: `sleep 100 &`).  The session is the job's own
 * (sbatchd's setsid), so all of it belongs to the job but this relay;
 * since we wait for the job's whole tree before we exit, a process left
 * out here would hold the job (and bsub's final answer) until it ended.
 */
static void
signal_session(int sig)
{
	pid_t sid = getsid(0), self = getpid();
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[300], buf[512];
		const char *p;
		long sess;
		ssize_t n;
		int fd;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "pid (comm) state ppid pgrp session ...": comm may hold ')'. */
		if ((p = strrchr(buf, ')')) == NULL ||
		    sscanf(p + 1, " %*c %*d %*d %ld", &sess) != 1)
			continue;
		if (sess == sid && (pid_t)atol(e->d_name) != self)
			(void)kill((pid_t)atol(e->d_name), sig);
	}
	closedir(d);
}

/* What a closed terminal does to its session. */
static void
hang_up(IaRelay *r)
{
	signal_job(r, SIGHUP);
	signal_job(r, SIGCONT);
	if (r->mode != IA_MODE_PIPES) {
		signal_session(SIGHUP);
		signal_session(SIGCONT);
	}
	close_fd(&r->master);
	close_fd(&r->in_w);
	close_fd(&r->out_r);
	close_fd(&r->err_r);
}

static void
set_nonblock(int fd)
{
	if (fd >= 0)
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static int
check_reply(IaRelay *r, int fd, const Basalt__InteractiveReply *rep)
{
	if (rep->error != NULL && *rep->error != '\0')
		return -1;
	if (strncmp(r->address, "unix:", 5) == 0) {
		struct ucred uc;
		socklen_t len = sizeof uc;

		return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 &&
		    uc.uid == getuid() ? 0 : -1;
	} else {
		const char *why = NULL;
		char *payload = NULL;
		char nonce[128];
		uid_t uid;
		int ok;

		if (ia_munge_decode(r->munge, rep->credential.data,
		    rep->credential.len, &uid, &payload, &why) < 0)
			return -1;
		ok = uid == getuid() &&
		    ia_payload_get(payload, IA_REPLY_TAG, "nonce", nonce, sizeof nonce) == 0 &&
		    strcmp(nonce, r->nonce) == 0;
		free(payload);
		return ok ? 0 : -1;
	}
}

/* Dial bsub and prove who we are both ways; the socket or -1. */
static int
handshake(IaRelay *r)
{
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT, *in = NULL;
	Basalt__InteractiveHello h = BASALT__INTERACTIVE_HELLO__INIT;
	int unix_link = strncmp(r->address, "unix:", 5) == 0;
	int fd = ia_connect(r->address, DIAL_TIMEOUT_MS);

	if (fd < 0)
		return -1;
	h.job_id = r->job;
	h.array_index = r->idx;
	h.host = r->host;
	if (unix_link) {
		h.nonce = r->nonce;
	} else {
		h.credential.data = (uint8_t *)r->cred;
		h.credential.len = strlen(r->cred);
	}
	f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_HELLO;
	f.hello = &h;
	/* The credential is spent now: nothing else needs it. */
	if (ia_send_wait(fd, &f, DIAL_TIMEOUT_MS) < 0 ||
	    ia_recv_wait(fd, &in, REPLY_TIMEOUT_MS) < 0 ||
	    in->kind_case != BASALT__INTERACTIVE_FRAME__KIND_REPLY ||
	    check_reply(r, fd, in->reply) < 0) {
		if (in != NULL)
			basalt__interactive_frame__free_unpacked(in, NULL);
		close(fd);
		return -1;
	}
	basalt__interactive_frame__free_unpacked(in, NULL);
	return fd;
}

/* One direction's pending input from bsub, written to the job. */
typedef struct {
	Basalt__InteractiveFrame *f;
	size_t off;
} Pending;

typedef struct {
	IaRelay *r;
	int sock;
	IaOut out;
	IaReader rd;
	Pending in;
	int lost;
	int lost_running;         /* lost before the command ended */
} Loop;

static void
lose(Loop *l)
{
	if (l->sock >= 0)
		close(l->sock);
	l->sock = -1;
	l->lost = 1;
	if (!l->r->cmd_done)
		l->lost_running = 1;
	hang_up(l->r);
}

static void
take_frame(Loop *l, Basalt__InteractiveFrame *f)
{
	IaRelay *r = l->r;

	switch (f->kind_case) {
	case BASALT__INTERACTIVE_FRAME__KIND_INPUT:
		if (f->input.len > 0 && (r->master >= 0 || r->in_w >= 0)) {
			l->in.f = f;
			l->in.off = 0;
			return;
		}
		break;
	case BASALT__INTERACTIVE_FRAME__KIND_INPUT_EOF:
		if (r->mode == IA_MODE_PIPES) {
			close_fd(&r->in_w);
		} else if (r->master >= 0) {
			struct termios t;
			char eof = 4;

			if (tcgetattr(r->master, &t) == 0 && t.c_cc[VEOF] != _POSIX_VDISABLE)
				eof = (char)t.c_cc[VEOF];
			(void)write(r->master, &eof, 1);
		}
		break;
	case BASALT__INTERACTIVE_FRAME__KIND_WINDOW:
		if (r->master >= 0 && f->window != NULL) {
			struct winsize ws = { .ws_row = (unsigned short)f->window->rows,
			    .ws_col = (unsigned short)f->window->cols };

			(void)ioctl(r->master, TIOCSWINSZ, &ws);
		}
		break;
	default:
		break;
	}
	basalt__interactive_frame__free_unpacked(f, NULL);
}

/*
 * -tty with -o or -e: the files get what bsub gets.  On a pseudo-terminal
 * output and error are one stream, which is the -o file's (or the -e
 * file's when only -e was given).  A file that fails a write is given up;
 * the screen goes on.
 */
static void
tee_files(IaRelay *r, int is_err, const unsigned char *buf, size_t len)
{
	int *fd = r->mode != IA_MODE_PIPES ?
	    (r->tee_out >= 0 ? &r->tee_out : &r->tee_err) :
	    is_err ? &r->tee_err : &r->tee_out;
	size_t off = 0;

	while (*fd >= 0 && off < len) {
		ssize_t n = write(*fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close_fd(fd);
			break;
		}
		off += (size_t)n;
	}
}

/* Read one chunk of the job's output from fd into the outgoing frame. */
static void
pump_output(Loop *l, int *fd, int is_err)
{
	static unsigned char chunk[IA_CHUNK];
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT;
	ssize_t n = read(*fd, chunk, sizeof chunk);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {           /* EOF, or EIO: every slave end is closed */
		close_fd(fd);
		return;
	}
	tee_files(l->r, is_err, chunk, (size_t)n);
	f.kind_case = is_err ? BASALT__INTERACTIVE_FRAME__KIND_ERROR_OUTPUT :
	    BASALT__INTERACTIVE_FRAME__KIND_OUTPUT;
	if (is_err) {
		f.error_output.data = chunk;
		f.error_output.len = (size_t)n;
	} else {
		f.output.data = chunk;
		f.output.len = (size_t)n;
	}
	(void)ia_out_set(&l->out, &f);
}

static void
pump_input(Loop *l)
{
	IaRelay *r = l->r;
	int fd = r->mode == IA_MODE_PIPES ? r->in_w : r->master;
	ssize_t n;

	if (fd < 0) {
		n = -1;
	} else {
		n = write(fd, l->in.f->input.data + l->in.off,
		    l->in.f->input.len - l->in.off);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
	}
	if (n > 0)
		l->in.off += (size_t)n;
	if (n < 0 || l->in.off >= l->in.f->input.len) {
		/* A job that closed its input loses what it did not read. */
		basalt__interactive_frame__free_unpacked(l->in.f, NULL);
		l->in.f = NULL;
	}
}

static int
outputs_open(const IaRelay *r)
{
	return r->master >= 0 || r->out_r >= 0 || r->err_r >= 0;
}

static void
handle_signal(IaRelay *r)
{
	int sig = pending_sig;

	pending_sig = 0;
	/* -I: the command is in our group and had the signal from sbatchd. */
	if (sig == 0 || r->mode == IA_MODE_PIPES)
		return;
	/* sbatchd's terminate (bkill, RUNLIMIT, preemption): the groups a
	 * job-control shell made get it too, and a hangup for a shell that
	 * ignores it. */
	signal_job(r, sig);
	signal_job(r, SIGHUP);
	signal_job(r, SIGCONT);
}

static void
relay(Loop *l, pid_t cmd, int *wstatus, struct rusage *ru)
{
	IaRelay *r = l->r;
	long ended = 0, lost_at = 0;
	int killed = 0;

	for (;;) {
		struct pollfd p[5];
		int np = 0, isock = -1, iout = -1, ierr = -1, isink = -1;
		int sink = r->mode == IA_MODE_PIPES ? r->in_w : r->master;

		handle_signal(r);
		if (ended == 0 && wait4(cmd, wstatus, WNOHANG, ru) == cmd) {
			ended = now_ms();
			r->cmd_done = 1;
		}
		if (l->lost && lost_at == 0)
			lost_at = now_ms();
		if (lost_at != 0 && !killed && now_ms() - lost_at > IA_LOST_GRACE_S * 1000L) {
			signal_job(r, SIGKILL);
			killed = 1;
		}
		if (ended != 0 && (l->lost || ((!outputs_open(r) ||
		    now_ms() - ended > LINGER_MS) && ia_out_empty(&l->out))))
			return;
		if (l->sock >= 0) {
			short ev = 0;

			if (l->in.f == NULL)
				ev |= POLLIN;
			if (!ia_out_empty(&l->out))
				ev |= POLLOUT;
			p[np] = (struct pollfd){ .fd = l->sock, .events = ev };
			isock = np++;
			if (ia_out_empty(&l->out)) {
				int ofd = r->master >= 0 ? r->master : r->out_r;

				if (ofd >= 0) {
					p[np] = (struct pollfd){ .fd = ofd, .events = POLLIN };
					iout = np++;
				}
				if (r->err_r >= 0) {
					p[np] = (struct pollfd){ .fd = r->err_r, .events = POLLIN };
					ierr = np++;
				}
			}
			if (l->in.f != NULL && sink >= 0) {
				p[np] = (struct pollfd){ .fd = sink, .events = POLLOUT };
				isink = np++;
			}
		}
		if (poll(p, (nfds_t)np, 100) <= 0)
			continue;
		if (isock >= 0 && (p[isock].revents & (POLLOUT | POLLERR)) &&
		    ia_out_flush(&l->out, l->sock) < 0) {
			lose(l);
			continue;
		}
		if (iout >= 0 && p[iout].revents != 0 && ia_out_empty(&l->out))
			pump_output(l, r->master >= 0 ? &r->master : &r->out_r, 0);
		if (ierr >= 0 && p[ierr].revents != 0 && ia_out_empty(&l->out))
			pump_output(l, &r->err_r, 1);
		if (!ia_out_empty(&l->out) && ia_out_flush(&l->out, l->sock) < 0) {
			lose(l);
			continue;
		}
		if (isink >= 0 && p[isink].revents != 0 && l->in.f != NULL)
			pump_input(l);
		if (isock >= 0 && (p[isock].revents & (POLLIN | POLLHUP)) &&
		    l->in.f == NULL) {
			Basalt__InteractiveFrame *f = NULL;
			int rc = ia_read(&l->rd, l->sock, &f);

			if (rc == 1)
				take_frame(l, f);
			else if (rc < 0)
				lose(l);
		}
	}
}

int
ia_relay_run(IaRelay *r, pid_t cmd, int *wstatus, struct rusage *ru)
{
	struct sigaction sa;
	Loop l;
	int lost;

	memset(&l, 0, sizeof l);
	l.r = r;
	r->cmd = cmd;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);
	close_fd(&r->slave);
	close_fd(&r->in_r);
	if (r->keep_in)
		close_fd(&r->in_w);     /* -I -i: nobody reads the pipe */
	close_fd(&r->out_w);
	close_fd(&r->err_w);
	l.sock = handshake(r);
	/* Nothing secret may outlive its use. */
	memset(r->cred, 0, sizeof r->cred);
	if (l.sock < 0)
		lose(&l);
	set_nonblock(r->master);
	set_nonblock(r->in_w);
	set_nonblock(r->out_r);
	set_nonblock(r->err_r);
	relay(&l, cmd, wstatus, ru);
	if (l.sock >= 0) {
		Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT;

		/* Output still queued goes first: the exit is the last frame. */
		while (!ia_out_empty(&l.out)) {
			struct pollfd p = { .fd = l.sock, .events = POLLOUT };

			if (poll(&p, 1, 5000) <= 0 || ia_out_flush(&l.out, l.sock) < 0)
				break;
		}
		f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_EXIT;
		f.exit = *wstatus;
		(void)ia_send_wait(l.sock, &f, 5000);
		shutdown(l.sock, SHUT_WR);
		close(l.sock);
	}
	/* The command ended: a shell's background jobs go with the session,
	 * as on a closed terminal. */
	if (r->mode != IA_MODE_PIPES) {
		signal_session(SIGHUP);
		signal_session(SIGCONT);
	}
	if (l.in.f != NULL)
		basalt__interactive_frame__free_unpacked(l.in.f, NULL);
	ia_reader_clear(&l.rd);
	close_fd(&r->master);
	close_fd(&r->tee_out);
	close_fd(&r->tee_err);
	lost = l.lost_running;
	free(r);
	return lost;
}
