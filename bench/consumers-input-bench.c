/*
 * consumers-input-bench: the configuration side of one scheduling
 * snapshot (sched_input_build, finish and free, as mbatchd's snapshot
 * builder runs them each pass) with an lsb.consumers resource plan, built
 * two ways: the consumer tables made for the snapshot alone (a preview,
 * or every pass before they were kept), and kept for the configuration
 * (SchedInputFacts.consumers, as mbatchd now passes them), so only their
 * first build pays for the resource group's host list and the plan terms.
 *
 * The configuration is written to a temporary directory and loaded by
 * lib/conf as mbatchd loads it: N hosts (--hosts, default 10,000), one
 * queue, and a plan of C consumers (--consumers, default 200) in three
 * levels (a tenth at the first level, owning the cluster's slots) over
 * one resource group of every host.  Both ways must give the same
 * tables; the program checks it.  Prints the median time per build of
 * --runs builds each (default 21).  Not part of `make check`.
 */
#include "config.h"

#include <getopt.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mbatchd/sched-input.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
put(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) err = NULL;

	if (!g_file_set_contents(path, text, -1, &err)) {
		fprintf(stderr, "consumers-input-bench: %s\n", err->message);
		exit(1);
	}
}

/* Consumer i's path: first level /cI, below it under its parent's. */
static char *
path_of(char **paths, int parent, guint i)
{
	return parent < 0 ? g_strdup_printf("/c%u", i) :
	    g_strdup_printf("%s/c%u", paths[parent], i);
}

static void
write_config(const char *dir, guint n_hosts, guint n)
{
	GString *s = g_string_new(NULL);
	char **paths = g_new0(char *, n + 1);
	int *parent = g_new(int, n);
	guint n1 = MAX(n / 10, 1), n2 = MIN(n - n1, n1 * 3);
	g_autofree char *conf = g_strdup_printf("LSF_CLUSTER_NAME=bench\n"
	    "LSF_CONFDIR=%s\nLSB_CONFDIR=%s\n", dir, dir);

	put(dir, "lsf.conf", conf);
	put(dir, "lsf.shared", "Begin Cluster\nClusterName\nbench\nEnd Cluster\n");
	g_string_append(s, "Begin Host\nHOSTNAME model type server\n");
	for (guint h = 0; h < n_hosts; h++)
		g_string_append_printf(s, "h%05u ! ! 1\n", h);
	g_string_append(s, "End Host\n");
	put(dir, "lsf.cluster.bench", s->str);
	g_string_truncate(s, 0);
	g_string_append(s, "Begin ResourceGroup\nNAME = rg1\nEnd ResourceGroup\n");
	for (guint i = 0; i < n; i++) {
		guint lvl = i < n1 ? 1 : i < n1 + n2 ? 2 : 3;

		parent[i] = lvl == 1 ? -1 : lvl == 2 ? (int)((i - n1) % n1) :
		    (int)(n1 + (i - n1 - n2) % MAX(n2, 1));
		paths[i] = path_of(paths, parent[i], i);
		g_string_append_printf(s, "Begin Consumer\nNAME = %s\nEnd Consumer\n",
		    paths[i]);
	}
	g_string_append_printf(s, "Begin Plan\nRESOURCE_GROUP = rg1\n"
	    "PLAN_SLOTS = %u\nCONSUMER OWNED RESERVED LIMIT RANK\n", n_hosts);
	for (guint i = 0; i < n; i++)
		g_string_append_printf(s, "%s %u 0 - %u\n", paths[i],
		    parent[i] < 0 ? n_hosts / n1 : 0, i % 3);
	g_string_append(s, "End Plan\n");
	put(dir, "lsb.consumers", s->str);
	g_string_printf(s, "Begin Queue\nQUEUE_NAME = normal\nCONSUMER = %s\n"
	    "End Queue\n", paths[n - 1]);
	put(dir, "lsb.queues", s->str);
	g_string_free(s, TRUE);
	g_strfreev(paths);
	g_free(parent);
}

static gboolean
host_facts(const char *name, SchedInputHost *out, void *data)
{
	(void)name;
	(void)data;
	out->up = TRUE;
	out->ncpus = 8;
	return TRUE;
}

