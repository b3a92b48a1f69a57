/*
 * bclusters' layouts (cmd/bclusters-format.c) from made-up Clusters
 * replies: LSF's two sections with their rows and their "No ..." lines,
 * -app, -w against cut names, and -l with a link up, a link down and a
 * shared lease (policy, provider, consumer, status, slots per side and
 * per host, the last evaluation with its idle slots, the next one).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bclusters-format.h"
#include "tap.h"

#define T0 1764028800   /* Tue Nov 25 00:00:00 2025 UTC */

START_TEST(test_empty)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__ClustersReply r = BASALT__CLUSTERS_REPLY__INIT;

	r.cluster_name = (char *)"alpha";
	bclusters_format_forwarding(s, &r, CMD_FIT_HEAD);
	bclusters_format_leases(s, &r, CMD_FIT_HEAD);
	bclusters_format_apps(s, &r, CMD_FIT_HEAD);
	ck_assert_str_eq(s->str,
	    "[Job Forwarding Information ]\n"
	    "No local queue sending/receiving jobs from remote clusters\n"
	    "[Resource Lease Information ]\n"
	    "No resources have been exported or borrowed\n"
	    "[Remote Batch Application Profile Information ]\n"
	    "No application profiles in remote clusters\n");
	g_string_truncate(s, 0);
	bclusters_format_long(s, &r);
	ck_assert_str_eq(s->str, "LOCAL CLUSTER: alpha\n\n"
	    "No remote clusters in lsf.shared\n\nLEASES: none\n");
}
END_TEST

START_TEST(test_sections_and_wide)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__ClustersReply r = BASALT__CLUSTERS_REPLY__INIT;
	Basalt__ForwardQueue q1 = BASALT__FORWARD_QUEUE__INIT, q2 = q1;
	Basalt__ForwardQueue *qs[] = { &q1, &q2 };
	Basalt__LeaseFlow f1 = BASALT__LEASE_FLOW__INIT, f2 = f1;
	Basalt__LeaseFlow *fs[] = { &f1, &f2 };

	q1.local_queue = (char *)"tobeta";
	q1.job_flow = (char *)"send";
	q1.remote = (char *)"recvq";
	q1.cluster = (char *)"beta";
	q1.status = BASALT__LINK_STATUS__LINK_STATUS_OK;
	q2.local_queue = (char *)"a_very_long_queue_name";
	q2.job_flow = (char *)"recv";
	q2.remote = (char *)"-";
	q2.cluster = (char *)"gamma";
	q2.status = BASALT__LINK_STATUS__LINK_STATUS_DISC;
	f1.remote_cluster = (char *)"beta";
	f1.resource_flow = (char *)"EXPORT";
	f1.status = (char *)"ok";
	f2.remote_cluster = (char *)"gamma";
	f2.resource_flow = (char *)"IMPORT";
	f2.status = (char *)"disc";
	r.queues = qs;
	r.n_queues = 2;
	r.flows = fs;
	r.n_flows = 2;
	bclusters_format_forwarding(s, &r, CMD_FIT_HEAD);
	bclusters_format_leases(s, &r, CMD_FIT_HEAD);
	ck_assert_str_eq(s->str,
	    "[Job Forwarding Information ]\n"
	    "LOCAL_QUEUE     JOB_FLOW   REMOTE     CLUSTER    STATUS\n"
	    "tobeta          send       recvq      beta       ok\n"
	    "a_very_long_qu* recv       -          gamma      disc\n"
	    "[Resource Lease Information ]\n"
	    "REMOTE_CLUSTER  RESOURCE_FLOW   STATUS\n"
	    "beta            EXPORT          ok\n"
	    "gamma           IMPORT          disc\n");
	g_string_truncate(s, 0);
	bclusters_format_forwarding(s, &r, CMD_FIT_WIDE);
	ck_assert(strstr(s->str, "\na_very_long_queue_name recv       -") != NULL);
}
END_TEST

START_TEST(test_apps)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__ClustersReply r = BASALT__CLUSTERS_REPLY__INIT;
	Basalt__RemoteClusterLink l = BASALT__REMOTE_CLUSTER_LINK__INIT;
	Basalt__RemoteClusterLink *ls[] = { &l };
	Basalt__RemoteApp a1 = BASALT__REMOTE_APP__INIT, a2 = a1;
	Basalt__RemoteApp *as[] = { &a1, &a2 };

	l.cluster_name = (char *)"beta";
	a1.name = (char *)"short";
	a1.description = (char *)"Short jobs";
	a2.name = (char *)"big";
	a2.description = (char *)"";
	l.apps = as;
	l.n_apps = 2;
	r.links = ls;
	r.n_links = 1;
	bclusters_format_apps(s, &r, CMD_FIT_HEAD);
	ck_assert_str_eq(s->str,
	    "[Remote Batch Application Profile Information ]\n"
	    "REMOTE_CLUSTER  APP_NAME        DESCRIPTION\n"
	    "beta            short           Short jobs\n"
	    "beta            big             \n");
}
END_TEST

