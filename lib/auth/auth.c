/*
 * lib/auth over libmunge: see auth.h for the payloads and why they carry
 * a nonce.
 *
 * A payload is parsed strictly (exact prefix, known keys, no control
 * characters) because it comes from whoever could get a credential from
 * munged, which on a real cluster is every user on every host.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <munge.h>

#include "auth/auth.h"
#include "util/error.h"

#define HELLO_TAG "basalt-hello"
#define REPLY_TAG "basalt-reply"
#define NAME_MAX_LEN 256

void
bs_auth_cred_clear(BsAuthCred *c)
{
	g_clear_pointer(&c->name, g_free);
	g_clear_pointer(&c->nonce, g_free);
}

gboolean
bs_auth_enabled(GHashTable *lsf_conf)
{
	const char *v = lsf_conf != NULL ?
	    g_hash_table_lookup(lsf_conf, "LSF_AUTH") : NULL;

	return v != NULL && g_ascii_strcasecmp(v, "munge") == 0;
}

const char *
bs_auth_socket(GHashTable *lsf_conf)
{
	const char *v = lsf_conf != NULL ?
	    g_hash_table_lookup(lsf_conf, "LSF_MUNGE_SOCKET") : NULL;

	return v != NULL && *v != '\0' ? v : NULL;
}

char *
bs_auth_nonce(void)
{
	GString *s = g_string_sized_new(33);

	/* GRand is seeded from /dev/urandom; the nonce needs to be fresh,
	 * not secret: the credential around it is what cannot be forged. */
	for (int i = 0; i < 4; i++)
		g_string_append_printf(s, "%08x", g_random_int());
	return g_string_free(s, FALSE);
}

static munge_ctx_t
ctx_for(const char *socket, GError **err)
{
	munge_ctx_t ctx = munge_ctx_create();

	if (ctx == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "cannot create a MUNGE context");
		return NULL;
	}
	if (socket != NULL &&
	    munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket) != EMUNGE_SUCCESS) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "MUNGE socket %s: %s", socket, munge_ctx_strerror(ctx));
		munge_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

static GBytes *
encode(const char *socket, const char *payload, GError **err)
{
	munge_ctx_t ctx = ctx_for(socket, err);
	char *cred = NULL;
	munge_err_t e;
	GBytes *b;

	if (ctx == NULL)
		return NULL;
	e = munge_encode(&cred, ctx, payload, (int)strlen(payload));
	if (e != EMUNGE_SUCCESS) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO,
		    "cannot get a MUNGE credential (socket %s): %s",
		    socket != NULL ? socket : "default", munge_ctx_strerror(ctx));
		munge_ctx_destroy(ctx);
		free(cred);
		return NULL;
	}
	b = g_bytes_new(cred, strlen(cred));
	free(cred);
	munge_ctx_destroy(ctx);
	return b;
}

/* Decode into out (uid, gid, origin) and return the payload text. */
static char *
decode(const char *socket, const guint8 *cred, gsize len, BsAuthCred *out,
    GError **err)
{
	munge_ctx_t ctx;
	struct in_addr addr;
	char *text, *payload = NULL;
	void *buf = NULL;
	int blen = 0;
	uid_t uid;
	gid_t gid;
	munge_err_t e;

	memset(out, 0, sizeof *out);
	if (cred == NULL || len == 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "no MUNGE credential");
		return NULL;
	}
	if (len > 64 * 1024 || memchr(cred, '\0', len) != NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "malformed MUNGE credential");
		return NULL;
	}
	if ((ctx = ctx_for(socket, err)) == NULL)
		return NULL;
	text = g_strndup((const char *)cred, len);
	e = munge_decode(text, ctx, &buf, &blen, &uid, &gid);
	g_free(text);
	if (e != EMUNGE_SUCCESS) {
		g_set_error(err, BS_ERROR, e == EMUNGE_SOCKET ? BS_ERROR_IO :
		    BS_ERROR_REFUSED, "MUNGE credential refused: %s",
		    munge_ctx_strerror(ctx));
		free(buf);
		munge_ctx_destroy(ctx);
		return NULL;
	}
	if (munge_ctx_get(ctx, MUNGE_OPT_ADDR4, &addr) == EMUNGE_SUCCESS)
		inet_ntop(AF_INET, &addr, out->origin, sizeof out->origin);
	munge_ctx_destroy(ctx);
	out->uid = uid;
	out->gid = gid;
	if (buf != NULL && blen > 0 && blen < 4096 &&
	    memchr(buf, '\0', (size_t)blen) == NULL)
		payload = g_strndup(buf, (gsize)blen);
	free(buf);
	if (payload == NULL)
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "MUNGE credential carries no Basalt payload");
	return payload;
}

