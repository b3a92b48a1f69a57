/*
 * A misbehaving client of mbatchd for the integration tests of bounded
 * cost per client (t0500-t0520).  It speaks the wire protocol over raw
 * sockets, because the commands are well-behaved by construction:
 *
 *   rpc-abuser bigquery SOCK N USER   one JobQuery naming N users (N-1
 *                                     made-up names, then USER); prints
 *                                     "jobs J" or "error: MESSAGE"
 *   rpc-abuser idle SOCK N            N connections that say hello and
 *                                     then nothing; prints "accepted A
 *                                     refused R", then "closed C" once
 *                                     every accepted one was closed by
 *                                     the server (or on SIGTERM)
 *   rpc-abuser slow SOCK N Q          N connections that each send Q
 *                                     detailed JobQuery for every user
 *                                     and never read; prints "sent" and
 *                                     waits for SIGTERM
 *   rpc-abuser jobs SOCK FIELDS       one JobQuery for every job of every
 *                                     user with JobQuery.fields = FIELDS
 *                                     (0: as a client older than that
 *                                     field asks); prints a line per job,
 *                                     the table's fields, then " |", then
 *                                     the others it checks, or "error:
 *                                     MESSAGE"
 *   rpc-abuser history SOCK SEQ       one HistoryRequest with the cursor
 *                                     SEQ; prints "records R next N end E"
 *                                     then the records' raw bytes, or
 *                                     "error: MESSAGE"
 *
 * Every wait has a deadline of BS_ABUSER_TIMEOUT seconds (default 120).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "batch.pb-c.h"
#include "rpc/frame.h"

static volatile sig_atomic_t stop;

static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int
dial(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	g_strlcpy(sun.sun_path, path, sizeof sun.sun_path);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send a whole frame, and free it. */
static gboolean
send_all(int fd, GBytes *frame)
{
	gsize len, off = 0;
	const guint8 *d = g_bytes_get_data(frame, &len);

	while (off < len) {
		ssize_t n = send(fd, d + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (gsize)n;
	}
	g_bytes_unref(frame);
	return off == len;
}

static Basalt__Envelope *
recv_env(int fd, int timeout_s)
{
	BsFrameDecoder *dec = bs_frame_decoder_new(0);
	gint64 end = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;
	Basalt__Envelope *env = NULL;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	guint8 buf[65536];
	gsize used;

	/* Replies are read whole; the frames we wait for come one at a time. */
	while (env == NULL && g_get_monotonic_time() < end) {
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, 1, 0);
		if (n <= 0)
			break;
		if (bs_frame_decoder_feed(dec, buf, (gsize)n, &used, &env,
		    NULL) == BS_FRAME_ERROR)
			break;
	}
	bs_frame_decoder_free(dec);
	return env;
}

/* Hello as a client; TRUE when accepted. */
static gboolean
hello(int fd)
{
	Basalt__Hello h = BASALT__HELLO__INIT;
	Basalt__Envelope *env;
	Basalt__HelloReply *r;
	gboolean ok;

	h.magic = (char *)BS_HELLO_MAGIC;
	h.version = BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	h.role = BASALT__ROLE__ROLE_CLIENT;
	h.name = (char *)"rpc-abuser";
	if (!send_all(fd, bs_frame_pack_message(
	    BASALT__FRAME_KIND__FRAME_KIND_HELLO, 0, 0, 0, &h.base, NULL, 0,
	    NULL)))
		return FALSE;
	env = recv_env(fd, 10);
	if (env == NULL)
		return FALSE;
	r = basalt__hello_reply__unpack(NULL, env->body.len, env->body.data);
	ok = r != NULL && r->accepted;
	if (r != NULL)
		basalt__hello_reply__free_unpacked(r, NULL);
	basalt__envelope__free_unpacked(env, NULL);
	return ok;
}

/* The index of the Jobs method in the BatchService. */
static guint32
jobs_method(void)
{
	const ProtobufCServiceDescriptor *d = &basalt__batch_service__descriptor;

	for (guint i = 0; i < d->n_methods; i++)
		if (strcmp(d->methods[i].name, "Jobs") == 0)
			return i;
	fprintf(stderr, "no Jobs method\n");
	exit(2);
}

static guint
method_named(const char *name)
{
	const ProtobufCServiceDescriptor *d = &basalt__batch_service__descriptor;

	for (guint i = 0; i < d->n_methods; i++)
		if (strcmp(d->methods[i].name, name) == 0)
			return i;
	fprintf(stderr, "no %s method\n", name);
	exit(2);
}

static int
timeout_s(void)
{
	const char *t = getenv("BS_ABUSER_TIMEOUT");

	return t != NULL ? atoi(t) : 120;
}