static void
queue_facts(const char *name, SchedInputQueue *out, void *data)
{
	(void)name;
	(void)data;
	out->active = TRUE;
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A digest of the snapshot's consumer tables, to show both ways agree. */
static guint64
digest(const SchedSnapshot *s)
{
	guint64 d = 1469598103934665603ull;

#define MIX(v) (d = (d ^ (guint64)(v)) * 1099511628211ull)
	for (guint c = 0; c < s->n_consumers; c++) {
		MIX(g_str_hash(s->consumers[c].path));
		MIX(s->consumers[c].parent + 1);
	}
	for (guint g = 0; g < s->n_rgroups; g++) {
		const SchedResourceGroup *rg = &s->rgroups[g];

		for (guint i = 0; i < rg->n_hosts; i++)
			MIX(rg->hosts[i]);
		for (guint t = 0; t < rg->n_terms; t++) {
			MIX(rg->terms[t].consumer);
			MIX(rg->terms[t].owned);
			MIX(rg->terms[t].rank);
		}
	}
#undef MIX
	return d;
}

/* One build, in ms; *dg: the digest of its consumer tables. */
static double
build_once(const BsConfig *cfg, SchedConsumersInput *kept, guint64 *dg)
{
	SchedInputFacts facts = { host_facts, queue_facts, NULL, kept, NULL, 0 };
	SchedInput in;
	SchedSnapshot snap;
	double t0 = now_ms(), t;

	memset(&snap, 0, sizeof snap);
	sched_input_build(&in, cfg, &facts);
	sched_input_finish(&in, &snap);
	t = now_ms() - t0;
	*dg = digest(&snap);
	sched_input_free(&in);
	return t;
}

static double
median(double *t, guint n)
{
	qsort(t, n, sizeof *t, by_double);
	return t[n / 2];
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "hosts", required_argument, NULL, 'H' },
		{ "consumers", required_argument, NULL, 'c' },
		{ "runs", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	guint n_hosts = 10000, n = 200, runs = 21;
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = NULL;
	g_autoptr(BsDiags) diags = bs_diags_new();
	BsConfig *cfg;
	SchedConsumersInput *kept;
	double own, reuse, *t_own, *t_kept;
	guint64 d_own = 0, d_kept = 0;
	int opt;

	while ((opt = getopt_long(argc, argv, "H:c:r:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'H':
			n_hosts = (guint)MAX(1, atoi(optarg));
			break;
		case 'c':
			n = (guint)MAX(1, atoi(optarg));
			break;
		case 'r':
			runs = (guint)MAX(1, atoi(optarg));
			break;
		default:
			fprintf(stderr, "usage: consumers-input-bench [--hosts N] "
			    "[--consumers N] [--runs N]\n");
			return 2;
		}
	}
	if ((dir = g_dir_make_tmp("consumers-bench-XXXXXX", &err)) == NULL) {
		fprintf(stderr, "consumers-input-bench: %s\n", err->message);
		return 1;
	}
	write_config(dir, n_hosts, n);
	cfg = bs_config_load(dir, (gint64)time(NULL), diags);
	if (cfg == NULL) {
		for (guint i = 0; i < diags->items->len; i++) {
			const BsDiag *d = g_ptr_array_index(diags->items, i);

			fprintf(stderr, "%s:%d: %s\n", d->file, d->line, d->message);
		}
		return 1;
	}
	kept = sched_consumers_input_new();
	/* The two ways in turn, so a busy moment of the machine falls on
	 * both alike. */
	t_own = g_new(double, runs);
	t_kept = g_new(double, runs);
	for (guint r = 0; r < runs; r++) {
		t_own[r] = build_once(cfg, NULL, &d_own);
		t_kept[r] = build_once(cfg, kept, &d_kept);
	}
	own = median(t_own, runs);
	reuse = median(t_kept, runs);
	g_free(t_own);
	g_free(t_kept);
	fprintf(stderr, "  %u hosts, %u consumers: snapshot input %.2f ms with "
	    "the consumer tables built per snapshot, %.2f ms with them kept "
	    "(digests %016" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x)\n",
	    n_hosts, n, own, reuse, d_own, d_kept);
	printf("result\tsched.input_consumers_own\t%.3f\tms\n", own);
	printf("result\tsched.input_consumers_kept\t%.3f\tms\n", reuse);
	sched_consumers_input_free(kept);
	bs_config_free(cfg);
	{
		g_autoptr(GDir) dh = g_dir_open(dir, 0, NULL);
		const char *name;

		while (dh != NULL && (name = g_dir_read_name(dh)) != NULL) {
			g_autofree char *p = g_build_filename(dir, name, NULL);

			g_unlink(p);
		}
		g_rmdir(dir);
	}
	return d_own == d_kept ? 0 : 1;
}
