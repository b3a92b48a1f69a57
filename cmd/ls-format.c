/*
 * Layouts of lsclusters, lshosts, lsload, lsinfo and showconf, after LSF
 * 10.1's: the header words and column order scripts split on, values
 * right-aligned under them, "-" where a value is not known.  See
 * ls-format.h for where Basalt takes each value from.
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "cmd-util.h"
#include "ls-format.h"
#include "util/error.h"

void
ls_mem_short(GString *out, guint64 kb)
{
	if (kb == 0)
		g_string_append(out, "-");
	else if (kb < 10ULL * 1024 * 1024)
		g_string_append_printf(out, "%" G_GUINT64_FORMAT "M", kb / 1024);
	else
		g_string_append_printf(out, "%.1fG",
		    (double)kb / (1024.0 * 1024.0));
}

const char *
ls_host_status(const Basalt__HostInfo *h)
{
	if (h->status != NULL && (strncmp(h->status, "unavail", 7) == 0 ||
	    strncmp(h->status, "unreach", 7) == 0))
		return "unavail";
	return "ok";
}

static char *
mem_str(guint64 kb)
{
	GString *s = g_string_new(NULL);

	ls_mem_short(s, kb);
	return g_string_free(s, FALSE);
}

/* A name column: padded to width, or whole and one space after when -w
 * or when it does not fit (never cut: scripts match host names). */
static void
name_col(GString *out, const char *name, int width)
{
	g_string_append_printf(out, "%-*s ", width - 1, name);
}

void
ls_format_clusters_head(GString *out)
{
	g_string_append(out, "CLUSTER_NAME   STATUS   MASTER_HOST               "
	    "ADMIN    HOSTS  SERVERS\n");
}

/*
 * A remote cluster as LSF's lsclusters shows it with MultiCluster: ok
 * while this master's link to it is up, unavail otherwise; the master,
 * administrator and host counts as its last hello said ("-" and 0 before
 * any).
 */
void
ls_format_remote_cluster(GString *out, const Basalt__RemoteClusterLink *l,
    gboolean lng)
{
	const char *status = l->status == BASALT__LINK_STATUS__LINK_STATUS_OK ?
	    "ok" : "unavail";
	const char *master = l->master_host != NULL && *l->master_host != '\0' ?
	    l->master_host : "-";
	const char *admin = l->admin != NULL && *l->admin != '\0' ? l->admin : "-";

	if (lng) {
		g_string_append_printf(out, "\nCLUSTER_NAME: %s\n", l->cluster_name);
		g_string_append_printf(out, "Status: %s\n", status);
		g_string_append_printf(out, "Master_host: %s\n", master);
		g_string_append_printf(out, "Primary_admin: %s\n", admin);
		g_string_append_printf(out, "Total_hosts: %u\n", l->hosts);
		g_string_append_printf(out, "Total_servers: %u\n", l->server_hosts);
		return;
	}
	name_col(out, l->cluster_name, 15);
	g_string_append_printf(out, "%-8s ", status);
	name_col(out, master, 26);
	name_col(out, admin, 8);
	g_string_append_printf(out, "%5u %8u\n", l->hosts, l->server_hosts);
}

void
ls_format_clusters(GString *out, const Basalt__ClusterInfo *c,
    const Basalt__HostList *hl, gboolean wide, gboolean lng)
{
	const char *admin = c->n_admins > 0 ? c->admins[0] : "root";
	guint servers = 0, ok = 0;

	for (size_t i = 0; i < hl->n_hosts; i++) {
		servers++;
		if (strcmp(ls_host_status(hl->hosts[i]), "ok") == 0)
			ok++;
	}
	if (lng) {
		g_string_append_printf(out, "CLUSTER_NAME: %s\n", c->cluster_name);
		g_string_append_printf(out, "Status: ok\n");
		g_string_append_printf(out, "Master_host: %s\n", c->master_name);
		g_string_append_printf(out, "Primary_admin: %s\n", admin);
		g_string_append(out, "Cluster_admins:");
		for (size_t i = 0; i < c->n_admins; i++)
			g_string_append_printf(out, " %s", c->admins[i]);
		g_string_append_printf(out, "\nTotal_hosts: %zu\n", hl->n_hosts);
		g_string_append_printf(out, "Total_servers: %u\n", servers);
		g_string_append_printf(out, "Available_servers: %u\n", ok);
		return;
	}
	(void)wide;
	ls_format_clusters_head(out);
	name_col(out, c->cluster_name, 15);
	g_string_append_printf(out, "%-8s ", "ok");
	name_col(out, c->master_name, 26);
	name_col(out, admin, 8);
	g_string_append_printf(out, "%5zu %8u\n", hl->n_hosts, servers);
}

