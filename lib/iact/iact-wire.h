/*
 * The interactive link of bsub -I, -Ip and -Is (proto/interactive.proto):
 * frames, the bounded buffers that give it flow control, and the MUNGE
 * credentials that bind it to one job.
 *
 * Both ends (bsub and the job's relay in bs-jobwrap) are poll() loops over
 * non-blocking descriptors.  Flow control is by construction: each end
 * holds at most one outgoing frame and reads its source (a terminal, a
 * pipe, the socket) only once that frame has been written, and the reader
 * takes exactly one frame off the socket at a time, never more.  So a peer
 * that stops reading fills the kernel's socket buffers, then the pty or
 * pipe, and the job blocks in write(); nobody's memory grows.
 *
 * Plain C without GLib: bs-jobwrap, whose children inherit its memory,
 * links this.
 */
#ifndef BS_IACT_WIRE_H
#define BS_IACT_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "interactive.pb-c.h"

/* Data bytes per frame, and the largest frame either end accepts. */
#define IA_CHUNK 16384
#define IA_MAX_FRAME (IA_CHUNK + 4096)

/* JobSpec.interactive values. */
enum { IA_MODE_NONE = 0, IA_MODE_PIPES = 1, IA_MODE_PTY = 2, IA_MODE_SHELL = 3 };

/* Payload tags of the two credentials. */
#define IA_HELLO_TAG "basalt-interactive"
#define IA_REPLY_TAG "basalt-interactive-reply"

/* One outgoing frame being written. */
typedef struct {
	unsigned char buf[4 + IA_MAX_FRAME];
	size_t len, off;
} IaOut;

/* One incoming frame being read: header, then body, never beyond it. */
typedef struct {
	unsigned char hdr[4];
	size_t hdr_have;
	unsigned char *body;
	size_t want, have;
} IaReader;

static inline int ia_out_empty(const IaOut *o) { return o->off >= o->len; }

/* Pack f into o (which must be empty); -1 when it exceeds IA_MAX_FRAME. */
int ia_out_set(IaOut *o, const Basalt__InteractiveFrame *f);
/* Write what fd takes: 1 all written, 0 more to write, -1 error (errno). */
int ia_out_flush(IaOut *o, int fd);

/*
 * Read toward one frame: 1 with *out (free with
 * basalt__interactive_frame__free_unpacked(*out, NULL)), 0 when fd has no
 * more for now, -1 at a clean end of stream, -2 on an error or a malformed
 * frame (errno EPROTO for the latter).
 */
int ia_read(IaReader *r, int fd, Basalt__InteractiveFrame **out);
void ia_reader_clear(IaReader *r);

/* Blocking helpers for the handshake: wait at most timeout_ms overall.
 * Return 0 on success, -1 with errno (ETIMEDOUT, EPROTO, ...). */
int ia_send_wait(int fd, const Basalt__InteractiveFrame *f, int timeout_ms);
int ia_recv_wait(int fd, Basalt__InteractiveFrame **out, int timeout_ms);

/*
 * MUNGE.  socket NULL: munge's default.  encode: *cred is malloc'd text.
 * decode: uid and the payload (malloc'd, NUL-terminated).  On failure they
 * return -1 with a static or munge message in *why.
 */
int ia_munge_encode(const char *socket, const char *payload, char **cred,
    const char **why);
int ia_munge_decode(const char *socket, const void *cred, size_t len,
    uid_t *uid, char **payload, const char **why);

/* The value of key in a "TAG k=v k=v" payload that starts with tag (exact
 * word); copied into out (size n).  0 found, -1 not. */
int ia_payload_get(const char *payload, const char *tag, const char *key,
    char *out, size_t n);

/* Parse "tcp:IP:PORT" or "unix:/path" and connect (blocking, timeout).
 * Returns the descriptor (non-blocking, close-on-exec) or -1 with errno. */
int ia_connect(const char *address, int timeout_ms);

#endif
