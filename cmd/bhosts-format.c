/*
 * bhosts output (see bqueues-format.h):
 *
 *   HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV
 *   hostA              ok              -      8      2      2      0      0      0
 *
 * name in 18 (cut with a '*' unless -w) and a blank, STATUS in 12, JL/U
 * in 5, then six counters in 7.  The short listing folds closed_Adm,
 * closed_Full, ... into "closed" as LSF does; -l shows the detail.
 */
#include "config.h"

#include "bqueues-format.h"
#include "cmd-util.h"

static void
limit_cell(GString *out, gint64 v, guint width)
{
	g_autoptr(GString) s = g_string_new(NULL);

	cmd_limit(s, v);
	cmd_cell(out, s->str, width, CMD_FIT_WIDE, TRUE);
}

/* JL/U in 5 (6 in -l), MAX and the counters in 7. */
static void
host_counters(GString *out, const Basalt__HostInfo *h, guint jlu_width)
{
	/* JL/U 0 is not a usable limit: the host does not set one. */
	limit_cell(out, h->jl_u > 0 ? h->jl_u : -1, jlu_width);
	limit_cell(out, h->max_slots, 7);
	g_string_append_printf(out, "%7u%7u%7u%7u%7u\n", h->njobs, h->run,
			       h->ssusp, h->ususp, h->rsv);
}

void
bhosts_format_table(GString *out, const Basalt__HostList *l, gboolean wide)
{
	g_string_append(out, "HOST_NAME          STATUS       JL/U    MAX  "
			"NJOBS    RUN  SSUSP  USUSP    RSV\n");
	for (size_t i = 0; i < l->n_hosts; i++) {
		const Basalt__HostInfo *h = l->hosts[i];
		const char *st = g_str_has_prefix(h->status, "closed") ? "closed"
								     : h->status;

		cmd_cell(out, h->name, 18, wide ? CMD_FIT_WIDE : CMD_FIT_HEAD,
			 FALSE);
		g_string_append_c(out, ' ');
		cmd_cell(out, st, 12, CMD_FIT_WIDE, FALSE);
		host_counters(out, h, 5);
	}
}

/* Memory as the load tables show it: "512M", "15.6G". */
static void
load_mem(GString *out, guint64 kb)
{
	g_autoptr(GString) s = g_string_new(NULL);

	if (kb >= 1024 * 1024)
		g_string_append_printf(s, "%.1fG", (double)kb / (1024.0 * 1024.0));
	else
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "M", kb / 1024);
	cmd_cell(out, s->str, 8, CMD_FIT_WIDE, TRUE);
}

static void
long_host(GString *out, const Basalt__HostInfo *h)
{
	g_string_append_printf(out, "HOST  %s\n", h->name);
	if (h->remote)
		g_string_append_printf(out, "LEASED FROM CLUSTER %s, LEASE %s\n", h->cluster,
		    h->lease);
	g_string_append(out, "STATUS           JL/U    MAX  NJOBS    RUN  "
			"SSUSP  USUSP    RSV\n");
	cmd_cell(out, h->status, 15, CMD_FIT_WIDE, FALSE);
	host_counters(out, h, 6);
	g_string_append(out, "\n CURRENT LOAD USED FOR SCHEDULING:\n"
			"               r15s   r1m  r15m     mem  ncpus\n");
	g_string_append_printf(out, " Total        %6.1f%6.1f%6.1f", h->r15s,
			       h->r1m, h->r15m);
	load_mem(out, h->mem_kb);
	g_string_append_printf(out, "%7u\n", h->ncpus);
}

void
bhosts_format_long(GString *out, const Basalt__HostList *l)
{
	for (size_t i = 0; i < l->n_hosts; i++) {
		if (i > 0)
			g_string_append_c(out, '\n');
		long_host(out, l->hosts[i]);
	}
}