START_TEST(test_long)
{
	g_autoptr(GString) s = g_string_new(NULL);
	Basalt__ClustersReply r = BASALT__CLUSTERS_REPLY__INIT;
	Basalt__RemoteClusterLink up = BASALT__REMOTE_CLUSTER_LINK__INIT;
	Basalt__RemoteClusterLink down = BASALT__REMOTE_CLUSTER_LINK__INIT;
	Basalt__RemoteClusterLink *ls[] = { &up, &down };
	char *s1[] = { (char *)"beta-master" };
	char *s2[] = { (char *)"g1", (char *)"g2" };
	Basalt__LeaseInfo li = BASALT__LEASE_INFO__INIT;
	Basalt__LeaseInfo *lis[] = { &li };
	Basalt__LeaseHostInfo h1 = BASALT__LEASE_HOST_INFO__INIT, h2 = h1;
	Basalt__LeaseHostInfo *hs[] = { &h1, &h2 };

	r.cluster_name = (char *)"alpha";
	up.cluster_name = (char *)"beta";
	up.status = BASALT__LINK_STATUS__LINK_STATUS_OK;
	up.since = T0;
	up.master_host = (char *)"hostb";
	up.address = (char *)"127.0.0.2:6881";
	up.dialer = TRUE;
	up.last_error = (char *)"";
	up.connects = 2;
	up.servers = s1;
	up.n_servers = 1;
	down.cluster_name = (char *)"gamma";
	down.status = BASALT__LINK_STATUS__LINK_STATUS_DISC;
	down.since = T0 + 60;
	down.master_host = (char *)"";
	down.address = (char *)"10.0.0.7:6881";
	down.dialer = TRUE;
	down.last_error = (char *)"connect to 10.0.0.7:6881: Connection refused";
	down.next_dial = T0 + 64;
	down.servers = s2;
	down.n_servers = 2;
	r.links = ls;
	r.n_links = 2;
	li.policy = (char *)"export1";
	li.provider = (char *)"alpha";
	li.consumer = (char *)"beta";
	li.shared = TRUE;
	li.made = TRUE;
	li.status = (char *)"inactive";
	li.generation = 4;
	h1.host_name = (char *)"hostA";
	h1.slots = 4;
	h1.consumer_slots = 3;
	h2.host_name = (char *)"hostB";
	h2.slots = 4;
	h2.consumer_slots = 0;
	li.hosts = hs;
	li.n_hosts = 2;
	li.provider_slots = 5;
	li.consumer_slots = 3;
	li.last_eval = T0 + 120;
	li.last_idle_provider = 2;
	li.last_idle_consumer = 0;
	li.next_eval = T0 + 150;
	r.leases = lis;
	r.n_leases = 1;
	bclusters_format_long(s, &r);
	ck_assert_str_eq(s->str,
	    "LOCAL CLUSTER: alpha\n\n"
	    "REMOTE CLUSTER: beta\n"
	    "  STATUS:      ok since Tue Nov 25 00:00:00\n"
	    "  MASTER:      hostb\n"
	    "  SERVERS:     beta-master\n"
	    "  LINK:        dialed by this cluster at 127.0.0.2:6881\n"
	    "  CONNECTS:    2\n"
	    "  LAST_ERROR:  -\n\n"
	    "REMOTE CLUSTER: gamma\n"
	    "  STATUS:      disc since Tue Nov 25 00:01:00\n"
	    "  MASTER:      -\n"
	    "  SERVERS:     g1 g2\n"
	    "  LINK:        dialed by this cluster at 10.0.0.7:6881\n"
	    "  CONNECTS:    0\n"
	    "  LAST_ERROR:  connect to 10.0.0.7:6881: Connection refused\n"
	    "  NEXT_DIAL:   Tue Nov 25 00:01:04\n\n"
	    "LEASE: export1 (shared)\n"
	    "  PROVIDER:    alpha\n"
	    "  CONSUMER:    beta\n"
	    "  STATUS:      inactive\n"
	    "  GENERATION:  4\n"
	    "  SLOTS:       provider 5, consumer 3\n"
	    "  HOSTS:       hostA(3/4) hostB(0/4)\n"
	    "  LAST_EVAL:   Tue Nov 25 00:02:00, idle slots: provider 2, consumer 0\n"
	    "  NEXT_EVAL:   Tue Nov 25 00:02:30\n\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_bclusters");
	TCase *tc = tcase_create("layouts");

	setenv("TZ", "UTC", 1);
	tzset();
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_sections_and_wide);
	tcase_add_test(tc, test_apps);
	tcase_add_test(tc, test_long);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
