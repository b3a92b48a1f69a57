/*
 * What a cluster's hello says, both ways: the checks a peer master's
 * names and profiles must pass before they are believed, and this
 * cluster's own facts (profiles, administrator, host counts) put in the
 * hello it sends, filtered by the same checks so one odd profile cannot
 * cost the link.  The link state machine is mc-links.c.
 */
#ifndef BASALT_MBATCHD_MC_HELLO_H
#define BASALT_MBATCHD_MC_HELLO_H

#include <glib.h>

#include "conf/conf.h"
#include "cluster.pb-c.h"

#define MC_MAX_APPS 1024
#define MC_MAX_NAME 64          /* profile, policy and administrator names */
#define MC_MAX_APP_DESC 512
#define MC_MAX_HOST_NAME 255

/* A non-empty name of letters, digits, '_' and '-' (and '.' if dots). */
gboolean mc_plain_name(const char *s, gsize max, gboolean dots);
/* A hello's master name, profiles and administrator: why they are
 * refused (to free), or NULL. */
char *mc_hello_fields_bad(const char *master, Basalt__RemoteApp **apps,
    size_t n, const char *admin);

/* Our profiles for a hello (names point into the configuration). */
typedef struct {
	Basalt__RemoteApp *items;
	Basalt__RemoteApp **ptrs;
	size_t n;
} McAppList;

void mc_our_apps(const BsConfig *cfg, McAppList *out);
void mc_our_apps_clear(McAppList *l);
/* Our first administrator, or "" when the peer would refuse the name. */
const char *mc_our_admin(const BsConfig *cfg);
void mc_our_hosts(const BsConfig *cfg, guint *hosts, guint *servers);

#endif
