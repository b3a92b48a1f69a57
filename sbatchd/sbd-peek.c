/*
 * bpeek on this host: reading a job's output as the job's user.
 *
 * The output path comes from the user (bsub -o), and sbatchd runs as root:
 * read by sbatchd itself, a symlink to /etc/shadow there printed the file,
 * and a FIFO there blocked the whole daemon in open().  So the read happens
 * in a child that first drops to the job's user (setgroups, setgid,
 * setuid: only what that user could read), opens with O_NOFOLLOW and
 * O_NONBLOCK (a symlink is refused, a FIFO does not block), reads only a
 * regular file (fstat), and at most PEEK_MAX bytes of each stream: from the
 * requested offset, or the last PEEK_MAX bytes on a first look at a longer
 * file.  The child writes one header and the bytes to a pipe and exits.
 *
 * The main loop never waits for it: the reply to mbatchd is deferred until
 * the pipe reaches EOF, and a child that has not finished within
 * PEEK_TIMEOUT_MS is killed and the request answered with an error.  The
 * reaper (reaper.c) reaps the child like any helper process.
 *
 * Between fork and _exit the child calls only async-signal-safe functions
 * (the parent computed the groups and allocated the buffer), because other
 * threads may hold malloc's locks at the time of the fork.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>

#include "batch.pb-c.h"
#include "rpc/rpc.h"
#include "sbd.h"
#include "util/error.h"

#define PEEK_MAX (64 * 1024)
#define PEEK_TIMEOUT_MS 10000
/* The child's errno for "not a regular file": no open() returns it. */
#define PEEK_NOT_REGULAR (-1)

/* What the child writes first; the stdout bytes, then the stderr bytes,
 * follow.  Both ends are the same program, so the layout is shared. */
typedef struct {
	gint32 setup_errno;       /* dropping privileges failed */
	gint32 out_errno;
	gint32 err_errno;
	guint64 out_start;
	guint64 out_len;
	guint64 err_len;
} PeekHeader;

typedef struct {
	BsRpcCall *call;
	Basalt__PeekReply_Closure closure;
	guint64 job_id;
	guint32 index;
	gboolean finished;
	char *host;
	char *out_path;
	pid_t pid;
	int fd;
	guint io_source;
	guint timer;
	GByteArray *buf;
} Peek;

/* In the child: up to PEEK_MAX bytes of path into buf; 0 or an errno. */
static int
child_read(const char *path, guint64 offset, gboolean tail, char *buf,
    guint64 *start, guint64 *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	ssize_t n;

	*start = offset;
	*len = 0;
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return PEEK_NOT_REGULAR;
	}
	if (tail && (guint64)st.st_size > offset + PEEK_MAX)
		*start = (guint64)st.st_size - PEEK_MAX;
	n = pread(fd, buf, PEEK_MAX, (off_t)*start);
	close(fd);
	if (n < 0)
		return errno;
	*len = (guint64)n;
	return 0;
}

