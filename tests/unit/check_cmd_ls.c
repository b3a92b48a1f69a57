/*
 * The cluster information layouts (cmd/ls-format.c): the header words and
 * column positions scripts split on, LSF's short memory form, showconf's
 * " = " lines, and lsinfo's refusal of an unknown resource.
 */
#include "config.h"

#include <string.h>

#include "ls-format.h"
#include "tap.h"

START_TEST(test_mem_short)
{
	g_autoptr(GString) s = g_string_new(NULL);

	ls_mem_short(s, 0);
	ck_assert_str_eq(s->str, "-");
	g_string_truncate(s, 0);
	ls_mem_short(s, 2038 * 1024);
	ck_assert_str_eq(s->str, "2038M");
	g_string_truncate(s, 0);
	ls_mem_short(s, (guint64)(15.6 * 1024 * 1024));
	ck_assert_str_eq(s->str, "15.6G");
}
END_TEST

static Basalt__HostInfo *
host(const char *name, const char *status, guint64 mem_free)
{
	Basalt__HostInfo *h = g_new(Basalt__HostInfo, 1);

	basalt__host_info__init(h);
	h->name = (char *)name;
	h->status = (char *)status;
	h->ncpus = 8;
	h->mem_kb = 16 * 1024 * 1024;
	h->mem_free_kb = mem_free;
	h->swap_free_kb = 0;
	h->tmp_free_kb = 512 * 1024;
	h->ut = 0.25;
	h->r1m = 1.5;
	return h;
}

START_TEST(test_hosts_and_load)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__HostInfo *hs[2] = { host("hostA", "ok", 4096 * 1024),
	    host("hostB", "unavail", 0) };
	Basalt__HostList hl = BASALT__HOST_LIST__INIT;
	char *res[] = { "bigmem", "gpu", NULL };
	g_auto(GStrv) lines = NULL;

	hs[0]->model = "PC6000";
	hs[0]->type = "LINUX64";
	hs[0]->resources = res;
	hs[0]->n_resources = 2;
	hl.hosts = hs;
	hl.n_hosts = 2;
	ls_format_hosts(s, &hl, FALSE, FALSE);
	lines = g_strsplit(s->str, "\n", -1);
	ck_assert_str_eq(lines[0], "HOST_NAME      type    model  cpuf ncpus "
	    "maxmem maxswp server RESOURCES");
	ck_assert(strstr(lines[1], "hostA ") == lines[1]);
	ck_assert(strstr(lines[1], " LINUX64  PC6000   1.0     8  16.0G      -"
	    "    Yes (bigmem gpu)") != NULL);
	ck_assert(strstr(lines[2], " UNKNOWN UNKNOWN ") != NULL);

	g_string_truncate(s, 0);
	ls_format_load(s, &hl, FALSE, FALSE, NULL);
	g_strfreev(lines);
	lines = g_strsplit(s->str, "\n", -1);
	ck_assert_str_eq(lines[0], "HOST_NAME       status  r15s   r1m  r15m   "
	    "ut    pg  ls    it   tmp   swp   mem");
	/* Free swap 0 on a reporting host is 0M, not unknown. */
	ck_assert(strstr(lines[1], "     ok   0.0   1.5   0.0  25%     -   -"
	    "     -  512M    0M 4096M") != NULL);
	ck_assert(strstr(lines[2], "unavail     -") != NULL);

	/* -I mem:ut: those columns alone, in that order; -l overrides it. */
	char *idx[] = { "mem", "ut", NULL };
	g_string_truncate(s, 0);
	ls_format_load(s, &hl, FALSE, FALSE, idx);
	g_strfreev(lines);
	lines = g_strsplit(s->str, "\n", -1);
	ck_assert_str_eq(lines[0], "HOST_NAME       status   mem   ut");
	ck_assert_str_eq(lines[1], "hostA               ok 4096M  25%");
	ck_assert_str_eq(lines[2], "hostB          unavail     -    -");
	g_string_truncate(s, 0);
	ls_format_load(s, &hl, FALSE, TRUE, idx);
	ck_assert(g_str_has_prefix(s->str, "HOST_NAME       status  r15s   r1m  r15m"
	    "   ut    pg    io  ls    it   tmp   swp   mem\n"));
	ck_assert(ls_load_index_known("r15s"));
	ck_assert(ls_load_index_known("io"));
	ck_assert(!ls_load_index_known("nosuch"));
	g_free(hs[0]);
	g_free(hs[1]);
}
END_TEST

