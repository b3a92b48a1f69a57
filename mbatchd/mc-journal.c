/*
 * MultiCluster links in the journal: each time the link to another
 * cluster's master comes up or goes down, mbatchd commits an
 * EvClusterLink, so `badmin mbdhist` shows when and why.  It changes no
 * state (state/apply.c accepts it as history).  Kept apart from
 * mc-links.c so the link state machine stays free of the journal and can
 * be tested alone.
 */
#include "config.h"

#include "mbatchd/mbd.h"
#include "mbatchd/mc-links.h"
#include "util/log.h"

#define REASON_MAX 200

static void
journal_change(Manager *m, const McLink *l, void *data)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvClusterLink e = BASALT__EV_CLUSTER_LINK__INIT;
	g_autofree char *reason = NULL;
	g_autoptr(GError) err = NULL;

	(void)data;
	e.cluster = l->cluster;
	e.up = l->status == MC_LINK_OK;
	e.master = l->master != NULL && e.up ? l->master : (char *)"";
	reason = g_strndup(l->last_error != NULL ? l->last_error : "", REASON_MAX);
	e.reason = e.up ? (char *)"" : reason;
	ev.body_case = BASALT__EVENT__BODY_CLUSTER_LINK;
	ev.cluster_link = &e;
	if (!manager_commit(m, &ev, &err))
		log_warning("cluster %s: the link change is not journaled: %s",
		    l->cluster, err != NULL ? err->message : "refused");
}

void
mc_links_journal_changes(Manager *m)
{
	mc_links_on_change(m, journal_change, NULL);
}
