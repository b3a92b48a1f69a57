/*
 * The interactive link's frames, credentials and dialing (iact-wire.h).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <munge.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "iact-wire.h"

int
ia_out_set(IaOut *o, const Basalt__InteractiveFrame *f)
{
	size_t n = basalt__interactive_frame__get_packed_size(f);

	if (n > IA_MAX_FRAME)
		return -1;
	o->buf[0] = (unsigned char)(n >> 24);
	o->buf[1] = (unsigned char)(n >> 16);
	o->buf[2] = (unsigned char)(n >> 8);
	o->buf[3] = (unsigned char)n;
	basalt__interactive_frame__pack(f, o->buf + 4);
	o->len = n + 4;
	o->off = 0;
	return 0;
}

int
ia_out_flush(IaOut *o, int fd)
{
	while (o->off < o->len) {
		ssize_t n = send(fd, o->buf + o->off, o->len - o->off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return -1;
		o->off += (size_t)n;
	}
	o->len = o->off = 0;
	return 1;
}

void
ia_reader_clear(IaReader *r)
{
	free(r->body);
	memset(r, 0, sizeof *r);
}

/* 1 done, 0 would block, -1 EOF, -2 error. */
static int
read_some(int fd, unsigned char *p, size_t want, size_t *have)
{
	while (*have < want) {
		ssize_t n = read(fd, p + *have, want - *have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return -2;
		if (n == 0)
			return -1;
		*have += (size_t)n;
	}
	return 1;
}

int
ia_read(IaReader *r, int fd, Basalt__InteractiveFrame **out)
{
	int rc;

	*out = NULL;
	if (r->hdr_have < 4) {
		rc = read_some(fd, r->hdr, 4, &r->hdr_have);
		if (rc == -1 && r->hdr_have > 0) {
			errno = EPROTO;
			return -2;
		}
		if (rc != 1)
			return rc;
		r->want = (size_t)r->hdr[0] << 24 | (size_t)r->hdr[1] << 16 |
		    (size_t)r->hdr[2] << 8 | (size_t)r->hdr[3];
		if (r->want > IA_MAX_FRAME) {
			errno = EPROTO;
			return -2;
		}
		r->body = malloc(r->want ? r->want : 1);
		if (r->body == NULL)
			return -2;
		r->have = 0;
	}
	rc = read_some(fd, r->body, r->want, &r->have);
	if (rc == -1) {
		errno = EPROTO;
		return -2;
	}
	if (rc != 1)
		return rc;
	*out = basalt__interactive_frame__unpack(NULL, r->want, r->body);
	free(r->body);
	r->body = NULL;
	r->hdr_have = 0;
	if (*out == NULL) {
		errno = EPROTO;
		return -2;
	}
	return 1;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
wait_fd(int fd, short ev, long deadline)
{
	struct pollfd p = { .fd = fd, .events = ev };
	long left = deadline - now_ms();
	int rc;

	if (left <= 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	rc = poll(&p, 1, (int)left);
	if (rc == 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	return rc < 0 && errno != EINTR ? -1 : 0;
}

int
ia_send_wait(int fd, const Basalt__InteractiveFrame *f, int timeout_ms)
{
	static IaOut o;
	long deadline = now_ms() + timeout_ms;
	int rc;

	if (ia_out_set(&o, f) < 0) {
		errno = EMSGSIZE;
		return -1;
	}
	while ((rc = ia_out_flush(&o, fd)) == 0)
		if (wait_fd(fd, POLLOUT, deadline) < 0)
			return -1;
	return rc == 1 ? 0 : -1;
}

int
ia_recv_wait(int fd, Basalt__InteractiveFrame **out, int timeout_ms)
{
	IaReader r;
	long deadline = now_ms() + timeout_ms;
	int rc;

	memset(&r, 0, sizeof r);
	while ((rc = ia_read(&r, fd, out)) == 0)
		if (wait_fd(fd, POLLIN, deadline) < 0) {
			ia_reader_clear(&r);
			return -1;
		}
	ia_reader_clear(&r);
	if (rc == -1)
		errno = ECONNRESET;
	return rc == 1 ? 0 : -1;
}

static munge_ctx_t
ctx_for(const char *socket, const char **why)
{
	munge_ctx_t ctx = munge_ctx_create();

	if (ctx == NULL) {
		*why = "cannot create a MUNGE context";
		return NULL;
	}
	if (socket != NULL && *socket != '\0' &&
	    munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket) != EMUNGE_SUCCESS) {
		*why = "cannot use the MUNGE socket";
		munge_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

int
ia_munge_encode(const char *socket, const char *payload, char **cred,
    const char **why)
{
	munge_ctx_t ctx = ctx_for(socket, why);
	munge_err_t e;

	*cred = NULL;
	if (ctx == NULL)
		return -1;
	e = munge_encode(cred, ctx, payload, (int)strlen(payload));
	munge_ctx_destroy(ctx);
	if (e != EMUNGE_SUCCESS) {
		*why = munge_strerror(e);
		free(*cred);
		*cred = NULL;
		return -1;
	}
	return 0;
}

int
ia_munge_decode(const char *socket, const void *cred, size_t len, uid_t *uid,
    char **payload, const char **why)
{
	munge_ctx_t ctx;
	munge_err_t e;
	void *buf = NULL;
	int blen = 0;
	gid_t gid;
	char *text;

	*payload = NULL;
	if (len == 0 || len > 16384 || memchr(cred, '\0', len) != NULL) {
		*why = "malformed MUNGE credential";
		return -1;
	}
	if ((ctx = ctx_for(socket, why)) == NULL)
		return -1;
	text = strndup(cred, len);
	if (text == NULL) {
		munge_ctx_destroy(ctx);
		*why = "out of memory";
		return -1;
	}
	e = munge_decode(text, ctx, &buf, &blen, uid, &gid);
	free(text);
	munge_ctx_destroy(ctx);
	if (e != EMUNGE_SUCCESS) {
		free(buf);
		*why = munge_strerror(e);
		return -1;
	}
	if (buf == NULL || blen <= 0 || blen > 1024 ||
	    memchr(buf, '\0', (size_t)blen) != NULL) {
		free(buf);
		*why = "the MUNGE credential carries no interactive payload";
		return -1;
	}
	*payload = strndup(buf, (size_t)blen);
	free(buf);
	if (*payload == NULL) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

int
ia_payload_get(const char *payload, const char *tag, const char *key,
    char *out, size_t n)
{
	size_t tl = strlen(tag), kl = strlen(key);
	const char *p;

	if (strncmp(payload, tag, tl) != 0 || payload[tl] != ' ')
		return -1;
	for (p = payload + tl; *p != '\0';) {
		size_t wl;

		while (*p == ' ')
			p++;
		wl = strcspn(p, " ");
		if (wl > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			size_t vl = wl - kl - 1;

			if (vl >= n)
				return -1;
			memcpy(out, p + kl + 1, vl);
			out[vl] = '\0';
			return 0;
		}
		p += wl;
	}
	return -1;
}

static int
parse_address(const char *address, struct sockaddr_storage *ss,
    socklen_t *len)
{
	memset(ss, 0, sizeof *ss);
	if (strncmp(address, "unix:", 5) == 0) {
		struct sockaddr_un *un = (struct sockaddr_un *)ss;

		if (strlen(address + 5) >= sizeof un->sun_path)
			return -1;
		un->sun_family = AF_UNIX;
		strcpy(un->sun_path, address + 5);
		*len = sizeof *un;
		return 0;
	}
	if (strncmp(address, "tcp:", 4) == 0) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;
		char host[64];
		const char *colon = strrchr(address + 4, ':');
		char *end;
		long port;

		if (colon == NULL || (size_t)(colon - address - 4) >= sizeof host)
			return -1;
		memcpy(host, address + 4, (size_t)(colon - address - 4));
		host[colon - address - 4] = '\0';
		port = strtol(colon + 1, &end, 10);
		if (*end != '\0' || port <= 0 || port > 65535)
			return -1;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
			return -1;
		*len = sizeof *in;
		return 0;
	}
	return -1;
}

int
ia_connect(const char *address, int timeout_ms)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, err = 0;
	socklen_t elen = sizeof err;

	if (parse_address(address, &ss, &len) < 0) {
		errno = EINVAL;
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
		if (errno != EINPROGRESS && errno != EAGAIN)
			goto fail;
		if (wait_fd(fd, POLLOUT, now_ms() + timeout_ms) < 0)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
			goto fail;
		if (err != 0) {
			errno = err;
			goto fail;
		}
	}
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}