START_TEST(test_showconf)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__KeyValue a = BASALT__KEY_VALUE__INIT, b = BASALT__KEY_VALUE__INIT;
	const Basalt__KeyValue *kv[2] = { &a, &b };

	a.key = "LSB_SHAREDIR";
	a.value = "/var/lib/basalt";
	b.key = "LSF_UNIT_FOR_LIMITS";
	b.value = "MB";
	ls_format_showconf(s, "MBD", 0, kv, 2);
	ck_assert(g_str_has_prefix(s->str, "MBD configuration at "));
	ck_assert(strstr(s->str, "\n    LSB_SHAREDIR = /var/lib/basalt\n"
	    "    LSF_UNIT_FOR_LIMITS = MB\n") != NULL);
}
END_TEST

START_TEST(test_info)
{
	g_autoptr(GString) s = g_string_new(NULL);
	g_autoptr(GError) err = NULL;
	char *mem[] = { "mem", NULL };
	char *bad[] = { "nosuch", NULL };

	ck_assert(ls_format_info(s, LSINFO_RES, FALSE, mem, NULL, NULL, &err));
	ck_assert_str_eq(s->str, "RESOURCE_NAME   TYPE   ORDER  DESCRIPTION\n"
	    "mem           Numeric   Dec   Available memory (Mbytes)\n");
	ck_assert(!ls_format_info(s, LSINFO_RES, FALSE, bad, NULL, NULL, &err));
	ck_assert_str_eq(err->message, "nosuch: Resource name not found");
}
END_TEST

/* MultiCluster: a remote cluster's line under the same columns, ok or
 * unavail with the link, "-" before its first hello. */
START_TEST(test_remote_cluster)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__RemoteClusterLink l = BASALT__REMOTE_CLUSTER_LINK__INIT;

	ls_format_clusters_head(s);
	l.cluster_name = (char *)"beta";
	l.status = BASALT__LINK_STATUS__LINK_STATUS_OK;
	l.master_host = (char *)"hostb";
	l.admin = (char *)"lsfadmin";
	l.hosts = 12;
	l.server_hosts = 10;
	ls_format_remote_cluster(s, &l, FALSE);
	l.cluster_name = (char *)"gamma";
	l.status = BASALT__LINK_STATUS__LINK_STATUS_DISC;
	l.master_host = (char *)"";
	l.admin = (char *)"";
	l.hosts = l.server_hosts = 0;
	ls_format_remote_cluster(s, &l, FALSE);
	ck_assert_str_eq(s->str,
	    "CLUSTER_NAME   STATUS   MASTER_HOST               ADMIN    HOSTS  SERVERS\n"
	    "beta           ok       hostb                     lsfadmin    12       10\n"
	    "gamma          unavail  -                         -           0        0\n");
	g_string_truncate(s, 0);
	ls_format_remote_cluster(s, &l, TRUE);
	ck_assert_str_eq(s->str, "\nCLUSTER_NAME: gamma\nStatus: unavail\n"
	    "Master_host: -\nPrimary_admin: -\nTotal_hosts: 0\n"
	    "Total_servers: 0\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_ls");
	TCase *tc = tcase_create("layouts");

	tcase_add_test(tc, test_mem_short);
	tcase_add_test(tc, test_hosts_and_load);
	tcase_add_test(tc, test_showconf);
	tcase_add_test(tc, test_info);
	tcase_add_test(tc, test_remote_cluster);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
