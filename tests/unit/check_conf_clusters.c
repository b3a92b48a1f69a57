/*
 * lsf.shared's Cluster section and the peers it gives mbatchd's
 * MultiCluster links: names, Servers, every `file:line` error, the local
 * cluster's name rule, and which clusters are peers (listed, with Servers,
 * not the local one, in RemoteClusters when that section lists any).
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", NULL,
};

static const char *const cluster_file =
	"Begin ClusterAdmins\nAdministrators = root\nEnd ClusterAdmins\n";

/* Load the base configuration with this lsf.shared (and, when given, this
 * lsf.cluster.basalt); *diags gets the diagnostics. */
static BsConfig *
load_shared(const char *shared, const char *cluster, char **diags)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	BsConfig *cfg;

	conf_write(dir, "lsf.shared", shared);
	conf_write(dir, "lsf.cluster.basalt", cluster != NULL ? cluster :
	    cluster_file);
	cfg = conf_load_dir(dir, diags);
	conf_rmtree(dir);
	return cfg;
}

static char *
peer_names(const BsConfig *cfg)
{
	g_autoptr(GPtrArray) peers = bs_conf_cluster_peers(cfg->cluster);
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < peers->len; i++)
		g_string_append_printf(s, "%s%s", i > 0 ? " " : "",
		    ((const BsClusterEntry *)peers->pdata[i])->name);
	return g_string_free(s, FALSE);
}

START_TEST(test_clusters_and_servers)
{
	g_autofree char *diags = NULL, *peers = NULL;
	g_autoptr(BsConfig) cfg = load_shared("Begin Cluster\n"
	    "ClusterName  Servers\n"
	    "basalt       (hostA hostB)\n"
	    "east         (e-master e-backup.example.com)\n"
	    "west         w-master\n"
	    "lonely       -\n"
	    "End Cluster\n", NULL, &diags);
	const BsClusterEntry *e;

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_str_eq(cfg->cluster->name, "basalt");
	ck_assert_uint_eq(cfg->cluster->clusters->len, 4);
	e = bs_conf_cluster_find(cfg->cluster, "east");
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->line, 4);
	ck_assert_uint_eq(g_strv_length(e->servers), 2);
	ck_assert_str_eq(e->servers[1], "e-backup.example.com");
	ck_assert_str_eq(bs_conf_cluster_find(cfg->cluster, "west")->servers[0],
	    "w-master");
	ck_assert_ptr_null(bs_conf_cluster_find(cfg->cluster, "lonely")->servers);
	ck_assert_ptr_null(bs_conf_cluster_find(cfg->cluster, "nosuch"));
	/* The local cluster and one without Servers are no peers. */
	peers = peer_names(cfg);
	ck_assert_str_eq(peers, "east west");
	ck_assert_ptr_null(bs_conf_cluster_peer(cfg->cluster, "basalt"));
	ck_assert_ptr_null(bs_conf_cluster_peer(cfg->cluster, "lonely"));
	ck_assert_ptr_nonnull(bs_conf_cluster_peer(cfg->cluster, "west"));
}
END_TEST

/* RemoteClusters restricts the peers; the local cluster or one without
 * Servers there is a warning, one not in lsf.shared an error. */
START_TEST(test_remote_clusters_restrict)
{
	g_autofree char *diags = NULL, *peers = NULL;
	const char *shared = "Begin Cluster\n"
	    "ClusterName  Servers\n"
	    "basalt       hostA\n"
	    "east         e-master\n"
	    "west         w-master\n"
	    "lonely       -\n"
	    "End Cluster\n";
	g_autoptr(BsConfig) cfg = load_shared(shared,
	    "Begin RemoteClusters\n"
	    "CLUSTERNAME  EQUIV\n"
	    "west         Y\n"
	    "basalt       N\n"
	    "lonely       N\n"
	    "End RemoteClusters\n", &diags);
	BsConfig *bad;

	ck_assert_ptr_nonnull(cfg);
	ck_assert_str_eq(diags,
	    "lsf.cluster.basalt:4: warning: RemoteClusters: basalt is the "
	    "local cluster, ignoring\n"
	    "lsf.cluster.basalt:5: warning: RemoteClusters: cluster lonely has "
	    "no Servers in lsf.shared: it cannot be reached\n");
	peers = peer_names(cfg);
	ck_assert_str_eq(peers, "west");
	ck_assert_ptr_null(bs_conf_cluster_peer(cfg->cluster, "east"));

	g_clear_pointer(&diags, g_free);
	bad = load_shared(shared, "Begin RemoteClusters\nCLUSTERNAME\n"
	    "west\nnowhere\nEnd RemoteClusters\n", &diags);
	ck_assert_ptr_null(bad);
	ck_assert_str_eq(diags, "lsf.cluster.basalt:4: RemoteClusters: cluster "
	    "nowhere is not in lsf.shared's Cluster section\n");
}
END_TEST

