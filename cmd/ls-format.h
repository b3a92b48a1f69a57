/*
 * The layouts of LSF's cluster information commands (lsclusters, lshosts,
 * lsload, lsinfo, lsadmin/badmin showconf), as pure functions of replies
 * and configuration so that they are tested without a cluster.  Basalt
 * has no LIM: what LSF's LIM reports comes from mbatchd's host view
 * (sbatchd heartbeats) and from lsf.shared / lsf.cluster.
 */
#ifndef BS_CMD_LS_FORMAT_H
#define BS_CMD_LS_FORMAT_H

#include <glib.h>

#include "pb.h"

/* LSF's short memory column: "2038M", "15.6G", "-" for 0 (unknown). */
void ls_mem_short(GString *out, guint64 kb);
/* LIM's view of a host's batch status: "ok" or "unavail". */
const char *ls_host_status(const Basalt__HostInfo *h);

void ls_format_clusters(GString *out, const Basalt__ClusterInfo *c,
    const Basalt__HostList *hl, gboolean wide, gboolean lng);
/* The heading line of lsclusters' default layout. */
void ls_format_clusters_head(GString *out);
/* One remote cluster of MultiCluster (after the local one). */
void ls_format_remote_cluster(GString *out, const Basalt__RemoteClusterLink *l,
    gboolean lng);
void ls_format_hosts(GString *out, const Basalt__HostList *hl,
    gboolean wide, gboolean lng);
/* indices: the load indices to show (lsload -I), NULL or empty for
 * LSF's default set; names must pass ls_load_index_known(). */
void ls_format_load(GString *out, const Basalt__HostList *hl,
    gboolean wide, gboolean lng, char *const *indices);
/* A built-in load index lsload shows (r15s ... mem). */
gboolean ls_load_index_known(const char *name);
/* "<WHO> configuration at <date>" then "    KEY = value" lines. */
void ls_format_showconf(GString *out, const char *who, gint64 now,
    const Basalt__KeyValue *const *kv, size_t n);
/* The same, a line at a time: the heading, then one per parameter. */
void ls_format_showconf_head(GString *out, const char *who, gint64 now);
void ls_format_showconf_line(GString *out, const char *key,
    const char *value);

/* lsinfo's sections; what selects them is in lsinfo.c. */
enum { LSINFO_RES = 1, LSINFO_TYPES = 2, LSINFO_MODELS = 4 };
/* The built-in resources Basalt evaluates in -R, then the site's;
 * FALSE (and err set) when a name asked for is none of them. */
gboolean ls_format_info(GString *out, guint sections, gboolean lng,
    char *const *names, const GPtrArray *types, const GPtrArray *models,
    GError **err);

#endif
