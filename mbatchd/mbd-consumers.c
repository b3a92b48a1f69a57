/*
 * The entitlement stage's last table kept for bconsumers, and the
 * journaling of quota-driven pending (mbd-consumers.h).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-consumers.h"

static void
fig_free(gpointer p)
{
	MbdConsumerFig *f = p;

	g_free(f->reason);
	g_free(f);
}

void
consumers_figures_free(struct MbdConsumerFigures *f)
{
	if (f == NULL)
		return;
	g_hash_table_destroy(f->figs);
	g_hash_table_destroy(f->group_slots);
	g_free(f);
}

const MbdConsumerFig *
consumers_fig(const Manager *m, const char *group, const char *path)
{
	g_autofree char *key = NULL;

	if (m->consumer_figs == NULL)
		return NULL;
	key = g_strconcat(group, "\n", path, NULL);
	return g_hash_table_lookup(m->consumer_figs->figs, key);
}

int
consumers_group_slots(const Manager *m, const char *group)
{
	gpointer v;

	if (m->consumer_figs == NULL ||
	    !g_hash_table_lookup_extended(m->consumer_figs->group_slots, group,
	    NULL, &v))
		return -1;
	return GPOINTER_TO_INT(v) - 1;
}