static gboolean
child_write(int fd, const void *p, gsize len)
{
	const char *c = p;

	while (len > 0) {
		ssize_t n = write(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return FALSE;
		c += n;
		len -= (gsize)n;
	}
	return TRUE;
}

G_GNUC_NORETURN static void
child_main(int fd, const SbdJob *job, const gid_t *groups, int n_groups,
    guint64 offset, char *buf)
{
	PeekHeader h;

	memset(&h, 0, sizeof h);
	if (geteuid() == 0 && (setgroups((size_t)n_groups, groups) < 0 ||
	    setgid(job->gid) < 0 || setuid(job->uid) < 0))
		h.setup_errno = errno != 0 ? errno : EPERM;
	if (h.setup_errno == 0) {
		guint64 err_start;

		h.out_errno = child_read(job->out_path, offset, offset == 0, buf,
		    &h.out_start, &h.out_len);
		/* One offset only: stderr goes with the first look. */
		if (offset == 0 && job->err_path != NULL)
			h.err_errno = child_read(job->err_path, 0, TRUE, buf + PEEK_MAX,
			    &err_start, &h.err_len);
	}
	if (child_write(fd, &h, sizeof h) && child_write(fd, buf, h.out_len))
		(void)child_write(fd, buf + PEEK_MAX, h.err_len);
	_exit(0);
}

static const char *
why(int e)
{
	if (e == PEEK_NOT_REGULAR)
		return "not a regular file";
	if (e == ELOOP)
		return "a symbolic link (refused)";
	return g_strerror(e);
}

static void
peek_free(Peek *p)
{
	if (p->io_source != 0)
		g_source_remove(p->io_source);
	if (p->timer != 0)
		g_source_remove(p->timer);
	if (p->fd >= 0)
		close(p->fd);
	if (p->pid > 0)
		(void)kill(p->pid, SIGKILL);  /* the reaper takes it */
	if (p->call != NULL)
		bs_rpc_call_unref(p->call);
	g_byte_array_unref(p->buf);
	g_free(p->host);
	g_free(p->out_path);
	g_free(p);
}

static void
reply_error(Peek *p, Basalt__ErrorCode code, const char *msg)
{
	Basalt__PeekReply r = BASALT__PEEK_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;

	e.code = code;
	e.message = (char *)msg;
	r.error = &e;
	p->closure(&r, p->call);
}

/* The pipe is at EOF: the child said all it will. */
static void
peek_answer(Peek *p)
{
	Basalt__PeekReply r = BASALT__PEEK_REPLY__INIT;
	PeekHeader h;
	g_autofree char *msg = NULL;

	if (p->buf->len < sizeof h) {
		msg = g_strdup_printf("cannot read the output of job <%" G_GUINT64_FORMAT
		    "> on host %s: the reader ended early", p->job_id, p->host);
		reply_error(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL, msg);
		return;
	}
	memcpy(&h, p->buf->data, sizeof h);
	if (h.out_len > PEEK_MAX || h.err_len > PEEK_MAX ||
	    p->buf->len != sizeof h + h.out_len + h.err_len) {
		msg = g_strdup_printf("cannot read the output of job <%" G_GUINT64_FORMAT
		    "> on host %s: the reader's answer was cut", p->job_id, p->host);
		reply_error(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL, msg);
		return;
	}
	if (h.setup_errno != 0 || h.out_errno != 0) {
		msg = h.setup_errno != 0 ?
		    g_strdup_printf("cannot read the output of job <%" G_GUINT64_FORMAT
		    "> on host %s: cannot switch to the job's user: %s", p->job_id,
		    p->host, g_strerror(h.setup_errno)) :
		    g_strdup_printf("cannot read the output of job <%" G_GUINT64_FORMAT
		    "> (%s) on host %s as the job's user: %s", p->job_id, p->out_path,
		    p->host, why(h.out_errno));
		reply_error(p, BASALT__ERROR_CODE__ERROR_CODE_PERMISSION, msg);
		return;
	}
	r.stdout_data.data = p->buf->data + sizeof h;
	r.stdout_data.len = h.out_len;
	r.stderr_data.data = p->buf->data + sizeof h + h.out_len;
	r.stderr_data.len = h.err_errno == 0 ? h.err_len : 0;
	r.next_offset = h.out_start + h.out_len;
	r.finished = p->finished;
	p->closure(&r, p->call);
}

static gboolean
on_readable(gint fd, GIOCondition cond, gpointer data)
{
	Peek *p = data;
	guint8 chunk[16384];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n > 0) {
			if (p->buf->len + (gsize)n > sizeof(PeekHeader) + 2 * PEEK_MAX)
				break;        /* more than a child ever sends */
			g_byte_array_append(p->buf, chunk, (guint)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return G_SOURCE_CONTINUE;
		break;
	}
	p->io_source = 0;
	p->pid = 0;               /* done writing: it exits by itself */
	peek_answer(p);
	peek_free(p);
	return G_SOURCE_REMOVE;
}

static gboolean
on_timeout(gpointer data)
{
	Peek *p = data;
	g_autofree char *msg = g_strdup_printf("cannot read the output of job <%"
	    G_GUINT64_FORMAT "> on host %s: the read did not finish within %d "
	    "seconds", p->job_id, p->host, PEEK_TIMEOUT_MS / 1000);

	p->timer = 0;
	sbd_log(BS_LOG_WARNING, NULL, "%s", msg);
	reply_error(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL, msg);
	peek_free(p);
	return G_SOURCE_REMOVE;
}

/* What initgroups(job's user, job's gid) would install. */
static gid_t *
job_groups(const SbdJob *job, int *n)
{
	int want = 32;
	gid_t *groups = NULL;

	if (job->user == NULL || geteuid() != 0) {
		*n = 1;
		groups = g_new(gid_t, 1);
		groups[0] = job->gid;
		return groups;
	}
	for (;;) {
		int got = want;

		groups = g_renew(gid_t, groups, (gsize)want);
		if (getgrouplist(job->user, job->gid, groups, &got) >= 0) {
			*n = got;
			return groups;
		}
		if (want >= 65536) {
			*n = 1;
			groups[0] = job->gid;
			return groups;
		}
		want = got > want ? got : want * 2;
	}
}

gboolean
sbd_peek_start(Sbd *sbd, SbdJob *job, guint64 offset,
    Basalt__PeekReply_Closure closure, void *call, GError **error)
{
	int fds[2];
	int n_groups = 0;
	g_autofree gid_t *groups = job_groups(job, &n_groups);
	g_autofree char *buf = g_malloc(2 * PEEK_MAX);
	Peek *p;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot make a pipe: %s",
		    g_strerror(errno));
		return FALSE;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot fork: %s",
		    g_strerror(e));
		return FALSE;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(fds[1], job, groups, n_groups, offset, buf);
	}
	close(fds[1]);
	g_unix_set_fd_nonblocking(fds[0], TRUE, NULL);
	p = g_new0(Peek, 1);
	p->call = bs_rpc_call_defer(call);
	p->closure = closure;
	p->job_id = job->id;
	p->index = job->index;
	p->finished = job->finished;
	p->host = g_strdup(sbd->host);
	p->out_path = g_strdup(job->out_path);
	p->pid = pid;
	p->fd = fds[0];
	p->buf = g_byte_array_new();
	p->io_source = g_unix_fd_add(p->fd, G_IO_IN | G_IO_HUP | G_IO_ERR,
	    on_readable, p);
	p->timer = g_timeout_add(PEEK_TIMEOUT_MS, on_timeout, p);
	return TRUE;
}