static int
bigquery(const char *path, int n, const char *user)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	Basalt__Envelope *env;
	Basalt__JobList *l;
	char **names = g_new(char *, n);
	int fd = dial(path);

	if (fd < 0 || !hello(fd)) {
		fprintf(stderr, "cannot connect to %s\n", path);
		return 1;
	}
	for (int i = 0; i < n - 1; i++)
		names[i] = g_strdup_printf("u%d", i);
	names[n - 1] = (char *)user;
	q.users = names;
	q.n_users = (size_t)n;
	q.all_states = TRUE;
	if (!send_all(fd, bs_frame_pack_message(
	    BASALT__FRAME_KIND__FRAME_KIND_REQUEST, 1, jobs_method(), 0,
	    &q.base, NULL, 0, NULL))) {
		fprintf(stderr, "send failed\n");
		return 1;
	}
	fprintf(stderr, "sent\n");
	env = recv_env(fd, timeout_s());
	if (env == NULL) {
		fprintf(stderr, "no reply\n");
		return 1;
	}
	l = basalt__job_list__unpack(NULL, env->body.len, env->body.data);
	if (l == NULL) {
		printf("status %s: %s\n", bs_rpc_status_name(env->status),
		    env->error);
		return 1;
	}
	if (l->error != NULL && l->error->code != 0)
		printf("error: %s\n", l->error->message);
	else
		printf("jobs %zu\n", l->n_jobs + (l->more ? 1000000 : 0));
	basalt__job_list__free_unpacked(l, NULL);
	basalt__envelope__free_unpacked(env, NULL);
	for (int i = 0; i < n - 1; i++)
		g_free(names[i]);
	g_free(names);
	close(fd);
	return 0;
}

static void
print_job(const Basalt__JobInfo *j)
{
	printf("%" PRIu64 "[%u] user=%s state=%d queue=%s from=%s exec=",
	    j->job_id, j->array_index, j->user, (int)j->state, j->queue,
	    j->from_host);
	for (size_t i = 0; i < j->n_exec_hosts; i++)
		printf("%s%s", i ? "," : "", j->exec_hosts[i]);
	printf(" name=%s submit=%" PRId64 " pend=%s susp=%s |",
	    j->job_name, j->submit_time, j->pending_reason, j->suspend_reason);
	printf(" uid=%u usage=%d prio=%u start=%" PRId64 " consumer=%s\n",
	    j->uid, j->usage != NULL, j->user_priority, j->start_time,
	    j->consumer);
}

/* What an unchanged or masked job query gets, field by field. */
static int
jobs(const char *path, const char *fields)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	Basalt__Envelope *env;
	Basalt__JobList *l;
	char *all = (char *)"all";
	int fd = dial(path);

	if (fd < 0 || !hello(fd)) {
		fprintf(stderr, "cannot connect to %s\n", path);
		return 1;
	}
	q.users = &all;
	q.n_users = 1;
	q.all_states = TRUE;
	q.fields = (uint32_t)strtoul(fields, NULL, 10);
	if (!send_all(fd, bs_frame_pack_message(
	    BASALT__FRAME_KIND__FRAME_KIND_REQUEST, 1, jobs_method(), 0,
	    &q.base, NULL, 0, NULL))) {
		fprintf(stderr, "send failed\n");
		return 1;
	}
	env = recv_env(fd, timeout_s());
	if (env == NULL) {
		fprintf(stderr, "no reply\n");
		return 1;
	}
	l = basalt__job_list__unpack(NULL, env->body.len, env->body.data);
	if (l == NULL) {
		printf("status %s: %s\n", bs_rpc_status_name(env->status),
		    env->error);
		return 1;
	}
	if (l->error != NULL && l->error->code != 0)
		printf("error: %s\n", l->error->message);
	for (size_t i = 0; i < l->n_jobs; i++)
		print_job(l->jobs[i]);
	basalt__job_list__free_unpacked(l, NULL);
	basalt__envelope__free_unpacked(env, NULL);
	close(fd);
	return 0;
}

static void
raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int
idle(const char *path, int n)
{
	int *fds = g_new(int, n), accepted = 0, refused = 0, closed = 0;
	gint64 end;
	char b;

	raise_fd_limit();
	{
		struct rlimit rl;

		getrlimit(RLIMIT_NOFILE, &rl);
		fprintf(stderr, "descriptors: %lu\n", (unsigned long)rl.rlim_cur);
	}
	for (int i = 0; i < n; i++) {
		fds[i] = dial(path);
		if (fds[i] < 0 && refused == 0)
			fprintf(stderr, "connection %d: %s\n", i, g_strerror(errno));
		if (fds[i] >= 0 && hello(fds[i])) {
			accepted++;
		} else {
			refused++;
			if (fds[i] >= 0)
				close(fds[i]);
			fds[i] = -1;
		}
	}
	printf("accepted %d refused %d\n", accepted, refused);
	fflush(stdout);
	end = g_get_monotonic_time() + (gint64)timeout_s() * G_USEC_PER_SEC;
	while (!stop && closed < accepted && g_get_monotonic_time() < end) {
		closed = 0;
		for (int i = 0; i < n; i++) {
			if (fds[i] < 0)
				continue;
			if (recv(fds[i], &b, 1, MSG_DONTWAIT) == 0 ||
			    (errno != EAGAIN && errno != EWOULDBLOCK)) {
				close(fds[i]);
				fds[i] = -2;
			}
		}
		for (int i = 0; i < n; i++)
			closed += fds[i] == -2;
		if (closed < accepted)
			g_usleep(100000);
	}
	printf("closed %d\n", closed);
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	g_free(fds);
	return 0;
}

