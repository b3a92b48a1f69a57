/*
 * lib/api: finding mbatchd from lsf.conf and calling it (see api.h).
 *
 * lsf.conf is read here by a reader of its own rather than lib/conf's
 * loader: the commands need three keys from one file, and linking the
 * whole configuration reader into every bjobs would cost start-up time
 * for nothing.  The syntax is the same simple one: KEY=value per line.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.pb-c.h"

#include "api/api.h"
#include "api/remote.h"
#include "auth/auth.h"
#include "rpc/client.h"
#include "util/error.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

#define CONNTIMEOUT_DEFAULT_S 3
#define RECVTIMEOUT_DEFAULT_S 30
#define RETRY_STEP_MS 100

G_DEFINE_QUARK(lsb-error-quark, lsb_error)

static BsClient *client;
static gboolean quiet;
static gboolean last_sent;    /* the last call's request reached mbatchd */

char *
lsb_envdir(void)
{
	const char *env = g_getenv("LSF_ENVDIR");

	if (env != NULL && *env != '\0')
		return g_strdup(env);
	return g_strdup(SYSCONFDIR "/basalt");
}

static char *
unquote(const char *v)
{
	gsize n = strlen(v);

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0])
		return g_strndup(v + 1, n - 2);
	return g_strdup(v);
}

/* One "KEY=value" line into the table; anything else is ignored, as the
 * daemons' loader reports it and a command has no one to tell. */
static void
parse_line(GHashTable *t, char *line)
{
	char *eq, *key;

	g_strstrip(line);
	if (line[0] == '\0' || line[0] == '#')
		return;
	eq = strchr(line, '=');
	if (eq == NULL || eq == line)
		return;
	*eq = '\0';
	key = g_strstrip(line);
	g_hash_table_replace(t, g_strdup(key), unquote(g_strstrip(eq + 1)));
}

/*
 * A command asks for lsf.conf several times (bsub: its memory unit, its
 * retries, then where mbatchd is), so the table read last is kept and
 * handed out again while the file is the same one, unchanged: a stat
 * instead of a read and a parse.  Callers only look keys up.
 */
static struct {
	char *path;
	struct stat st;
	GHashTable *table;
} conf_cache;
G_LOCK_DEFINE_STATIC(conf_cache);

static gboolean
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static GHashTable *
conf_cached(const char *path, const struct stat *st)
{
	GHashTable *t = NULL;

	G_LOCK(conf_cache);
	if (conf_cache.table != NULL && g_strcmp0(conf_cache.path, path) == 0 &&
	    same_file(&conf_cache.st, st))
		t = g_hash_table_ref(conf_cache.table);
	G_UNLOCK(conf_cache);
	return t;
}

static void
conf_keep(const char *path, const struct stat *st, GHashTable *t)
{
	G_LOCK(conf_cache);
	g_free(conf_cache.path);
	g_clear_pointer(&conf_cache.table, g_hash_table_unref);
	conf_cache.path = g_strdup(path);
	conf_cache.st = *st;
	conf_cache.table = g_hash_table_ref(t);
	G_UNLOCK(conf_cache);
}

GHashTable *
lsb_read_lsf_conf(const char *envdir, GError **err)
{
	g_autofree char *path = g_build_filename(envdir, "lsf.conf", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GError *rerr = NULL;
	GHashTable *t;
	struct stat st;
	gboolean have_st = stat(path, &st) == 0;

	if (have_st && (t = conf_cached(path, &st)) != NULL)
		return t;
	if (!g_file_get_contents(path, &text, NULL, &rerr)) {
		g_set_error(err, LSB_ERROR, LSB_ERROR_CONF,
		    "Cannot read %s: %s (set LSF_ENVDIR to the directory "
		    "that holds lsf.conf)", path,
		    g_strerror(rerr->code == G_FILE_ERROR_NOENT ? ENOENT :
		    rerr->code == G_FILE_ERROR_ACCES ? EACCES : EIO));
		g_error_free(rerr);
		return NULL;
	}
	t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++)
		parse_line(t, lines[i]);
	if (have_st)
		conf_keep(path, &st, t);
	return t;
}

