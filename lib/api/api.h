/*
 * lib/api: the client side of Basalt that every command shares, named after
 * LSF's lsbatch API (lsb_*).
 *
 * Finding mbatchd is LSF's rule and nothing more, so a command costs one
 * small file read before its round trip:
 *
 *   LSF_ENVDIR (environment) else SYSCONFDIR/basalt
 *     -> $LSF_ENVDIR/lsf.conf, read on its own (never the lsb.* files)
 *     -> LSB_SHAREDIR (relative paths are relative to LSF_ENVDIR; unset:
 *        $LSF_ENVDIR/work, as mbatchd defaults it)
 *     -> the Unix socket $LSB_SHAREDIR/mbatchd.sock
 *   or, with LSF_AUTH=munge when LSF_SERVER_HOSTS is set or that socket
 *   does not exist (a login node, a job on an execution host), mbatchd
 *   over TCP with a MUNGE credential (remote.c)
 *
 * Timeouts come from LSF's own lsf.conf parameters, which the environment
 * may override as LSF allows:
 *   LSB_API_CONNTIMEOUT  seconds to keep retrying while mbatchd cannot be
 *                        reached (default 3; a restart takes about that)
 *   LSB_API_RECVTIMEOUT  seconds one call may take (default 30)
 *
 * One connection per process, opened by the first lsb_call() and reopened
 * by the next call after a transport failure, so polling commands (bsub -K,
 * bpeek -f) ride over an mbatchd restart.  Errors are GErrors in the
 * LSB_ERROR domain whose message is the text a user should see.
 */
#ifndef BS_API_API_H
#define BS_API_API_H

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

#include "batch.pb-c.h"

#define LSB_ERROR (lsb_error_quark())
GQuark lsb_error_quark(void);

typedef enum {
	LSB_ERROR_CONF,      /* lsf.conf missing or unreadable */
	LSB_ERROR_DOWN,      /* mbatchd could not be reached */
	LSB_ERROR_CALL,      /* the call failed after connecting */
} LsbErrorCode;

/* The wording LSF uses while (and after) mbatchd does not answer. */
#define LSB_MSG_STILL_TRYING \
	"batch system daemon not responding ... still trying"
#define LSB_MSG_DOWN "LSF is down; please wait"

/* The BatchService method indexes, in the order of proto/batch.proto. */
typedef enum {
	LSB_SUBMIT = 0,
	LSB_JOBS = 1,
	LSB_QUEUES = 2,
	LSB_HOSTS = 3,
	LSB_PARAMS = 4,
	LSB_USERS = 5,
	LSB_CONTROL = 6,
	LSB_SWITCH = 7,
	LSB_MOVE = 8,
	LSB_MODIFY = 9,
	LSB_PEEK = 10,
	LSB_ADMIN = 11,
	LSB_CLUSTER = 12,
	LSB_LIMITS = 13,
	LSB_HISTORY = 14,
	LSB_WAIT = 15,
	LSB_POST = 16,
	LSB_READ = 17,
	LSB_CONSUMERS = 18,
	LSB_JOB_GROUPS = 19,
	LSB_JOB_GROUP_CONTROL = 20,
	LSB_CLUSTERS = 21,
} LsbMethod;

/* $LSF_ENVDIR, else the built-in SYSCONFDIR/basalt.  g_free() it. */
char *lsb_envdir(void);

/*
 * Reads envdir/lsf.conf: KEY=value lines, values optionally quoted, blank
 * lines and # comments skipped.  Returns KEY -> value (unref it), or NULL
 * with LSB_ERROR_CONF.
 */
GHashTable *lsb_read_lsf_conf(const char *envdir, GError **err);

/* A directory or file parameter of lsf.conf as an absolute path (relative
 * to envdir), or NULL when unset.  g_free() it. */
char *lsb_conf_path(GHashTable *conf, const char *envdir, const char *key);

/* The socket mbatchd listens on for local clients.  g_free() it. */
char *lsb_mbd_socket(GError **err);

/* Seconds from the environment, else lsf.conf, else dflt. */
guint lsb_conf_seconds(GHashTable *conf, const char *key, guint dflt);

/*
 * Calls one BatchService method.  On success *reply is the decoded reply,
 * to free with protobuf_c_message_free_unpacked(*reply, NULL).  While
 * mbatchd cannot be reached this retries for LSB_API_CONNTIMEOUT seconds,
 * printing LSB_MSG_STILL_TRYING once on stderr, then fails with
 * LSB_ERROR_DOWN whose message starts with LSB_MSG_DOWN.
 */
gboolean lsb_call(LsbMethod method, const ProtobufCMessage *request,
    ProtobufCMessage **reply, GError **err);
/*
 * lsb_call in three steps (bs_client_send, bs_client_wait and
 * bs_client_decode over the same connection), for a caller that sends its
 * next request before it unpacks a reply; decode escapes as lsb_call does,
 * and unpacks with allocator (NULL: protobuf-c's malloc and free).
 */
gboolean lsb_call_send(LsbMethod method, const ProtobufCMessage *request,
    guint64 *id, GError **err);
gboolean lsb_call_wait(LsbMethod method, guint64 id, GBytes **body,
    GError **err);
gboolean lsb_call_decode(LsbMethod method, GBytes *body,
    ProtobufCAllocator *allocator, ProtobufCMessage **reply, GError **err);
/*
 * After a failed lsb_call: TRUE when its request may have reached mbatchd
 * (the connection was up; the reply was lost or bad), FALSE when mbatchd
 * certainly did not act on it (no connection, hello refused).
 */
gboolean lsb_call_was_sent(void);

/*
 * Every job a query selects, however many pages mbatchd sends them in.
 * `list` is one JobList over all pages (its error is the first page's);
 * free with lsb_job_pages_clear().
 */
typedef struct {
	Basalt__JobList list;
	GPtrArray *pages;         /* Basalt__JobList *, as received */
	struct LsbArena *arena;   /* where the pages were unpacked */
} LsbJobPages;

gboolean lsb_jobs_all(const Basalt__JobQuery *q, LsbJobPages *out, GError **err);
/*
 * The same listing a page at a time, for a caller that prints each page
 * as it comes and keeps none: fn gets each page, valid until it returns,
 * and returns FALSE to stop.  FALSE with err when a page could not be had
 * (after fn has seen the pages before it).
 */
typedef gboolean (*LsbJobPageFn)(const Basalt__JobList *page, gpointer data);
gboolean lsb_jobs_each(const Basalt__JobQuery *q, LsbJobPageFn fn,
    gpointer data, GError **err);
void lsb_job_pages_clear(LsbJobPages *p);

/* Closes the connection (a later lsb_call opens a new one). */
void lsb_close(void);

/*
 * Escape control characters in every string field of m, nested messages
 * included (util/escape.h).  lsb_call does it to every reply but Admin's
 * (multi-line diagnostics) and Peek's (bytes); bhist does it to each
 * journal event it reads.
 */
void lsb_escape_message(ProtobufCMessage *m);
/* The same for a message unpacked with allocator (NULL: malloc's). */
void lsb_escape_message_in(ProtobufCMessage *m, ProtobufCAllocator *allocator);

/* Keeps lsb_call from printing LSB_MSG_STILL_TRYING (tests, scripts). */
void lsb_set_quiet(gboolean quiet);

#endif