static int
slow(const char *path, int n, int nq)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	char *all[] = { (char *)"all" };
	int *fds = g_new(int, n), rcv = 4096;
	GBytes *f;
	gint64 end;

	raise_fd_limit();
	q.users = all;
	q.n_users = 1;
	q.all_states = TRUE;
	q.detail = TRUE;
	f = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REQUEST, 1,
	    jobs_method(), 0, &q.base, NULL, 0, NULL);
	for (int i = 0; i < n; i++) {
		fds[i] = dial(path);
		setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &rcv, sizeof rcv);
		if (fds[i] < 0 || !hello(fds[i])) {
			fprintf(stderr, "connection %d refused\n", i);
			return 1;
		}
	}
	/* Requests are small: they fit the socket even when mbatchd stops
	 * reading, and a full socket just ends this connection's share. */
	for (int k = 0; k < nq; k++)
		for (int i = 0; i < n; i++) {
			gsize len;
			const guint8 *d = g_bytes_get_data(f, &len);

			(void)send(fds[i], d, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		}
	printf("sent\n");
	fflush(stdout);
	end = g_get_monotonic_time() + (gint64)timeout_s() * G_USEC_PER_SEC;
	while (!stop && g_get_monotonic_time() < end)
		g_usleep(100000);
	g_bytes_unref(f);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	g_free(fds);
	return 0;
}

/* A hand-made cursor: a page as the caller may read it, or a refusal. */
static int
history(const char *path, const char *seq)
{
	Basalt__HistoryRequest q = BASALT__HISTORY_REQUEST__INIT;
	Basalt__Envelope *env;
	Basalt__HistoryPage *p;
	int fd = dial(path);

	if (fd < 0 || !hello(fd)) {
		fprintf(stderr, "cannot connect to %s\n", path);
		return 1;
	}
	q.after_seq = g_ascii_strtoull(seq, NULL, 10);
	if (!send_all(fd, bs_frame_pack_message(
	    BASALT__FRAME_KIND__FRAME_KIND_REQUEST, 1, method_named("History"),
	    0, &q.base, NULL, 0, NULL))) {
		fprintf(stderr, "send failed\n");
		return 1;
	}
	env = recv_env(fd, timeout_s());
	if (env == NULL) {
		fprintf(stderr, "no reply\n");
		return 1;
	}
	p = basalt__history_page__unpack(NULL, env->body.len, env->body.data);
	if (p == NULL) {
		printf("status %s: %s\n", bs_rpc_status_name(env->status),
		    env->error);
		return 1;
	}
	if (p->error != NULL && p->error->code != 0)
		printf("error: %s\n", p->error->message);
	else {
		printf("records %zu next %" G_GUINT64_FORMAT " end %d\n",
		    p->n_records, p->next_seq, (int)p->end);
		for (size_t i = 0; i < p->n_records; i++)
			fwrite(p->records[i].data, 1, p->records[i].len, stdout);
		printf("\n");
	}
	basalt__history_page__free_unpacked(p, NULL);
	basalt__envelope__free_unpacked(env, NULL);
	close(fd);
	return 0;
}

int
main(int argc, char **argv)
{
	signal(SIGTERM, on_term);
	signal(SIGPIPE, SIG_IGN);
	if (argc == 5 && strcmp(argv[1], "bigquery") == 0)
		return bigquery(argv[2], atoi(argv[3]), argv[4]);
	if (argc == 4 && strcmp(argv[1], "jobs") == 0)
		return jobs(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "idle") == 0)
		return idle(argv[2], atoi(argv[3]));
	if (argc == 4 && strcmp(argv[1], "history") == 0)
		return history(argv[2], argv[3]);
	if (argc == 5 && strcmp(argv[1], "slow") == 0)
		return slow(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: rpc-abuser bigquery SOCK N USER | idle SOCK N "
	    "| slow SOCK N QUERIES | history SOCK SEQ | jobs SOCK FIELDS\n");
	return 2;
}