char *
lsb_conf_path(GHashTable *conf, const char *envdir, const char *key)
{
	const char *v = g_hash_table_lookup(conf, key);

	if (v == NULL || *v == '\0')
		return NULL;
	return g_canonicalize_filename(v, envdir);
}

guint
lsb_conf_seconds(GHashTable *conf, const char *key, guint dflt)
{
	const char *v = g_getenv(key);
	guint64 n;

	if ((v == NULL || *v == '\0') && conf != NULL)
		v = g_hash_table_lookup(conf, key);
	if (v == NULL || !g_ascii_string_to_unsigned(v, 10, 1, 86400, &n, NULL))
		return dflt;
	return (guint)n;
}

/* Where and how to reach mbatchd, from one read of lsf.conf. */
typedef struct {
	char *envdir;
	GHashTable *conf;
	char *sock;           /* $LSB_SHAREDIR/mbatchd.sock */
	guint conn_s, recv_s;
} Where;

static void
where_clear(Where *w)
{
	g_free(w->envdir);
	g_free(w->sock);
	if (w->conf != NULL)
		g_hash_table_unref(w->conf);
}

static gboolean
locate(Where *w, GError **err)
{
	g_autofree char *share = NULL;

	memset(w, 0, sizeof *w);
	w->envdir = lsb_envdir();
	w->conf = lsb_read_lsf_conf(w->envdir, err);
	if (w->conf == NULL)
		return FALSE;
	share = lsb_conf_path(w->conf, w->envdir, "LSB_SHAREDIR");
	if (share == NULL)
		share = g_build_filename(w->envdir, "work", NULL);
	w->conn_s = lsb_conf_seconds(w->conf, "LSB_API_CONNTIMEOUT",
	    CONNTIMEOUT_DEFAULT_S);
	w->recv_s = lsb_conf_seconds(w->conf, "LSB_API_RECVTIMEOUT",
	    RECVTIMEOUT_DEFAULT_S);
	w->sock = g_build_filename(share, "mbatchd.sock", NULL);
	return TRUE;
}

char *
lsb_mbd_socket(GError **err)
{
	Where w;
	char *sock;

	if (!locate(&w, err)) {
		where_clear(&w);
		return NULL;
	}
	sock = g_steal_pointer(&w.sock);
	where_clear(&w);
	return sock;
}

gboolean
lsb_call_was_sent(void)
{
	return last_sent;
}

void
lsb_set_quiet(gboolean q)
{
	quiet = q;
}

void
lsb_close(void)
{
	g_clear_pointer(&client, bs_client_free);
}

/*
 * Connects, retrying while nobody listens (no socket file yet, or a stale
 * one nobody accepts on): that is mbatchd starting or restarting.  Any
 * other failure, such as a refused hello, is final at once.
 */
static gboolean
connect_mbd(GError **err)
{
	Where w;
	BsClientOptions opts;
	gint64 deadline;
	gboolean warned = FALSE, tcp;

	if (!locate(&w, err)) {
		where_clear(&w);
		return FALSE;
	}
	bs_client_options_init(&opts);
	opts.unix_path = w.sock;
	opts.timeout_ms = w.recv_s * 1000;
	/* The hello's reply comes with the first call's: a bsub makes one
	 * round trip to mbatchd, not two. */
	opts.defer_hello = TRUE;
	tcp = lsb_remote_wanted(w.conf, w.sock);
	if (!tcp && !lsb_local_possible(w.conf, w.sock, err)) {
		where_clear(&w);
		return FALSE;
	}
	deadline = g_get_monotonic_time() + (gint64)w.conn_s * G_USEC_PER_SEC;
	for (;;) {
		GError *cerr = NULL;

		client = tcp ? lsb_connect_remote(w.envdir, w.conf, &opts, &cerr) :
		    bs_client_connect(&opts, &cerr);
		if (client != NULL) {
			where_clear(&w);
			return TRUE;
		}
		if (cerr->code == BS_ERROR_REFUSED) {
			g_set_error(err, LSB_ERROR, LSB_ERROR_CALL,
			    "mbatchd refused the connection: %s", cerr->message);
			g_error_free(cerr);
			where_clear(&w);
			return FALSE;
		}
		/* A socket file nobody accepts on may be another host's (a
		 * shared LSB_SHAREDIR seen from an execution host): with
		 * MUNGE, the master is also reachable over TCP. */
		if (!tcp && cerr->code == BS_ERROR_IO &&
		    bs_auth_enabled(w.conf)) {
			g_error_free(cerr);
			tcp = TRUE;
			continue;
		}
		if (cerr->code != BS_ERROR_IO ||
		    g_get_monotonic_time() >= deadline) {
			g_set_error(err, LSB_ERROR, cerr->code == BS_ERROR_IO ?
			    LSB_ERROR_DOWN : LSB_ERROR_CALL,
			    "%s: mbatchd is not reachable (%s)",
			    LSB_MSG_DOWN, cerr->message);
			g_error_free(cerr);
			where_clear(&w);
			return FALSE;
		}
		g_error_free(cerr);
		if (!warned && !quiet)
			fprintf(stderr, "%s\n", LSB_MSG_STILL_TRYING);
		warned = TRUE;
		g_usleep(RETRY_STEP_MS * 1000);
	}
}

