/*
 * badmin mbdhist, hhist and qhist, in LSF's layout: one line per event,
 * "Tue Nov 24 22:05:32 2026: Queue <normal> closed by user or
 * administrator <admin>.", oldest first.  The events are the journal's
 * (EvReconfig, EvMbdStart, EvClusterLink, EvHostCtrl, EvQueueCtrl), read
 * as bhist reads them: directly when the caller can read the journal, else
 * through mbatchd's History RPC.  mbdhist shows mbatchd's starts
 * (EvMbdStart, journaled once the journal is replayed), its
 * reconfigurations, and the MultiCluster links to other clusters' masters
 * coming up and going down (EvClusterLink).
 *
 * -t time0,time1 keeps the events inside the interval (bhist -t's
 * syntax); -f DIR reads the journal in that directory instead of
 * $LSB_SHAREDIR/events, LSF's -f logfile_name for Basalt's journal.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "badmin-hist.h"
#include "hist-io.h"

typedef enum { KIND_MBD, KIND_HOST, KIND_QUEUE } Kind;

typedef struct {
	Kind kind;
	HistRange when;
	char **names;             /* hosts or queues asked for; NULL: all */
	GString *out;
	guint shown;
} Hist;

static gboolean
named(const Hist *h, const char *name)
{
	if (h->names == NULL || h->names[0] == NULL)
		return TRUE;
	return g_strv_contains((const char *const *)h->names, name != NULL ?
	    name : "");
}

static const char *
queue_verb(Basalt__QueueCtrl a)
{
	switch (a) {
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_OPEN: return "opened";
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_CLOSE: return "closed";
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_ACTIVATE: return "activated";
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_INACTIVATE: return "inactivated";
	default: return NULL;
	}
}

static void
stamp(GString *out, gint64 t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[64];

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm) == 0)
		g_strlcpy(buf, "-", sizeof buf);
	g_string_append_printf(out, "%s: ", buf);
}

static void
comment(GString *out, const char *c)
{
	if (c != NULL && *c != '\0')
		g_string_append_printf(out, " Comment: %s", c);
}

static const char *const lease_status[] = { "ok", "inactive", "disconnected" };

static int
lease_slots(Basalt__EvLeaseHost **hosts, size_t n, gboolean consumer)
{
	int sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += (int)(consumer ? hosts[i]->consumer_slots :
		    hosts[i]->slots - hosts[i]->consumer_slots);
	return sum;
}

/* MultiCluster lease changes (mbatchd/mc-lease.c): made, slots moved by
 * an evaluation, status.  Checkpoint copies (time 0) are not changes. */
static gboolean
lease_event(GString *o, const Basalt__Event *ev)
{
	if (ev->body_case == BASALT__EVENT__BODY_LEASE_NEW) {
		const Basalt__EvLeaseNew *n = ev->lease_new;

		stamp(o, ev->time);
		g_string_append_printf(o, "Lease <%s> of cluster <%s> to cluster <%s> "
		    "(%s): provider %d slots, consumer %d; generation %" G_GUINT64_FORMAT ".",
		    n->policy, n->provider, n->consumer, n->shared ? "shared" : "exclusive",
		    lease_slots(n->hosts, n->n_hosts, FALSE),
		    lease_slots(n->hosts, n->n_hosts, TRUE), n->generation);
	} else if (ev->body_case == BASALT__EVENT__BODY_LEASE_SPLIT &&
	    ev->lease_split->n_hosts > 0) {
		const Basalt__EvLeaseSplit *s = ev->lease_split;

		stamp(o, ev->time);
		g_string_append_printf(o, "Lease <%s> to cluster <%s>: slots moved, provider %d, "
		    "consumer %d (idle slots: provider %d, consumer %d); generation %"
		    G_GUINT64_FORMAT ".", s->policy, s->consumer,
		    lease_slots(s->hosts, s->n_hosts, FALSE),
		    lease_slots(s->hosts, s->n_hosts, TRUE), s->idle_provider,
		    s->idle_consumer, s->generation);
	} else if (ev->body_case == BASALT__EVENT__BODY_LEASE_STATUS) {
		const Basalt__EvLeaseStatus *s = ev->lease_status;

		stamp(o, ev->time);
		if (s->ended)
			g_string_append_printf(o, "Lease <%s> to cluster <%s> ended.",
			    s->policy, s->consumer);
		else
			g_string_append_printf(o, "Lease <%s> to cluster <%s> is %s%s.",
			    s->policy, s->consumer, s->status < G_N_ELEMENTS(lease_status) ?
			    lease_status[s->status] : "?", s->made ? ", made" : "");
	} else {
		return FALSE;
	}
	return TRUE;
}

