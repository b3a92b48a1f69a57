/*
 * lib/auth: MUNGE credentials for Basalt's links, and who a credential
 * stands for.
 *
 * MUNGE (munged on every host, one shared key) vouches for the uid and gid
 * of the process that asked for a credential and for the address of the
 * host whose munged made it; it refuses a credential that expired or that
 * was decoded before (replay).  What it does not do is bind a credential to
 * a connection, so the payload carries what the credential is for:
 *
 *   hello:  "basalt-hello role=N name=NAME nonce=HEX"
 *           the dialer's role and name as its Hello says them, and a fresh
 *           random nonce;
 *   reply:  "basalt-reply nonce=HEX name=NAME"
 *           the server's answer, carrying the dialer's nonce back, so a
 *           recorded reply cannot be played to another connection.
 *
 * Every function talks to munged over its Unix socket (LSF_MUNGE_SOCKET
 * in lsf.conf, NULL for munge's own default) and blocks for that round
 * trip, a fraction of a millisecond on a healthy host.
 */
#ifndef BS_AUTH_AUTH_H
#define BS_AUTH_AUTH_H

#include <sys/types.h>

#include <glib.h>

/* What a decoded credential says. */
typedef struct {
	uid_t uid;
	gid_t gid;
	char origin[16];        /* dotted IPv4 address of the encoding host */
	int role;               /* hello: the role it was made for */
	char *name;             /* hello: the claimed name; reply: the server's */
	char *nonce;            /* hex */
} BsAuthCred;

void bs_auth_cred_clear(BsAuthCred *c);

/* lsf.conf: LSF_AUTH=munge switches MUNGE on; LSF_MUNGE_SOCKET names the
 * socket.  Both from a KEY -> value table (lsf.conf as read). */
gboolean bs_auth_enabled(GHashTable *lsf_conf);
const char *bs_auth_socket(GHashTable *lsf_conf);

/* A fresh random nonce, 32 hex digits.  g_free() it. */
char *bs_auth_nonce(void);

/*
 * Hello credential for this process: role and name as the Hello says them,
 * and a new nonce (returned in *nonce, g_free it).  The credential is the
 * NUL-terminated MUNGE text, without the NUL.
 */
GBytes *bs_auth_hello_credential(const char *socket, int role,
    const char *name, char **nonce, GError **err);
/*
 * Decode a hello credential and check that it was made for this role and
 * name.  Fills *out (clear it with bs_auth_cred_clear) on success.
 */
gboolean bs_auth_hello_verify(const char *socket, const guint8 *cred,
    gsize len, int role, const char *name, BsAuthCred *out, GError **err);

/* The server's reply credential carrying the dialer's nonce. */
GBytes *bs_auth_reply_credential(const char *socket, const char *nonce,
    const char *server_name, GError **err);
/* Decode a reply credential and check it carries our nonce. */
gboolean bs_auth_reply_verify(const char *socket, const guint8 *cred,
    gsize len, const char *nonce, BsAuthCred *out, GError **err);

/*
 * Is address (dotted IPv4) one of host name's addresses?  Looks first in
 * envdir/hosts (LSF's own hosts file: "ADDRESS NAME ALIAS..." lines, so
 * virtual hosts can share 127.0.0.1 without /etc/hosts), then asks the
 * resolver.  envdir may be NULL.
 */
gboolean bs_auth_host_has_address(const char *envdir, const char *name,
    const char *address);
/* The first address of host name, looked up the same way (envdir/hosts,
 * then the resolver), dotted IPv4; NULL if it has none.  g_free() it. */
char *bs_auth_host_address(const char *envdir, const char *name);

#endif