/* "TAG k=v k=v": the value of key, or NULL.  Values have no spaces. */
static char *
payload_value(char **words, const char *key)
{
	gsize klen = strlen(key);

	for (char **w = words + 1; *w != NULL; w++)
		if (strncmp(*w, key, klen) == 0 && (*w)[klen] == '=')
			return g_strdup(*w + klen + 1);
	return NULL;
}

static gboolean
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return FALSE;
	return TRUE;
}

static gboolean
name_ok(const char *name, GError **err)
{
	if (name == NULL || *name == '\0' || strlen(name) > NAME_MAX_LEN ||
	    !printable(name)) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "a name in a credential must be 1 to %d printable "
		    "characters without spaces", NAME_MAX_LEN);
		return FALSE;
	}
	return TRUE;
}

GBytes *
bs_auth_hello_credential(const char *socket, int role, const char *name,
    char **nonce, GError **err)
{
	g_autofree char *payload = NULL;
	g_autofree char *n = bs_auth_nonce();
	GBytes *cred;

	if (name == NULL || *name == '\0')
		name = "-";
	if (!name_ok(name, err))
		return NULL;
	payload = g_strdup_printf(HELLO_TAG " role=%d name=%s nonce=%s", role,
	    name, n);
	cred = encode(socket, payload, err);
	if (cred != NULL && nonce != NULL)
		*nonce = g_steal_pointer(&n);
	return cred;
}

/* Parse the payload of a hello or reply credential into out. */
static gboolean
parse_payload(const char *payload, const char *tag, BsAuthCred *out,
    GError **err)
{
	g_auto(GStrv) words = g_strsplit(payload, " ", 8);
	g_autofree char *role = NULL;

	if (words[0] == NULL || strcmp(words[0], tag) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "the MUNGE credential is not a Basalt %s credential",
		    strcmp(tag, HELLO_TAG) == 0 ? "hello" : "reply");
		return FALSE;
	}
	out->name = payload_value(words, "name");
	out->nonce = payload_value(words, "nonce");
	role = payload_value(words, "role");
	if (role != NULL)
		out->role = (int)g_ascii_strtoll(role, NULL, 10);
	if (out->nonce == NULL || strlen(out->nonce) < 16 || out->name == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "the MUNGE credential's payload lacks a name or nonce");
		return FALSE;
	}
	/* Anyone can put anything in a payload: a name that could forge a
	 * log line never gets past here. */
	if (!printable(out->nonce) || !name_ok(out->name, err)) {
		if (err != NULL && *err == NULL)
			g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
			    "the MUNGE credential's nonce is malformed");
		return FALSE;
	}
	return TRUE;
}

gboolean
bs_auth_hello_verify(const char *socket, const guint8 *cred, gsize len,
    int role, const char *name, BsAuthCred *out, GError **err)
{
	g_autofree char *payload = decode(socket, cred, len, out, err);

	if (payload == NULL)
		return FALSE;
	if (!parse_payload(payload, HELLO_TAG, out, err))
		goto fail;
	if (name == NULL || *name == '\0')
		name = "-";
	if (out->role != role || strcmp(out->name, name) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "the MUNGE credential was made for another hello "
		    "(role %d, name %s)", out->role, out->name);
		goto fail;
	}
	return TRUE;
fail:
	bs_auth_cred_clear(out);
	return FALSE;
}

GBytes *
bs_auth_reply_credential(const char *socket, const char *nonce,
    const char *server_name, GError **err)
{
	g_autofree char *payload = NULL;

	if (nonce == NULL || !printable(nonce) || !name_ok(server_name, err)) {
		if (err != NULL && *err == NULL)
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "no nonce to answer");
		return NULL;
	}
	payload = g_strdup_printf(REPLY_TAG " nonce=%s name=%s", nonce,
	    server_name);
	return encode(socket, payload, err);
}

gboolean
bs_auth_reply_verify(const char *socket, const guint8 *cred, gsize len,
    const char *nonce, BsAuthCred *out, GError **err)
{
	g_autofree char *payload = decode(socket, cred, len, out, err);

	if (payload == NULL)
		return FALSE;
	if (!parse_payload(payload, REPLY_TAG, out, err))
		goto fail;
	if (nonce == NULL || strcmp(out->nonce, nonce) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "the MUNGE credential of the reply answers another "
		    "connection (nonce mismatch)");
		goto fail;
	}
	return TRUE;
