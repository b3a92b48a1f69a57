/*
 * lib/api over TCP: how a command reaches mbatchd from a host without its
 * socket (a login node, inside a job on an execution host), with a MUNGE
 * credential (see remote.c).
 */
#ifndef BS_API_REMOTE_H
#define BS_API_REMOTE_H

#include <glib.h>

#include "rpc/client.h"

/* Should this command dial the master over TCP?  Only with LSF_AUTH=munge,
 * and then when LSF_SERVER_HOSTS is set or sock does not exist. */
gboolean lsb_remote_wanted(GHashTable *conf, const char *sock);

/* When the local socket is the only way: FALSE with LSB_ERROR_CONF and a
 * clear reason when lsf.conf asks for a remote master without MUNGE. */
gboolean lsb_local_possible(GHashTable *conf, const char *sock, GError **err);

/* Connect to mbatchd over TCP with a credential (opts: timeouts and
 * defer_hello; its address fields are ignored). */
BsClient *lsb_connect_remote(const char *envdir, GHashTable *conf,
    const BsClientOptions *opts, GError **err);

#endif
