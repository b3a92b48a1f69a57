/*
 * Hosts that refused to start a job (item 10 of issue 14).
 *
 * When a host answers a start order with "I cannot run this job" (the
 * user has no account or another uid there, root jobs are not allowed
 * there, sbatchd could not set the job up), LSF puts the job back to PEND
 * and tries another host.  Basalt does the same: the job is requeued at
 * the head of its queue (journaled, mbd-orders.c) and the host is kept
 * off the job's candidates (SchedJob.refused_hosts; pending reason "The
 * execution host refused to run the job") until that host registers
 * again, when whatever was wrong may have been fixed.  The list is not
 * journaled: after an mbatchd restart every host is tried again once, as
 * LSF forgets its REQUEUE_EXIT_VALUES EXCLUDE hosts.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-refused.h"

void
refused_init(Manager *m)
{
	m->refused = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
	    (GDestroyNotify)g_ptr_array_unref);
}

void
refused_free(Manager *m)
{
	g_clear_pointer(&m->refused, g_hash_table_destroy);
}

void
refused_note(Manager *m, const Job *j, const char *host)
{
	GPtrArray *hosts = g_hash_table_lookup(m->refused, &j->key);
	const char *name = state_intern(m->st, host);

	if (hosts == NULL) {
		hosts = g_ptr_array_new();
		g_hash_table_insert(m->refused, g_memdup2(&j->key, sizeof j->key), hosts);
	}
	for (guint i = 0; i < hosts->len; i++)
		if (hosts->pdata[i] == name)
			return;
	g_ptr_array_add(hosts, (gpointer)name);
}

const GPtrArray *
refused_hosts(Manager *m, const Job *j)
{
	return m->refused != NULL ? g_hash_table_lookup(m->refused, &j->key) : NULL;
}

void
refused_forget_job(Manager *m, const Job *j)
{
	if (m->refused != NULL)
		g_hash_table_remove(m->refused, &j->key);
}

void
refused_forget_host(Manager *m, const char *host)
{
	GHashTableIter it;
	gpointer v;

	if (m->refused == NULL)
		return;
	g_hash_table_iter_init(&it, m->refused);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		GPtrArray *hosts = v;

		for (guint i = 0; i < hosts->len; i++)
			if (strcmp(hosts->pdata[i], host) == 0)
				g_ptr_array_remove_index_fast(hosts, i--);
		if (hosts->len == 0)
			g_hash_table_iter_remove(&it);
	}
}