fail:
	bs_auth_cred_clear(out);
	return FALSE;
}

/*
 * envdir/hosts: "ADDRESS NAME ALIAS..." lines, # comments.  Parsed once
 * into name -> addresses and parsed again only when the file changes: a
 * master checks it for every registration, 10,000 at its start.  One
 * cache per process, used from one thread (the daemon's main loop).
 */
typedef struct {
	char *path;
	gint64 mtime;
	goffset size;
	GHashTable *names;  /* lower-case name -> "addr addr ... " */
} HostsCache;

static HostsCache hosts_cache;

static GHashTable *
hosts_parse(const char *text)
{
	GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    g_free);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l != NULL; l++) {
		char *hash = strchr(*l, '#');
		g_auto(GStrv) w = NULL;

		if (hash != NULL)
			*hash = '\0';
		w = g_strsplit_set(g_strstrip(*l), " \t", -1);
		if (w[0] == NULL || *w[0] == '\0')
			continue;
		for (char **n = w + 1; *n != NULL; n++) {
			char *key, *old;

			if (**n == '\0')
				continue;
			key = g_ascii_strdown(*n, -1);
			old = g_hash_table_lookup(t, key);
			g_hash_table_replace(t, key, g_strconcat(old != NULL ?
			    old : " ", w[0], " ", NULL));
		}
	}
	return t;
}

/* The file's addresses of name ("addr addr " with a leading space), or
 * NULL when the file does not name the host (or does not exist). */
static const char *
hosts_file_addresses(const char *envdir, const char *name)
{
	g_autofree char *path = NULL, *text = NULL, *key = NULL;
	struct stat st;
	gint64 mtime;

	if (envdir == NULL)
		return NULL;
	path = g_build_filename(envdir, "hosts", NULL);
	if (stat(path, &st) != 0)
		return NULL;
	mtime = (gint64)st.st_mtim.tv_sec * G_GINT64_CONSTANT(1000000000) +
	    st.st_mtim.tv_nsec;
	if (hosts_cache.names == NULL ||
	    g_strcmp0(hosts_cache.path, path) != 0 ||
	    hosts_cache.mtime != mtime ||
	    hosts_cache.size != (goffset)st.st_size) {
		if (!g_file_get_contents(path, &text, NULL, NULL))
			return NULL;
		g_clear_pointer(&hosts_cache.names, g_hash_table_unref);
		g_free(hosts_cache.path);
		hosts_cache.path = g_strdup(path);
		hosts_cache.mtime = mtime;
		hosts_cache.size = (goffset)st.st_size;
		hosts_cache.names = hosts_parse(text);
	}
	key = g_ascii_strdown(name, -1);
	return g_hash_table_lookup(hosts_cache.names, key);
}

gboolean
bs_auth_host_has_address(const char *envdir, const char *name,
    const char *address)
{
	struct addrinfo hints = { .ai_family = AF_INET,
	    .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	char buf[INET_ADDRSTRLEN];
	gboolean yes = FALSE;
	const char *listed = hosts_file_addresses(envdir, name);

	if (listed != NULL) {
		g_autofree char *word = g_strconcat(" ", address, " ", NULL);

		return strstr(listed, word) != NULL;
	}
	if (getaddrinfo(name, NULL, &hints, &ai) != 0)
		return FALSE;
	for (struct addrinfo *p = ai; p != NULL && !yes; p = p->ai_next) {
		const struct sockaddr_in *in = (const void *)p->ai_addr;

		if (inet_ntop(AF_INET, &in->sin_addr, buf, sizeof buf) != NULL &&
		    strcmp(buf, address) == 0)
			yes = TRUE;
	}
	freeaddrinfo(ai);
	return yes;
}

char *
bs_auth_host_address(const char *envdir, const char *name)
{
	struct addrinfo hints = { .ai_family = AF_INET,
	    .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	char buf[INET_ADDRSTRLEN];
	const char *listed = hosts_file_addresses(envdir, name);
	char *out = NULL;

	if (listed != NULL) {
		g_auto(GStrv) w = g_strsplit_set(listed, " ", -1);

		for (char **p = w; *p != NULL; p++)
			if (**p != '\0')
				return g_strdup(*p);
		return NULL;
	}
	if (getaddrinfo(name, NULL, &hints, &ai) != 0)
		return NULL;
	if (ai != NULL && inet_ntop(AF_INET,
	    &((const struct sockaddr_in *)(const void *)ai->ai_addr)->sin_addr,
	    buf, sizeof buf) != NULL)
		out = g_strdup(buf);
	freeaddrinfo(ai);
	return out;
}