/* A failed call: the connection is closed and the error said as
 * lsb_call says it. */
static gboolean
call_failed(GError *cerr, GError **err)
{
	/* Whatever went wrong, the next call starts on a fresh connection. */
	lsb_close();
	if (cerr->code == BS_ERROR_REFUSED) {
		/* The deferred hello was refused (or the server could not
		 * prove it is mbatchd): said as such, not as "down". */
		/* mbatchd did not act on the request. */
		last_sent = FALSE;
		g_set_error(err, LSB_ERROR, LSB_ERROR_CALL,
		    "mbatchd refused the connection: %s", cerr->message);
		g_error_free(cerr);
		return FALSE;
	}
	g_set_error(err, LSB_ERROR, cerr->code == BS_ERROR_IO ?
	    LSB_ERROR_DOWN : LSB_ERROR_CALL, "%s%s",
	    cerr->code == BS_ERROR_IO ? LSB_MSG_DOWN ": " : "", cerr->message);
	g_error_free(cerr);
	return FALSE;
}

gboolean
lsb_call_send(LsbMethod method, const ProtobufCMessage *request,
    guint64 *id, GError **err)
{
	GError *cerr = NULL;

	last_sent = FALSE;
	if (client == NULL && !connect_mbd(err))
		return FALSE;
	/* From here the request may reach mbatchd even if no reply does. */
	last_sent = TRUE;
	if (!bs_client_send(client, &basalt__batch_service__descriptor,
	    (guint)method, request, id, &cerr))
		return call_failed(cerr, err);
	return TRUE;
}

gboolean
lsb_call_wait(LsbMethod method, guint64 id, GBytes **body, GError **err)
{
	GError *cerr = NULL;

	if (client == NULL) {
		g_set_error(err, LSB_ERROR, LSB_ERROR_DOWN, "%s: %s",
		    LSB_MSG_DOWN, "the connection was closed");
		return FALSE;
	}
	if (!bs_client_wait(client, &basalt__batch_service__descriptor,
	    (guint)method, id, body, &cerr))
		return call_failed(cerr, err);
	return TRUE;
}

gboolean
lsb_call_decode(LsbMethod method, GBytes *body, ProtobufCAllocator *allocator,
    ProtobufCMessage **reply, GError **err)
{
	GError *cerr = NULL;

	if (!bs_client_decode(&basalt__batch_service__descriptor,
	    (guint)method, body, allocator, reply, &cerr))
		return call_failed(cerr, err);
	/* Names from other users reach a terminal: no forged rows. */
	if (method != LSB_ADMIN && method != LSB_PEEK)
		lsb_escape_message_in(*reply, allocator);
	return TRUE;
}

gboolean
lsb_call(LsbMethod method, const ProtobufCMessage *request,
    ProtobufCMessage **reply, GError **err)
{
	guint64 id;
	GBytes *body = NULL;
	gboolean ok;

	*reply = NULL;
	if (!lsb_call_send(method, request, &id, err) ||
	    !lsb_call_wait(method, id, &body, err))
		return FALSE;
	ok = lsb_call_decode(method, body, NULL, reply, err);
	g_bytes_unref(body);
	return ok;
}