static const char *
or_detected(const char *s, const char *unknown)
{
	return s != NULL && *s != '\0' ? s : unknown;
}

static void
append_resources(GString *out, const Basalt__HostInfo *h)
{
	g_string_append_c(out, '(');
	for (size_t k = 0; k < h->n_resources; k++)
		g_string_append_printf(out, "%s%s", k > 0 ? " " : "",
		    h->resources[k]);
	g_string_append_c(out, ')');
}

void
ls_format_hosts(GString *out, const Basalt__HostList *hl, gboolean wide,
    gboolean lng)
{
	if (!lng)
		g_string_append(out, "HOST_NAME      type    model  cpuf ncpus "
		    "maxmem maxswp server RESOURCES\n");
	for (size_t i = 0; i < hl->n_hosts; i++) {
		const Basalt__HostInfo *h = hl->hosts[i];
		const char *type = or_detected(h->type, "UNKNOWN");
		const char *model = or_detected(h->model, "UNKNOWN");
		g_autofree char *mem = mem_str(h->mem_kb);

		if (lng) {
			g_string_append_printf(out, "%sHOST_NAME:  %s\n",
			    i > 0 ? "\n" : "", h->name);
			g_string_append(out, "type             model  cpuf ncpus "
			    "maxmem maxswp server\n");
			g_string_append_printf(out, "%-10s %11s %5.1f %5u %6s %6s "
			    "%6s\n\nRESOURCES: ", type, model, 1.0, h->ncpus, mem,
			    "-", "Yes");
			if (h->n_resources == 0)
				g_string_append(out, "Not defined");
			else
				append_resources(out, h);
			g_string_append(out, "\n");
			continue;
		}
		name_col(out, h->name, 15);
		if (wide)
			g_string_append_printf(out, "%-7s %-19s", type, model);
		else
			g_string_append_printf(out, "%-7.7s %7.7s", type, model);
		g_string_append_printf(out, " %5.1f %5u %6s %6s %6s ", 1.0,
		    h->ncpus, mem, "-", "Yes");
		append_resources(out, h);
		g_string_append_c(out, '\n');
	}
}

/* lsload's load index columns, in LSF's order, with their widths; io is
 * in the default set only with -l. */
static const struct {
	const char *name;
	int width;
} load_cols[] = {
	{ "r15s", 6 }, { "r1m", 6 }, { "r15m", 6 }, { "ut", 5 }, { "pg", 6 },
	{ "io", 6 }, { "ls", 4 }, { "it", 6 }, { "tmp", 6 }, { "swp", 6 },
	{ "mem", 6 },
};

gboolean
ls_load_index_known(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(load_cols); i++)
		if (strcmp(load_cols[i].name, name) == 0)
			return TRUE;
	return FALSE;
}

static int
load_col_width(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(load_cols); i++)
		if (strcmp(load_cols[i].name, name) == 0)
			return load_cols[i].width;
	return 6;
}

/* The value of one index of a reporting host; "-" for those sbatchd does
 * not measure. */
