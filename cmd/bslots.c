/*
 * bslots: the slots a backfill job could use now, and for how long, in
 * LSF's layout:
 *
 *   SLOTS          RUNTIME
 *   2              UNLIMITED
 *   6              1 hour 30 minutes
 *
 * A free slot of an open host is available without limit; a slot held
 * for a pending job's reservation (SLOT_RESERVE) until that job is
 * expected to start, when mbatchd knows it.  Each row counts the slots
 * available for at least its RUNTIME.  -n keeps rows with at least that
 * many slots, -W those that last at least that long, -R only hosts that
 * satisfy the requirement (mbatchd selects them as bhosts -R does); -l
 * lists the hosts of each row.  Built from the Hosts and Jobs calls.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "cmd-main.h"
#include "cmd-util.h"

#define BSLOTS_USAGE \
	"bslots [-h] [-V] [-l] [-n slots] [-R \"res_req\"] [-W [hour:]minutes]"
#define UNLIMITED G_MAXINT64

enum { O_L, O_N_, O_R, O_W, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_N_] = { "-n", TRUE },
	[O_R] = { "-R", TRUE }, [O_W] = { "-W", TRUE },
	[O_N] = { NULL, FALSE },
};

typedef struct {
	const char *host;
	guint slots;
	gint64 runtime;        /* seconds, UNLIMITED */
} Window;

static void
add(GArray *w, const char *host, guint slots, gint64 runtime)
{
	for (guint i = 0; i < w->len; i++) {
		Window *x = &g_array_index(w, Window, i);

		if (g_strcmp0(x->host, host) == 0 && x->runtime == runtime) {
			x->slots += slots;
			return;
		}
	}
	g_array_append_val(w, ((Window){ host, slots, runtime }));
}

static gboolean
open_host(const Basalt__HostInfo *h)
{
	return g_strcmp0(h->status, "ok") == 0 ||
	    g_strcmp0(h->status, "closed_Full") == 0;
}

/* Reserved slots on hosts that -R kept, until their job's start. */
static void
reserved(GArray *w, const Basalt__JobList *jobs, GHashTable *hosts,
	 gint64 now)
{
	for (size_t i = 0; i < jobs->n_jobs; i++) {
		const Basalt__JobInfo *j = jobs->jobs[i];

		if (j->reserve_start <= now)
			continue;
		for (size_t k = 0; k < j->n_reserved_hosts; k++)
			if (g_hash_table_contains(hosts, j->reserved_hosts[k]))
				add(w, j->reserved_hosts[k], 1,
				    j->reserve_start - now);
	}
}

static void
runtime_text(GString *out, gint64 s)
{
	gint64 m = s / 60, h = m / 60;

	if (s == UNLIMITED) {
		g_string_append(out, "UNLIMITED");
		return;
	}
	m %= 60;
	if (h > 0)
		g_string_append_printf(out, "%" G_GINT64_FORMAT " hour%s ", h,
				       h == 1 ? "" : "s");
	g_string_append_printf(out, "%" G_GINT64_FORMAT " minute%s", m,
			       m == 1 ? "" : "s");
}

