/*
 * Commands from any host: mbatchd over TCP, authenticated by MUNGE.
 *
 * Which hosts: LSF_SERVER_HOSTS (LSF's list for client hosts), tried in
 * order, else the first of LSF_MASTER_LIST.  Which port: LSB_MBD_PORT
 * (default 6881; 0 means the port mbatchd wrote to $LSB_SHAREDIR/
 * mbatchd.port, for a shared directory).
 *
 * The hello carries a credential of the user running the command; mbatchd
 * takes the user from it and from nothing the messages say.  The answer
 * must carry a credential of root or of the primary LSF administrator (the
 * owner of lsf.conf, as in LSF) with our nonce, or the command talks to
 * nobody: a submission with its environment never goes to a stranger.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "api/api.h"
#include "api/remote.h"
#include "auth/auth.h"
#include "rpc.pb-c.h"
#include "util/error.h"

#define MBD_PORT_DEFAULT 6881

gboolean
lsb_remote_wanted(GHashTable *conf, const char *sock)
{
	const char *servers = g_hash_table_lookup(conf, "LSF_SERVER_HOSTS");

	if (!bs_auth_enabled(conf))
		return FALSE;
	return (servers != NULL && *servers != '\0') ||
	    !g_file_test(sock, G_FILE_TEST_EXISTS);
}

gboolean
lsb_local_possible(GHashTable *conf, const char *sock, GError **err)
{
	const char *servers = g_hash_table_lookup(conf, "LSF_SERVER_HOSTS");

	if (servers == NULL || *servers == '\0')
		return TRUE;
	g_set_error(err, LSB_ERROR, LSB_ERROR_CONF, "LSF_SERVER_HOSTS is set "
	    "in lsf.conf but LSF_AUTH=munge is not: commands reach mbatchd on "
	    "another host only with MUNGE");
	return FALSE;
}

typedef struct {
	const char *socket;
	char *nonce;
	uid_t admin_uid;
} Verify;

static gboolean
verify_master(const guint8 *cred, gsize len, char **reason, void *data)
{
	Verify *v = data;
	BsAuthCred c;
	GError *err = NULL;
	gboolean ok;

	if (!bs_auth_reply_verify(v->socket, cred, len, v->nonce, &c, &err)) {
		*reason = g_strdup(err->message);
		g_error_free(err);
		return FALSE;
	}
	ok = c.uid == 0 || c.uid == v->admin_uid;
	if (!ok)
		*reason = g_strdup_printf("its credential is of uid %u, neither "
		    "root nor the LSF administrator", (unsigned)c.uid);
	bs_auth_cred_clear(&c);
	return ok;
}

static guint16
mbd_port(const char *envdir, GHashTable *conf)
{
	const char *v = g_hash_table_lookup(conf, "LSB_MBD_PORT");
	g_autofree char *share = NULL, *path = NULL, *text = NULL;
	guint64 n;

	if (v == NULL || *v == '\0')
		return MBD_PORT_DEFAULT;
	if (!g_ascii_string_to_unsigned(v, 10, 0, 65535, &n, NULL))
		return MBD_PORT_DEFAULT;
	if (n != 0)
		return (guint16)n;
	share = lsb_conf_path(conf, envdir, "LSB_SHAREDIR");
	if (share == NULL)
		share = g_build_filename(envdir, "work", NULL);
	path = g_build_filename(share, "mbatchd.port", NULL);
	if (!g_file_get_contents(path, &text, NULL, NULL) ||
	    !g_ascii_string_to_unsigned(g_strstrip(text), 10, 1, 65535, &n,
	    NULL))
		return 0;
	return (guint16)n;
}

static char **
server_hosts(GHashTable *conf)
{
	const char *v = g_hash_table_lookup(conf, "LSF_SERVER_HOSTS");
	g_auto(GStrv) words = NULL;
	GPtrArray *out = g_ptr_array_new();

	if (v == NULL || *v == '\0')
		v = g_hash_table_lookup(conf, "LSF_MASTER_LIST");
	if (v != NULL) {
		words = g_strsplit_set(v, " \t,", -1);
		for (char **w = words; *w != NULL; w++)
			if (**w != '\0')
				g_ptr_array_add(out, g_strdup(*w));
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

/* One host: a fresh credential each time (munged refuses a replay). */
static BsClient *
connect_one(const char *host, guint16 port, GHashTable *conf, Verify *v,
    const BsClientOptions *base, GError **err)
{
	BsClientOptions opts = *base;
	GBytes *cred;
	BsClient *c;

	g_clear_pointer(&v->nonce, g_free);
	cred = bs_auth_hello_credential(v->socket, BASALT__ROLE__ROLE_CLIENT,
	    g_get_user_name(), &v->nonce, err);
	if (cred == NULL)
		return NULL;
	opts.unix_path = NULL;
	opts.host = host;
	opts.port = port;
	opts.role = BASALT__ROLE__ROLE_CLIENT;
	opts.name = g_get_user_name();
	opts.credential = g_bytes_get_data(cred, &opts.credential_len);
	opts.verify_reply = verify_master;
	opts.verify_data = v;
	/* The reply's credential is checked before any call goes out. */
	opts.defer_hello = FALSE;
	c = bs_client_connect(&opts, err);
	g_bytes_unref(cred);
	return c;
}

BsClient *
lsb_connect_remote(const char *envdir, GHashTable *conf,
    const BsClientOptions *base, GError **err)
{
	static Verify v;
	g_auto(GStrv) hosts = server_hosts(conf);
	g_autofree char *conf_path = g_build_filename(envdir, "lsf.conf", NULL);
	guint16 port = mbd_port(envdir, conf);
	struct stat st;
	BsClient *c = NULL;

	v.socket = bs_auth_socket(conf);
	v.admin_uid = stat(conf_path, &st) == 0 ? st.st_uid : 0;
	if (hosts[0] == NULL || port == 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG, "no local mbatchd "
		    "socket and no master to dial: set LSF_SERVER_HOSTS or "
		    "LSF_MASTER_LIST%s in lsf.conf", port == 0 ?
		    " and a non-zero LSB_MBD_PORT" : "");
		return NULL;
	}
	for (char **h = hosts; *h != NULL && c == NULL; h++) {
		g_clear_error(err);
		c = connect_one(*h, port, conf, &v, base, err);
		/* A refusal is an answer; only unreachable hosts are skipped. */
		if (c == NULL && err != NULL && *err != NULL &&
		    (*err)->code != BS_ERROR_IO)
			break;
	}
	return c;
}