static char *
load_value(const Basalt__HostInfo *h, const char *name)
{
	/* Free memory is never 0 on a host that reported its load; free
	 * swap and /tmp may be, and are then shown as 0M. */
	gboolean reported = h->mem_free_kb > 0;

	if (strcmp(name, "r15s") == 0)
		return g_strdup_printf("%.1f", h->r15s);
	if (strcmp(name, "r1m") == 0)
		return g_strdup_printf("%.1f", h->r1m);
	if (strcmp(name, "r15m") == 0)
		return g_strdup_printf("%.1f", h->r15m);
	if (strcmp(name, "ut") == 0)
		return g_strdup_printf("%d%%", (int)(h->ut * 100.0 + 0.5));
	if (strcmp(name, "tmp") == 0)
		return reported && h->tmp_free_kb == 0 ? g_strdup("0M") :
		    mem_str(h->tmp_free_kb);
	if (strcmp(name, "swp") == 0)
		return reported && h->swap_free_kb == 0 ? g_strdup("0M") :
		    mem_str(h->swap_free_kb);
	if (strcmp(name, "mem") == 0)
		return mem_str(h->mem_free_kb);
	return g_strdup("-");
}

void
ls_format_load(GString *out, const Basalt__HostList *hl, gboolean wide,
    gboolean lng, char *const *indices)
{
	g_autoptr(GPtrArray) cols = g_ptr_array_new();

	(void)wide;
	/* As LSF: -l shows every index and overrides -I. */
	if (indices != NULL && indices[0] != NULL && !lng) {
		for (size_t i = 0; indices[i] != NULL; i++)
			g_ptr_array_add(cols, (gpointer)indices[i]);
	} else {
		for (gsize i = 0; i < G_N_ELEMENTS(load_cols); i++)
			if (lng || strcmp(load_cols[i].name, "io") != 0)
				g_ptr_array_add(cols, (gpointer)load_cols[i].name);
	}
	g_string_append(out, "HOST_NAME       status");
	for (guint c = 0; c < cols->len; c++)
		g_string_append_printf(out, "%*s",
		    load_col_width(cols->pdata[c]), (char *)cols->pdata[c]);
	g_string_append_c(out, '\n');
	for (size_t i = 0; i < hl->n_hosts; i++) {
		const Basalt__HostInfo *h = hl->hosts[i];
		const char *st = ls_host_status(h);
		gboolean ok = strcmp(st, "ok") == 0;

		name_col(out, h->name, 15);
		g_string_append_printf(out, "%7s", st);
		/* An unavailable host's indices are unknown. */
		for (guint c = 0; c < cols->len; c++) {
			g_autofree char *v = ok ? load_value(h, cols->pdata[c]) :
			    g_strdup("-");

			g_string_append_printf(out, "%*s",
			    load_col_width(cols->pdata[c]), v);
		}
		g_string_append_c(out, '\n');
	}
}

void
ls_format_showconf_head(GString *out, const char *who, gint64 now)
{
	time_t t = (time_t)now;
	struct tm tm;
	char date[64];

	localtime_r(&t, &tm);
	strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &tm);
	g_string_append_printf(out, "%s configuration at %s\n", who, date);
}

void
ls_format_showconf_line(GString *out, const char *key, const char *value)
{
	g_string_append_printf(out, "    %s = %s\n", key,
	    value != NULL ? value : "");
}

void
ls_format_showconf(GString *out, const char *who, gint64 now,
    const Basalt__KeyValue *const *kv, size_t n)
{
	ls_format_showconf_head(out, who, now);
	for (size_t i = 0; i < n; i++)
		ls_format_showconf_line(out, kv[i]->key, kv[i]->value);
}

typedef struct {
	const char *name;
	const char *type;
	const char *order;
	const char *desc;
} LsResource;

