/*
 * lib/auth/peer.h: the MUNGE hooks a Basalt server shares, in terms of the
 * RPC peer they fill.  mbatchd's port and sbatchd's task port accept a hello
 * credential and answer with a reply credential the same way; writing that
 * once keeps the security check in one place.  Only BsRpcPeer's fields are
 * used (no lib/rpc function), so lib/auth still links without lib/rpc.
 */
#ifndef BS_AUTH_PEER_H
#define BS_AUTH_PEER_H

#include <glib.h>

#include "auth/auth.h"
#include "rpc/rpc.h"

/*
 * Record what a verified credential vouches for in *peer (uid, gid, the
 * origin address).  *c stays the caller's to clear.
 */
void bs_auth_peer_take(BsRpcPeer *peer, BsAuthCred *c);

/*
 * The server-side authenticator: decode a hello credential made for the
 * peer's role and name, fill *peer (with the nonce a reply must carry).
 * FALSE with *reason (g_malloc'd) refuses the peer.
 */
gboolean bs_auth_peer_hello(const char *socket, BsRpcPeer *peer,
    const guint8 *cred, gsize len, char **reason);

/*
 * The reply credential for an accepted peer: NULL without an error when
 * the peer sent no nonce (it is not MUNGE-authenticated), NULL with *err
 * when munged failed.
 */
GBytes *bs_auth_peer_reply(const char *socket, const BsRpcPeer *peer,
    const char *server_name, GError **err);

/* Does uid count as a cluster administrator?  (Root always does.) */
typedef gboolean (*BsAuthAdminFunc)(uid_t uid, void *data);

/*
 * A dialer's check that the server it reached is Basalt's daemon: the
 * reply credential was decoded by munged, carries this dial's nonce, and
 * was made by root or by a uid is_admin accepts.  FALSE with *reason
 * (g_malloc'd, "WHO: why") refuses the server; on success *out is filled
 * (clear it with bs_auth_cred_clear).
 */
gboolean bs_auth_server_verify(const char *socket, const guint8 *cred,
    gsize len, const char *nonce, const char *who, BsAuthAdminFunc is_admin,
    void *data, BsAuthCred *out, char **reason);

#endif
