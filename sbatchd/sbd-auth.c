/*
 * sbatchd's side of MUNGE: the credential it dials mbatchd with, and the
 * check that whatever answered on the master port is mbatchd.
 *
 * sbatchd runs as root and runs what the master orders as any user, so the
 * master is checked before a single order is served: its HelloReply must
 * carry a credential of root or of a cluster administrator (lsf.cluster
 * ClusterAdmins), decoded by our munged (so unexpired and never seen
 * before), answering the nonce of this very dial.  A user who listens on
 * the master port while mbatchd is down has none of that; the link is
 * dropped with the reason in the log, and the dial is tried again later.
 */
#include "config.h"

#include <pwd.h>
#include <string.h>

#include "auth/auth.h"
#include "auth/peer.h"
#include "sbd.h"

static char *dial_nonce;    /* the nonce of the dial in progress */

gboolean
sbd_auth_enabled(const Sbd *sbd)
{
	return bs_auth_enabled(sbd->cfg->lsf->values);
}

static gboolean
is_admin(uid_t uid, void *data)
{
	const Sbd *sbd = data;
	char **admins = sbd->cfg->cluster != NULL ? sbd->cfg->cluster->admins :
	    NULL;
	struct passwd pw, *res = NULL;
	char buf[1024];

	if (getpwuid_r(uid, &pw, buf, sizeof buf, &res) != 0 || res == NULL)
		return FALSE;
	for (guint i = 0; admins != NULL && admins[i] != NULL; i++)
		if (strcmp(admins[i], pw.pw_name) == 0)
			return TRUE;
	return FALSE;
}

static gboolean
verify_master(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	Sbd *sbd = data;
	BsAuthCred c;

	if (!bs_auth_server_verify(bs_auth_socket(sbd->cfg->lsf->values), cred,
	    len, dial_nonce, "not accepted as the master", is_admin, sbd, &c,
	    reason))
		return FALSE;
	bs_auth_peer_take(peer, &c);
	bs_auth_cred_clear(&c);
	return TRUE;
}

GBytes *
sbd_auth_dial(Sbd *sbd, BsRpcDialOptions *opts, GError **err)
{
	GBytes *cred;

	g_clear_pointer(&dial_nonce, g_free);
	cred = bs_auth_hello_credential(bs_auth_socket(sbd->cfg->lsf->values),
	    opts->role, opts->name, &dial_nonce, err);
	if (cred == NULL)
		return NULL;
	opts->credential = g_bytes_get_data(cred, &opts->credential_len);
	opts->verify_reply = verify_master;
	opts->verify_data = sbd;
	return cred;
}