/* The built-in resources -R select[] and order[] evaluate in Basalt. */
static const LsResource builtin[] = {
	{ "r15s", "Numeric", "Inc", "15-second CPU run queue length" },
	{ "r1m", "Numeric", "Inc", "1-minute CPU run queue length (alias: cpu)" },
	{ "r15m", "Numeric", "Inc", "15-minute CPU run queue length" },
	{ "ut", "Numeric", "Inc", "1-minute CPU utilization (0.0 to 1.0)" },
	{ "pg", "Numeric", "Inc", "Paging rate (pages/second)" },
	{ "io", "Numeric", "Inc", "Disk IO rate (Kbytes/second)" },
	{ "ls", "Numeric", "Inc", "Number of login sessions (alias: login)" },
	{ "it", "Numeric", "Dec", "Idle time (minutes) (alias: idle)" },
	{ "tmp", "Numeric", "Dec", "Disk space in /tmp (Mbytes)" },
	{ "swp", "Numeric", "Dec", "Available swap space (Mbytes) (alias: swap)" },
	{ "mem", "Numeric", "Dec", "Available memory (Mbytes)" },
	{ "ncpus", "Numeric", "Dec", "Number of CPUs" },
	{ "ndisks", "Numeric", "Dec", "Number of local disks" },
	{ "maxmem", "Numeric", "Dec", "Maximum memory (Mbytes)" },
	{ "maxswp", "Numeric", "Dec", "Maximum swap space (Mbytes)" },
	{ "maxtmp", "Numeric", "Dec", "Maximum /tmp space (Mbytes)" },
	{ "type", "String", "N/A", "Host type" },
	{ "model", "String", "N/A", "Host model" },
	{ "hname", "String", "N/A", "Host name" },
};

static const LsResource *
find_builtin(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(builtin); i++)
		if (strcmp(builtin[i].name, name) == 0)
			return &builtin[i];
	return NULL;
}

static void
resource_line(GString *out, const LsResource *r, gboolean lng)
{
	if (lng) {
		g_string_append_printf(out, "\nRESOURCE_NAME:  %s\nDESCRIPTION: %s\n"
		    "TYPE      ORDER  INTERVAL  BUILTIN  DYNAMIC  RELEASE\n"
		    "%-9s %-6s %8d  %-7s  %-7s  %s\n", r->name, r->desc, r->type,
		    r->order, 0, "Yes", strcmp(r->type, "Numeric") == 0 &&
		    r->name[0] != 'n' && strncmp(r->name, "max", 3) != 0 ?
		    "Yes" : "No", "No");
		return;
	}
	g_string_append_printf(out, "%-13s %7s %5s   %s\n", r->name, r->type,
	    r->order, r->desc);
}

gboolean
ls_format_info(GString *out, guint sections, gboolean lng, char *const *names,
    const GPtrArray *types, const GPtrArray *models, GError **err)
{
	gboolean any_names = names != NULL && names[0] != NULL;

	for (size_t i = 0; any_names && names[i] != NULL; i++)
		if (find_builtin(names[i]) == NULL) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "%s: Resource name not found", names[i]);
			return FALSE;
		}
	if (sections & LSINFO_RES) {
		if (!lng)
			g_string_append(out, "RESOURCE_NAME   TYPE   ORDER  "
			    "DESCRIPTION\n");
		if (any_names)
			for (size_t i = 0; names[i] != NULL; i++)
				resource_line(out, find_builtin(names[i]), lng);
		else
			for (gsize i = 0; i < G_N_ELEMENTS(builtin); i++)
				resource_line(out, &builtin[i], lng);
	}
	if (sections & LSINFO_TYPES) {
		if (out->len > 0)
			g_string_append_c(out, '\n');
		g_string_append(out, "TYPE_NAME\n");
		for (guint i = 0; types != NULL && i < types->len; i++)
			g_string_append_printf(out, "%s\n",
			    (const char *)g_ptr_array_index(types, i));
	}
	if (sections & LSINFO_MODELS) {
		if (out->len > 0)
			g_string_append_c(out, '\n');
		g_string_append(out, "MODEL_NAME      CPU_FACTOR      "
		    "ARCHITECTURE\n");
		for (guint i = 0; models != NULL && i < models->len; i++)
			g_string_append_printf(out, "%-15s %10.2f      %s\n",
			    (const char *)g_ptr_array_index(models, i), 1.0,
			    (const char *)g_ptr_array_index(models, i));
	}
	return TRUE;
}