static void
one_event(Basalt__Event *ev, gpointer data)
{
	Hist *h = data;
	GString *o = h->out;

	if (h->when.set && (ev->time < h->when.from || ev->time > h->when.to))
		return;
	if (h->kind == KIND_QUEUE &&
	    ev->body_case == BASALT__EVENT__BODY_QUEUE_CTRL) {
		const Basalt__EvQueueCtrl *q = ev->queue_ctrl;
		const char *verb = queue_verb(q->action);

		if (verb == NULL || !named(h, q->queue))
			return;
		stamp(o, ev->time);
		g_string_append_printf(o, "Queue <%s> %s by user or administrator "
		    "<%s>.", q->queue, verb, q->user);
		comment(o, q->comment);
	} else if (h->kind == KIND_HOST &&
	    ev->body_case == BASALT__EVENT__BODY_HOST_CTRL) {
		const Basalt__EvHostCtrl *c = ev->host_ctrl;

		if (!named(h, c->host))
			return;
		stamp(o, ev->time);
		g_string_append_printf(o, "Host <%s> %s by administrator <%s>.",
		    c->host, c->close ? "closed" : "opened", c->user);
		comment(o, c->comment);
	} else if (h->kind == KIND_MBD &&
	    ev->body_case == BASALT__EVENT__BODY_RECONFIG) {
		stamp(o, ev->time);
		g_string_append_printf(o, "mbatchd reconfigured by user or "
		    "administrator <%s>; %u queues.", ev->reconfig->user,
		    ev->reconfig->queues);
	} else if (h->kind == KIND_MBD &&
	    ev->body_case == BASALT__EVENT__BODY_MBD_START) {
		stamp(o, ev->time);
		g_string_append_printf(o, "mbatchd started on host <%s>.",
		    ev->mbd_start->host != NULL ? ev->mbd_start->host : "");
	} else if (h->kind == KIND_MBD &&
	    ev->body_case == BASALT__EVENT__BODY_CLUSTER_LINK) {
		const Basalt__EvClusterLink *c = ev->cluster_link;

		stamp(o, ev->time);
		if (c->up)
			g_string_append_printf(o, "Link to cluster <%s> is ok; "
			    "its master is <%s>.", c->cluster, c->master);
		else
			g_string_append_printf(o, "Link to cluster <%s> is down: "
			    "%s.", c->cluster, c->reason);
	} else if (h->kind == KIND_MBD && ev->time > 0 && lease_event(o, ev)) {
		/* written by lease_event */
	} else {
		return;
	}
	g_string_append_c(o, '\n');
	h->shown++;
}

static int
hist_usage(const char *sub)
{
	fprintf(stderr, "Usage: badmin %s [-t time0,time1] [-f journal_dir]%s\n",
	    sub, strcmp(sub, "hhist") == 0 ? " [host_name ...]" :
	    strcmp(sub, "qhist") == 0 ? " [queue_name ...]" : "");
	return CMD_EXIT_FAIL;
}

int
badmin_hist_main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *warning = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	const char *sub = argv[1];
	Hist h = { 0 };
	int i;

	h.kind = strcmp(sub, "hhist") == 0 ? KIND_HOST :
	    strcmp(sub, "qhist") == 0 ? KIND_QUEUE : KIND_MBD;
	h.out = out;
	for (i = 2; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
			if (!hist_parse_range(argv[++i], g_get_real_time() /
			    G_USEC_PER_SEC, &h.when, &err))
				return cmd_main_fail(err);
		} else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc) {
			g_free(dir);
			dir = g_strdup(argv[++i]);
			if (access(dir, R_OK | X_OK) != 0) {
				fprintf(stderr, "%s: %s\n", dir, g_strerror(errno));
				return CMD_EXIT_FAIL;
			}
		} else {
			return hist_usage(sub);
		}
	}
	if (h.kind == KIND_MBD && i < argc)
		return hist_usage(sub);
	h.names = i < argc ? argv + i : NULL;
	if (dir == NULL && (dir = hist_journal_dir(&err)) == NULL)
		return cmd_main_fail(err);
	if (!hist_each_event(dir, 0, one_event, &h, &warning, &err))
		return cmd_main_fail(err);
	if (warning != NULL)
		fprintf(stderr, "%s\n", warning);
	if (h.shown == 0) {
		fprintf(stderr, "No matching event found\n");
		return CMD_EXIT_FAIL;
	}
	cmd_main_out(out);
	return CMD_EXIT_OK;
}
