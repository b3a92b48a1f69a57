/*
 * bclusters' output (cmd/bclusters-format.c): pure functions of the
 * BatchService Clusters reply.  fit is CMD_FIT_HEAD by default, WIDE
 * with -w.
 */
#ifndef BS_CMD_BCLUSTERS_FORMAT_H
#define BS_CMD_BCLUSTERS_FORMAT_H

#include <glib.h>

#include "cmd-util.h"
#include "pb.h"

/* "[Job Forwarding Information ]" and its rows. */
void bclusters_format_forwarding(GString *out, const Basalt__ClustersReply *r,
    CmdFit fit);
/* "[Resource Lease Information ]" and its rows. */
void bclusters_format_leases(GString *out, const Basalt__ClustersReply *r,
    CmdFit fit);
/* -app: the remote clusters' application profiles. */
void bclusters_format_apps(GString *out, const Basalt__ClustersReply *r,
    CmdFit fit);
/* -l: the local cluster, each remote cluster's link, each lease. */
void bclusters_format_long(GString *out, const Basalt__ClustersReply *r);

#endif
