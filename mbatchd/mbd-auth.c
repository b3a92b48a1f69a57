/*
 * Who may talk to mbatchd, and as what: the hooks mbatchd gives its RPC
 * server.
 *
 *   identity  Unix socket: SO_PEERCRED.  TCP: a MUNGE credential in the
 *             hello (LSF_AUTH=munge in lsf.conf), made for that hello's
 *             role and name; without MUNGE no TCP peer is accepted, and
 *             the cluster is the master host alone.
 *   role      CLIENT is anyone's; EXEC_HOST (and any other) needs root or
 *             a cluster administrator (lsf.cluster ClusterAdmins), on
 *             either socket; MASTER is another cluster's mbatchd, root
 *             from one of its lsf.shared Servers (mc-links.c).
 *   host      an EXEC_HOST over TCP says its name in the hello; the
 *             credential's origin (the address of the munged that made it)
 *             must be an address of that name, so a host speaks only for
 *             itself.  RegisterHost then must name the same host
 *             (mbd-hosts.c).
 *   reply     an accepted TCP peer gets a credential of ours carrying its
 *             nonce back: sbatchd and the commands check it, so whatever
 *             else listens on the master port cannot pass for mbatchd.
 */
#include "config.h"

#include <string.h>

#include "auth/auth.h"
#include "auth/peer.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mc-links.h"
#include "util/log.h"

static const char *
auth_socket(const Manager *m)
{
	return bs_auth_socket(m->cfg->lsf->values);
}

gboolean
mbd_auth_enabled(const Manager *m)
{
	return bs_auth_enabled(m->cfg->lsf->values);
}

static gboolean
authenticate(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	Manager *m = data;

	if (!mbd_auth_enabled(m)) {
		*reason = g_strdup(MBD_NO_AUTH_REASON);
		return FALSE;
	}
	return bs_auth_peer_hello(auth_socket(m), peer, cred, len, reason);
}

static gboolean
admit(const BsRpcPeer *peer, char **reason, void *data)
{
	Manager *m = data;
	char user[256];

	if (peer->role == BASALT__ROLE__ROLE_CLIENT)
		return TRUE;
	if (peer->role == BASALT__ROLE__ROLE_MASTER)
		return mc_links_admit(m, peer, reason);
	if (!peer->has_cred || !manager_is_admin(m, peer->uid)) {
		*reason = g_strdup_printf("permission denied: only root or an "
		    "LSF administrator may connect as an execution host, not "
		    "%s", peer->has_cred ? manager_user_name(m, peer->uid, user,
		    sizeof user) : "an unknown user");
		return FALSE;
	}
	if (peer->is_tcp && peer->role == BASALT__ROLE__ROLE_EXEC_HOST &&
	    (peer->auth_origin == NULL || peer->name == NULL ||
	    !bs_auth_host_has_address(m->envdir, peer->name,
	    peer->auth_origin))) {
		*reason = g_strdup_printf("permission denied: the credential "
		    "comes from %s, which is not an address of host %s",
		    peer->auth_origin != NULL && *peer->auth_origin != '\0' ?
		    peer->auth_origin : "an unknown address", peer->name);
		return FALSE;
	}
	return TRUE;
}

static GBytes *
reply_credential(const BsRpcPeer *peer, void *data)
{
	Manager *m = data;
	GError *err = NULL;
	GBytes *cred;

	cred = bs_auth_peer_reply(auth_socket(m), peer, m->cfg->cluster->name,
	    &err);
	if (err != NULL) {
		log_warning("cannot answer %s with a credential: %s",
		    peer->name != NULL ? peer->name : "a peer", err->message);
		g_error_free(err);
	}
	return cred;
}

void
mbd_auth_setup(Manager *m, BsRpcServerOptions *opts)
{
	opts->allow_unauthenticated_tcp = FALSE;
	opts->authenticate = authenticate;
	opts->admit = admit;
	opts->reply_credential = reply_credential;
	opts->auth_data = m;
	opts->no_auth_reason = MBD_NO_AUTH_REASON;
	if (mbd_auth_enabled(m))
		log_notice("MUNGE authentication on (socket %s): execution "
		    "hosts and commands may connect over TCP",
		    auth_socket(m) != NULL ? auth_socket(m) : "default");
	else
		log_notice("no MUNGE configured (LSF_AUTH=munge is not set in "
		    "lsf.conf): this is a one-host cluster; only local peers "
		    "on the Unix socket are accepted, every TCP peer is refused");
}