static gint
by_runtime_desc(gconstpointer a, gconstpointer b)
{
	gint64 x = ((const Window *)a)->runtime, y = ((const Window *)b)->runtime;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* One row per distinct runtime, longest first, with the slots that last
 * at least that long. */
static guint
rows(GString *out, GArray *w, guint min_slots, gint64 min_runtime,
     gboolean lng)
{
	guint shown = 0;

	g_array_sort(w, by_runtime_desc);
	for (guint i = 0; i < w->len; i++) {
		gint64 rt = g_array_index(w, Window, i).runtime;
		g_autoptr(GString) t = g_string_new(NULL);
		g_autoptr(GString) hosts = g_string_new(NULL);
		guint slots = 0;

		if (i + 1 < w->len && g_array_index(w, Window, i + 1).runtime == rt)
			continue;
		for (guint k = 0; k <= i; k++) {
			const Window *x = &g_array_index(w, Window, k);

			slots += x->slots;
			g_string_append_printf(hosts, " %u*%s", x->slots, x->host);
		}
		if (slots < min_slots || rt < min_runtime)
			continue;
		runtime_text(t, rt);
		if (lng)
			g_string_append_printf(out, "SLOTS: %u\n  RUNTIME: %s\n"
			    "  HOSTS:%s\n\n", slots, t->str, hosts->str);
		else
			g_string_append_printf(out, "%-14u %s\n", slots, t->str);
		shown++;
	}
	return shown;
}

static gboolean
parse_w(const char *s, gint64 *seconds)
{
	g_auto(GStrv) p = g_strsplit(s, ":", 3);
	guint64 h = 0, m;

	if (p[1] != NULL && p[2] == NULL) {
		if (!cmd_parse_uint(p[0], &h) || !cmd_parse_uint(p[1], &m))
			return FALSE;
	} else if (p[1] != NULL || !cmd_parse_uint(p[0], &m)) {
		return FALSE;
	}
	if (h > 1000000 || m > 100000000)
		return FALSE;
	*seconds = (gint64)(h * 3600 + m * 60);
	return TRUE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(Window));
	g_autoptr(GHashTable) open = g_hash_table_new(g_str_hash, g_str_equal);
	g_auto(GStrv) ops = NULL;
	Basalt__HostQuery hq = BASALT__HOST_QUERY__INIT;
	Basalt__JobQuery jq = BASALT__JOB_QUERY__INIT;
	Basalt__HostList *hl;
	Basalt__JobList *jl;
	char *all[] = { (char *)"all" };
	const char *v[O_N];
	guint64 n = 0;
	gint64 min_rt = 0;
	int code;

	if (cmd_main_hv(argc, argv, BSLOTS_USAGE, &code))
		return code;
	ops = cmd_main_opts("bslots", argc, argv, opts, v, BSLOTS_USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	if (ops[0] != NULL ||
	    (v[O_N_] != NULL && (!cmd_parse_uint(v[O_N_], &n) || n == 0 ||
	     n > G_MAXUINT)) ||
	    (v[O_W] != NULL && !parse_w(v[O_W], &min_rt))) {
		fprintf(stderr, "Usage: %s\n", BSLOTS_USAGE);
		return CMD_EXIT_FAIL;
	}
	hq.res_req = (char *)(v[O_R] != NULL ? v[O_R] : "");
	hl = (Basalt__HostList *)cmd_main_call(LSB_HOSTS, &hq.base);
	if (hl == NULL)
		return CMD_EXIT_FAIL;
	jq.users = all;
	jq.n_users = 1;
	jq.pending = TRUE;
	jq.detail = TRUE;
	jl = cmd_main_refused(NULL, hl->error) ? NULL :
	    (Basalt__JobList *)cmd_main_call(LSB_JOBS, &jq.base);
	if (jl == NULL || cmd_main_refused(NULL, jl->error)) {
		code = CMD_EXIT_FAIL;
	} else {
		for (size_t i = 0; i < hl->n_hosts; i++) {
			const Basalt__HostInfo *h = hl->hosts[i];

			if (!open_host(h))
				continue;
			g_hash_table_add(open, h->name);
			if (h->max_slots < 0 || (gint)h->njobs < h->max_slots)
				add(w, h->name, h->max_slots < 0 ? h->ncpus :
				    (guint)h->max_slots - h->njobs, UNLIMITED);
		}
		reserved(w, jl, open, (gint64)time(NULL));
		if (rows(out, w, (guint)n, min_rt, v[O_L] != NULL) == 0)
			g_string_append(out, "No backfill window exists at "
			    "this moment.\n");
		else if (v[O_L] == NULL)
			g_string_prepend(out, "SLOTS          RUNTIME\n");
		cmd_main_out(out);
	}
	if (jl != NULL)
		basalt__job_list__free_unpacked(jl, NULL);
	basalt__host_list__free_unpacked(hl, NULL);
	return code;
}