typedef struct {
	const char *shared;
	const char *want;
} ErrCase;

static const ErrCase err_cases[] = {
	{ "Begin Cluster\nClusterName Servers\nbasalt hostA\nbad/name hostB\nEnd Cluster\n",
	  "lsf.shared:4: bad cluster name 'bad/name': use letters, digits, _ and - "
	  "only, at most 39 characters\n" },
	{ "Begin Cluster\nClusterName Servers\nbasalt hostA\n"
	  "a234567890123456789012345678901234567890 hostB\nEnd Cluster\n",
	  "lsf.shared:4: bad cluster name 'a234567890123456789012345678901234567890': "
	  "use letters, digits, _ and - only, at most 39 characters\n" },
	{ "Begin Cluster\nClusterName Servers\nbasalt hostA\neast e1\neast e2\nEnd Cluster\n",
	  "lsf.shared:5: cluster east listed twice (first at line 4)\n" },
	{ "Begin Cluster\nClusterName Servers\nbasalt hostA\neast (e1 e:2)\nEnd Cluster\n",
	  "lsf.shared:4: cluster east: bad server host name 'e:2'\n" },
	{ "Begin Cluster\nClusterName Servers\nbasalt hostA\neast (e1 E1)\nEnd Cluster\n",
	  "lsf.shared:4: cluster east: server E1 listed twice\n" },
	{ "Begin Cluster\nServers\nhostA\nEnd Cluster\n",
	  "lsf.shared: no ClusterName in the Cluster section\n"
	  "lsf.shared:2: Cluster section without a ClusterName column\n" },
	{ "Begin Cluster\nClusterName Servers Port\nbasalt hostA 1\nEnd Cluster\n",
	  "lsf.shared:2: warning: unknown column Port in section Cluster, ignoring\n" },
};

START_TEST(test_errors)
{
	const ErrCase *c = &err_cases[_i];
	g_autofree char *diags = NULL;
	BsConfig *cfg = load_shared(c->shared, NULL, &diags);

	ck_assert_str_eq(diags, c->want);
	ck_assert((cfg != NULL) == (strstr(c->want, ": warning: ") != NULL));
	bs_config_free(cfg);
}
END_TEST

/* LSF_CLUSTER_NAME picks the local cluster; it must be listed. */
START_TEST(test_local_cluster_named)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL, *conf = NULL, *peers = NULL;
	BsConfig *cfg;

	conf_write(dir, "lsf.shared", "Begin Cluster\nClusterName Servers\n"
	    "east e1\nbasalt hostA\nEnd Cluster\n");
	conf = g_strdup("LSF_CLUSTER_NAME=basalt\n");
	conf_write(dir, "lsf.conf", conf);
	conf_write(dir, "lsf.cluster.basalt", cluster_file);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, "");
	ck_assert_str_eq(cfg->cluster->name, "basalt");
	peers = peer_names(cfg);
	ck_assert_str_eq(peers, "east");
	bs_config_free(cfg);

	/* Without it the first cluster is the local one. */
	conf_write(dir, "lsf.conf", "LSB_MBD_PORT=7001\n");
	conf_write(dir, "lsf.cluster.east", cluster_file);
	g_clear_pointer(&diags, g_free);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, "");
	ck_assert_str_eq(cfg->cluster->name, "east");
	bs_config_free(cfg);

	conf_write(dir, "lsf.conf", "LSF_CLUSTER_NAME=north\n");
	conf_write(dir, "lsf.cluster.north", cluster_file);
	g_clear_pointer(&diags, g_free);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_ptr_null(cfg);
	ck_assert_str_eq(diags, "lsf.shared: the local cluster north "
	    "(LSF_CLUSTER_NAME in lsf.conf) is not in the Cluster section\n");
	conf_rmtree(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_clusters");
	TCase *tc = tcase_create("clusters");

	tcase_add_test(tc, test_clusters_and_servers);
	tcase_add_test(tc, test_remote_clusters_restrict);
	tcase_add_loop_test(tc, test_errors, 0, G_N_ELEMENTS(err_cases));
	tcase_add_test(tc, test_local_cluster_named);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
