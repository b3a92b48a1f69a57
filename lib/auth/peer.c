/*
 * The MUNGE hooks of a Basalt server, in terms of the RPC peer: one copy of
 * the credential check that mbatchd and sbatchd's task port both run (see
 * peer.h).
 */
#include "config.h"

#include "auth/peer.h"

void
bs_auth_peer_take(BsRpcPeer *peer, BsAuthCred *c)
{
	peer->has_cred = TRUE;
	peer->uid = c->uid;
	peer->gid = c->gid;
	peer->auth_origin = g_strdup(c->origin);
}

gboolean
bs_auth_peer_hello(const char *socket, BsRpcPeer *peer, const guint8 *cred,
    gsize len, char **reason)
{
	BsAuthCred c;
	GError *err = NULL;

	if (!bs_auth_hello_verify(socket, cred, len, peer->role, peer->name,
	    &c, &err)) {
		*reason = g_strdup(err->message);
		g_error_free(err);
		return FALSE;
	}
	bs_auth_peer_take(peer, &c);
	peer->auth_nonce = g_steal_pointer(&c.nonce);
	bs_auth_cred_clear(&c);
	return TRUE;
}

GBytes *
bs_auth_peer_reply(const char *socket, const BsRpcPeer *peer,
    const char *server_name, GError **err)
{
	if (peer->auth_nonce == NULL)
		return NULL;
	return bs_auth_reply_credential(socket, peer->auth_nonce, server_name,
	    err);
}

gboolean
bs_auth_server_verify(const char *socket, const guint8 *cred, gsize len,
    const char *nonce, const char *who, BsAuthAdminFunc is_admin, void *data,
    BsAuthCred *out, char **reason)
{
	GError *err = NULL;

	if (!bs_auth_reply_verify(socket, cred, len, nonce, out, &err)) {
		*reason = g_strdup_printf("%s: %s", who, err->message);
		g_error_free(err);
		return FALSE;
	}
	if (out->uid != 0 && !is_admin(out->uid, data)) {
		*reason = g_strdup_printf("%s: its credential is of uid %u, "
		    "neither root nor an LSF administrator", who,
		    (unsigned)out->uid);
		bs_auth_cred_clear(out);
		return FALSE;
	}
	return TRUE;
}
