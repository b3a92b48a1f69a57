/*
 * lib/api and the command programs, end to end against a fake mbatchd.
 *
 * The fake is a real bs_rpc_server on a Unix socket in a temporary
 * LSF_ENVDIR, run in a thread of the test process, whose BatchService
 * answers with canned replies and keeps the last request of each method
 * so a test can check what a command sent.  The commands run as child
 * processes, exactly as a user runs them: argv, environment, exit code,
 * stdout and stderr.  Real daemons are the integration tests' business.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "bjobs-format.h"
#include "api/api.h"
#include "api/arena.h"
#include "util/log.h"

#include "cmd-run.h"
#include "fake-mbd.h"

/* ---- running a command --------------------------------------------------- */

static Run
run(const char *line)
{
	return run_full(line, FALSE, fake.envdir);
}

#define assert_contains(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) != NULL, \
	    "'%s' not found in '%s'", (needle), (hay))

/* ---- lsf.conf lookup ----------------------------------------------------- */

START_TEST(test_conf_lookup)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GHashTable) conf = NULL;
	g_autofree char *sock = NULL;
	g_autofree char *expect = NULL;
	g_autofree char *abs = NULL;

	envdir_only();
	conf = lsb_read_lsf_conf(fake.envdir, &err);
	ck_assert_ptr_nonnull(conf);
	ck_assert_str_eq(g_hash_table_lookup(conf, "LSB_SHAREDIR"), "share");
	ck_assert_str_eq(g_hash_table_lookup(conf, "LSB_API_RECVTIMEOUT"), "10");
	ck_assert(!g_hash_table_contains(conf, "# test"));
	/* Relative to LSF_ENVDIR, whatever the current directory is. */
	abs = lsb_conf_path(conf, fake.envdir, "LSB_SHAREDIR");
	expect = g_build_filename(fake.envdir, "share", NULL);
	ck_assert_str_eq(abs, expect);
	ck_assert_ptr_null(lsb_conf_path(conf, fake.envdir, "NOT_SET"));
	g_setenv("LSF_ENVDIR", fake.envdir, TRUE);
	sock = lsb_mbd_socket(&err);
	ck_assert_str_eq(sock, fake.sock);
	ck_assert_uint_eq(lsb_conf_seconds(conf, "LSB_API_RECVTIMEOUT", 30), 10);
	g_setenv("LSB_API_RECVTIMEOUT", "7", TRUE);
	ck_assert_uint_eq(lsb_conf_seconds(conf, "LSB_API_RECVTIMEOUT", 30), 7);
	g_unsetenv("LSB_API_RECVTIMEOUT");
	ck_assert_uint_eq(lsb_conf_seconds(conf, "LSB_API_CONNTIMEOUT", 3), 3);
	fake_stop();
}
END_TEST

START_TEST(test_conf_defaults)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_dir_make_tmp("check-api-XXXXXX", NULL);
	g_autofree char *conf = g_build_filename(dir, "lsf.conf", NULL);
	g_autofree char *sock = NULL;
	g_autofree char *expect = g_build_filename(dir, "work", "mbatchd.sock",
	    NULL);

	/* No LSB_SHAREDIR: $LSF_ENVDIR/work, where mbatchd puts it too. */
	ck_assert(g_file_set_contents(conf, "LSF_LOGDIR=/var/log\n", -1, NULL));
	g_setenv("LSF_ENVDIR", dir, TRUE);
	sock = lsb_mbd_socket(&err);
	ck_assert_str_eq(sock, expect);
	g_free(sock);
	/* An absolute LSB_SHAREDIR is kept as it is. */
	ck_assert(g_file_set_contents(conf, "LSB_SHAREDIR='/srv/lsf/work'\n",
	    -1, NULL));
	sock = lsb_mbd_socket(&err);
	ck_assert_str_eq(sock, "/srv/lsf/work/mbatchd.sock");
	unlink(conf);
	rmdir(dir);
}
END_TEST

START_TEST(test_conf_missing)
{
	g_autoptr(GError) err = NULL;
	Run r;

	g_setenv("LSF_ENVDIR", "/nonexistent/basalt", TRUE);
	ck_assert_ptr_null(lsb_mbd_socket(&err));
	ck_assert(g_error_matches(err, LSB_ERROR, LSB_ERROR_CONF));
	assert_contains(err->message, "/nonexistent/basalt/lsf.conf");
	assert_contains(err->message, "LSF_ENVDIR");
	r = run_full("bjobs", FALSE, "/");
	ck_assert_int_eq(r.code, 255);
	assert_contains(r.err, "lsf.conf");
	ck_assert_str_eq(r.out, "");
	run_clear(&r);
}
END_TEST

/* ---- commands against the fake ------------------------------------------- */

START_TEST(test_bsub_submit)
{
	Basalt__SubmitRequest *req;
	Run r = run("bsub -q normal sleep 1");
	gboolean env_found = FALSE;

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <42> is submitted to queue <normal>.\n");
	ck_assert_str_eq(r.err, "");
	req = (Basalt__SubmitRequest *)last_request(LSB_SUBMIT,
	    &basalt__submit_request__descriptor);
	ck_assert_str_eq(req->spec->command, "sleep 1");
	ck_assert_uint_eq(req->spec->n_queues, 1);
	ck_assert_str_eq(req->spec->queues[0], "normal");
	ck_assert_str_eq(req->spec->cwd, fake.envdir);
	ck_assert_str_ne(req->spec->submit_host, "");
	for (size_t i = 0; i < req->spec->n_env; i++)
		env_found |= strcmp(req->spec->env[i],
		    "BASALT_TEST_VAR=carried") == 0;
	ck_assert(env_found);
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
}
END_TEST

START_TEST(test_bsub_default_queue_and_script)
{
	Basalt__SubmitRequest *req;
	Run r = run_full("printf '#!/bin/sh\\n#BSUB -J fromscript\\necho hi\\n'"
	    " | bsub", TRUE, fake.envdir);

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out,
	    "Job <42> is submitted to default queue <normal>.\n");
	req = (Basalt__SubmitRequest *)last_request(LSB_SUBMIT,
	    &basalt__submit_request__descriptor);
	ck_assert_str_eq(req->spec->job_name, "fromscript");
	assert_contains(req->spec->command, "echo hi");
	assert_contains(req->spec->script, "#BSUB -J fromscript");
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
}
END_TEST

START_TEST(test_bsub_wait)
{
	Run r = run("bsub -K -q normal false");

	ck_assert_int_eq(r.code, 3);
	ck_assert_str_eq(r.out, "Job <42> is submitted to queue <normal>.\n");
	ck_assert_str_eq(r.err, "<<Waiting for dispatch ...>>\n"
	    "<<Starting on hostB>>\n<<Job is finished>>\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_bsub_refused)
{
	Run r;

	g_atomic_int_set(&fake.refuse, 1);
	r = run("bsub -q nosuch sleep 1");
	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "nosuch: No such queue. Job not submitted.\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_bsub_bad_option)
{
	Run r = run("bsub -Z sleep 1");

	ck_assert_int_eq(r.code, 255);
	assert_contains(r.err, "bsub: illegal option -- Z");
	assert_contains(r.err, "Usage: bsub");
	run_clear(&r);
}
END_TEST

START_TEST(test_bjobs_table)
{
	Basalt__JobList l;
	Basalt__JobInfo info[2], *ptrs[2];
	BjobsOpts o = { 0 };
	g_autoptr(GString) expect = g_string_new(NULL);
	Basalt__JobQuery *q;
	Run r;

	g_setenv("TZ", "UTC", TRUE);
	tzset();
	canned_jobs(&l, info, ptrs);
	bjobs_format_table(expect, &l, &o);
	r = run("bjobs -u all");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, expect->str);
	assert_contains(r.out, "12      alice   RUN   normal     hostA       "
	    "hostB       sleep      Nov 21 10:02");
	ck_assert_str_eq(r.err, "");
	q = (Basalt__JobQuery *)last_request(LSB_JOBS,
	    &basalt__job_query__descriptor);
	ck_assert_uint_eq(q->n_users, 1);
	ck_assert_str_eq(q->users[0], "all");
	protobuf_c_message_free_unpacked(&q->base, NULL);
	run_clear(&r);
}
END_TEST

START_TEST(test_bjobs_not_found)
{
	Run r = run("bjobs -u nobody");

	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "No unfinished job found\n");
	run_clear(&r);
	r = run("bjobs 12 77");
	ck_assert_int_eq(r.code, 255);
	assert_contains(r.out, "12      alice   RUN");
	ck_assert_str_eq(r.err, "Job <77> is not found\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_bjobs_long_and_json)
{
	Run r = run("bjobs -l 13");

	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "Job <13>");
	run_clear(&r);
	r = run("bjobs -json");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "\"COMMAND\":\"bjobs\"");
	run_clear(&r);
	r = run("bjobs -o 'jobid stat'");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "JOBID");
	assert_contains(r.out, "PEND");
	run_clear(&r);
}
END_TEST

/* bpost and bread: the request each sends and LSF's table bread prints. */
START_TEST(test_bpost_bread)
{
	Basalt__PostRequest *pq;
	Basalt__ReadRequest *rq;
	Run r = run("bpost -i 4 -d 'half way' '12[3]'");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <12[3]>: message posted.\n");
	pq = (Basalt__PostRequest *)last_request(LSB_POST,
	    &basalt__post_request__descriptor);
	ck_assert_uint_eq(pq->job_id, 12);
	ck_assert_uint_eq(pq->array_index, 3);
	ck_assert_uint_eq(pq->index, 4);
	ck_assert_str_eq(pq->text, "half way");
	protobuf_c_message_free_unpacked(&pq->base, NULL);
	run_clear(&r);

	r = run("bpost 12");
	pq = (Basalt__PostRequest *)last_request(LSB_POST,
	    &basalt__post_request__descriptor);
	ck_assert_uint_eq(pq->index, 0);
	ck_assert_str_eq(pq->text, "no description");
	protobuf_c_message_free_unpacked(&pq->base, NULL);
	run_clear(&r);

	r = run("bpost -a /etc/hostname 12");
	ck_assert_int_eq(r.code, 255);
	run_clear(&r);

	r = run("bread -i 2 12");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out,
	    "JOBID   MSG_ID FROM       POST_TIME      MESSAGE                        ATTACHMENT\n"
	    "12      2      alice      Nov 21 10:02   step two done                  N\n");
	rq = (Basalt__ReadRequest *)last_request(LSB_READ,
	    &basalt__read_request__descriptor);
	ck_assert_uint_eq(rq->job_id, 12);
	ck_assert_uint_eq(rq->index, 2);
	protobuf_c_message_free_unpacked(&rq->base, NULL);
	run_clear(&r);

	r = run("bread 12");
	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.out, "");
	run_clear(&r);
}
END_TEST

/* bconsumers: the query it sends and its table, -w, -l and -json. */
START_TEST(test_bconsumers)
{
	Basalt__ConsumerQuery *q;
	Run r = run("bconsumers -g rg1 /X");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out,
	    "CONSUMER             RGROUP      OWNED  SCALED  RESERVED  LIMIT  RANK  SHARE  DEMAND  QUOTA  ALLOC  BORROWED  LENT\n"
	    "/X                   rg1            10      12         0      -     0      -      30     20     20         8     0\n"
	    "*very_long_team_name rg1             5       6         2     20     1      -      30     20     20        14     0\n");
	q = (Basalt__ConsumerQuery *)last_request(LSB_CONSUMERS,
	    &basalt__consumer_query__descriptor);
	ck_assert_str_eq(q->resource_group, "rg1");
	ck_assert_uint_eq(q->n_paths, 1);
	ck_assert_str_eq(q->paths[0], "/X");
	protobuf_c_message_free_unpacked(&q->base, NULL);
	run_clear(&r);

	r = run("bconsumers -w");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "\n/X/a_very_long_team_name rg1 ");
	run_clear(&r);

	r = run("bconsumers -l");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "CONSUMER: /X/a_very_long_team_name\n"
	    "RESOURCE GROUP: rg1 (PLAN_SLOTS 100, 120 slots now)  HOSTS: all\n"
	    "POLICY: hybrid  USERS: alice bob  LEAF\n");
	assert_contains(r.out, "QUOTA: limited by LIMIT 20\n");
	assert_contains(r.out, "POLICY: hybrid  USERS: all  PARENT\n"
	    "TIME_WINDOW: 19:00-7:00\n\n");
	run_clear(&r);

	/* -at: the time in the query (the next such moment), the preview
	 * layout in the output. */
	r = run("bconsumers -at 23:59");
	ck_assert_int_eq(r.code, 0);
	q = (Basalt__ConsumerQuery *)last_request(LSB_CONSUMERS,
	    &basalt__consumer_query__descriptor);
	ck_assert(q->at >= (gint64)time(NULL) - 1 && q->at <= (gint64)time(NULL) + 86400);
	protobuf_c_message_free_unpacked(&q->base, NULL);
	assert_contains(r.out, "RESOURCE_GROUP CONSUMER             WINDOW           "
	    "QUOTA_NOW  QUOTA  ALLOC  OVER\n"
	    "rg1            /X                   19:00-7:00              25     20     20     0\n");
	assert_contains(r.out, "\n42           alice      normal     "
	    "/X/a_very_long_team_name reclaim-notice     /Y                 1     60 ");
	run_clear(&r);
	r = run("bconsumers -at 24:00");
	ck_assert_int_ne(r.code, 0);
	assert_contains(r.err, "bconsumers: Bad time specification for -at: 24:00");
	run_clear(&r);

	r = run("bconsumers -json");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "\"COMMAND\":\"bconsumers\",\n  \"CONSUMERS\":2,");
	assert_contains(r.out, "\"CONSUMER\":\"/X/a_very_long_team_name\",");
	assert_contains(r.out, "\"LIMIT\":\"-\",");
	assert_contains(r.out, "\"REASON\":\"limited by LIMIT 20\"\n");
	run_clear(&r);

	r = run("bconsumers X");
	ck_assert_int_eq(r.code, 255);
	run_clear(&r);
}
END_TEST

START_TEST(test_bkill)
{
	Basalt__JobControlRequest *req;
	Run r = run("bkill 12");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <12> is being terminated\n");
	req = (Basalt__JobControlRequest *)last_request(LSB_CONTROL,
	    &basalt__job_control_request__descriptor);
	ck_assert_int_eq(req->action, BASALT__JOB_ACTION__JOB_ACTION_KILL);
	ck_assert_uint_eq(req->select->n_job_ids, 1);
	ck_assert_uint_eq(req->select->job_ids[0], 12);
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);

	r = run("bkill -s STOP 12 13");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <12> is being stopped\n"
	    "Job <13> is being stopped\n");
	req = (Basalt__JobControlRequest *)last_request(LSB_CONTROL,
	    &basalt__job_control_request__descriptor);
	ck_assert_int_eq(req->action, BASALT__JOB_ACTION__JOB_ACTION_SIGNAL);
	ck_assert_int_eq(req->signal, 19);
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);

	r = run("bkill -q normal 0");
	req = (Basalt__JobControlRequest *)last_request(LSB_CONTROL,
	    &basalt__job_control_request__descriptor);
	ck_assert(req->all_matching);
	ck_assert_str_eq(req->select->queues[0], "normal");
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
}
END_TEST

START_TEST(test_control_refused)
{
	Run r;

	g_atomic_int_set(&fake.refuse, 1);
	r = run("bkill 12");
	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "Job <12>: User permission denied\n");
	run_clear(&r);
	r = run("bstop 12");
	ck_assert_int_eq(r.code, 255);
	assert_contains(r.err, "User permission denied");
	run_clear(&r);
}
END_TEST

START_TEST(test_job_control_family)
{
	Basalt__JobControlRequest *req;
	Run r = run("bresume 13");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <13> is being resumed\n");
	run_clear(&r);
	r = run("brequeue -H 12");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <12> is being requeued\n");
	req = (Basalt__JobControlRequest *)last_request(LSB_CONTROL,
	    &basalt__job_control_request__descriptor);
	ck_assert(req->requeue_hold);
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
	r = run("bswitch short 12");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Job <12> is switched to queue <short>\n");
	run_clear(&r);
	r = run("btop 13 2");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.err, "Job <13> has been moved to position 2 from top.\n");
	run_clear(&r);
	r = run("bbot 13");
	ck_assert_str_eq(r.err,
	    "Job <13> has been moved to position 1 from bottom.\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_bmod)
{
	Basalt__ModifyRequest *req;
	Run r = run("bmod -W 30 -Jn -Z 'echo new' 13");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Parameters of job <13> are being changed\n");
	req = (Basalt__ModifyRequest *)last_request(LSB_MODIFY,
	    &basalt__modify_request__descriptor);
	ck_assert_uint_eq(req->job_id, 13);
	ck_assert_uint_eq(req->n_set_fields, 2);
	ck_assert_str_eq(req->set_fields[0], "runlimit_s");
	ck_assert_str_eq(req->set_fields[1], "command");
	ck_assert_uint_eq(req->n_reset_fields, 1);
	ck_assert_str_eq(req->reset_fields[0], "job_name");
	ck_assert_uint_eq(req->spec->runlimit_s, 1800);
	ck_assert_str_eq(req->spec->command, "echo new");
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
	r = run("bmod -W xx 13");
	ck_assert_int_eq(r.code, 255);
	assert_contains(r.err, "bmod: Bad RUNLIMIT");
	run_clear(&r);
}
END_TEST

START_TEST(test_info_commands)
{
	Run r = run("lsid");

	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "Basalt ");
	assert_contains(r.out, "My cluster name is basalt\n"
	    "My master name is hostA\n");
	run_clear(&r);
	r = run("bqueues");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "QUEUE_NAME");
	assert_contains(r.out, "normal");
	run_clear(&r);
	r = run("bhosts -w");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "hostB");
	run_clear(&r);
	r = run("bparams");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "Default Queues:  normal");
	run_clear(&r);
	r = run("busers all");
	ck_assert_int_eq(r.code, 0);
	assert_contains(r.out, "all");
	run_clear(&r);
}
END_TEST

START_TEST(test_bpeek_follow)
{
	Run r = run("bpeek -f 12");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "<< output from stdout >>\n"
	    "line one\nline two\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_badmin)
{
	Basalt__AdminRequest *req;
	Run r = run("badmin qclose -C maintenance normal");

	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "Queue <normal> is closed\n");
	req = (Basalt__AdminRequest *)last_request(LSB_ADMIN,
	    &basalt__admin_request__descriptor);
	ck_assert_str_eq(req->comment, "maintenance");
	ck_assert_str_eq(req->names[0], "normal");
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
	/* A configuration with errors is reported and never applied. */
	g_atomic_int_set(&fake.refuse, 1);
	r = run("badmin reconfig");
	ck_assert_int_eq(r.code, 255);
	assert_contains(r.err, "lsb.queues:3: PRIORITY: bad value");
	assert_contains(r.out, "Do you want to reconfigure? [y/n]");
	req = (Basalt__AdminRequest *)last_request(LSB_ADMIN,
	    &basalt__admin_request__descriptor);
	ck_assert_int_eq(req->action, BASALT__ADMIN_ACTION__ADMIN_ACTION_CKCONFIG);
	protobuf_c_message_free_unpacked(&req->base, NULL);
	run_clear(&r);
}
END_TEST

START_TEST(test_badmin_ckconfig_local)
{
	const char *src = g_getenv("top_srcdir");
	g_autofree char *conf = g_build_filename(src ? src : "..", "conf", NULL);
	Run r;

	/* The shipped configuration, no mbatchd: checked right here. */
	r = run_full("badmin ckconfig", FALSE, conf);
	ck_assert_msg(r.code == 0, "%s", r.err);
	assert_contains(r.out, "No errors found.");
	run_clear(&r);
}
END_TEST

START_TEST(test_mbatchd_down)
{
	Run r;

	envdir_only();
	r = run("bjobs");
	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.out, "");
	assert_contains(r.err, "batch system daemon not responding ... still trying");
	assert_contains(r.err, "LSF is down; please wait");
	ck_assert_msg(r.secs < 10.0, "took %.1f s", r.secs);
	run_clear(&r);
	fake_stop();
}
END_TEST

START_TEST(test_help_version)
{
	static const char *const progs[] = { "bsub", "bjobs", "bqueues",
	    "bhosts", "bparams", "busers", "lsid", "bkill", "bstop",
	    "bresume", "brequeue", "bswitch", "bmod", "btop", "bbot", "bpeek",
	    "badmin", NULL };

	for (guint i = 0; progs[i] != NULL; i++) {
		g_autofree char *h = g_strdup_printf("%s -h", progs[i]);
		g_autofree char *v = g_strdup_printf("%s -V", progs[i]);
		g_autofree char *usage = g_strdup_printf("Usage: %s", progs[i]);
		Run r = run_full(h, FALSE, "/");

		ck_assert_int_eq(r.code, 0);
		ck_assert_msg(g_str_has_prefix(r.out, usage), "%s", r.out);
		run_clear(&r);
		r = run_full(v, FALSE, "/");
		ck_assert_int_eq(r.code, 0);
		assert_contains(r.err, "Basalt");
		run_clear(&r);
	}
}
END_TEST

/* A page unpacked into the arena and escaped there reads as one unpacked
 * with malloc: every block aligned, a block bigger than a chunk whole,
 * and an escaped name allocated from the arena too. */
START_TEST(test_arena_unpack)
{
	Basalt__JobList l = BASALT__JOB_LIST__INIT;
	Basalt__JobInfo info[300];
	Basalt__JobInfo *jobs[300];
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	g_autofree char *big = g_strnfill(3u << 20, 'b');
	g_autofree guint8 *buf = NULL;
	LsbArena *a = lsb_arena_new();
	ProtobufCAllocator *alloc = lsb_arena_allocator(a);
	Basalt__JobList *got;
	gsize len;

	for (guint i = 0; i < G_N_ELEMENTS(info); i++) {
		basalt__job_info__init(&info[i]);
		info[i].job_id = i + 1;
		info[i].user = (char *)"alice";
		info[i].job_name = (char *)(i == 7 ? "evil\nrow" : i == 9 ? big : "n");
		jobs[i] = &info[i];
	}
	/* A nested message met in the middle of the walk. */
	spec.command = (char *)"cmd\nx";
	spec.cwd = (char *)"q\n";
	info[3].spec = &spec;
	l.jobs = jobs;
	l.n_jobs = G_N_ELEMENTS(info);
	len = basalt__job_list__get_packed_size(&l);
	buf = g_malloc(len);
	basalt__job_list__pack(&l, buf);
	got = basalt__job_list__unpack(alloc, len, buf);
	ck_assert_ptr_nonnull(got);
	lsb_escape_message_in(&got->base, alloc);
	ck_assert_uint_eq(got->n_jobs, G_N_ELEMENTS(info));
	for (guint i = 0; i < got->n_jobs; i++) {
		ck_assert_uint_eq((guintptr)got->jobs[i] % G_ALIGNOF(gint64), 0);
		ck_assert_uint_eq(got->jobs[i]->job_id, i + 1);
		ck_assert_str_eq(got->jobs[i]->user, "alice");
	}
	ck_assert_str_eq(got->jobs[7]->job_name, "evil\\nrow");
	ck_assert_str_eq(got->jobs[9]->job_name, big);
	ck_assert_str_eq(got->jobs[10]->job_name, "n");
	ck_assert_str_eq(got->jobs[3]->spec->command, "cmd\\nx");
	ck_assert_str_eq(got->jobs[3]->spec->cwd, "q\\n");
	ck_assert_str_eq(got->jobs[3]->job_name, "n");
	/* Freeing a message of the arena frees nothing; the arena frees all. */
	protobuf_c_message_free_unpacked(&got->base, alloc);
	lsb_arena_free(a);
}
END_TEST

static Suite *
api_suite(void)
{
	Suite *s = suite_create("api");
	TCase *conf = tcase_create("conf");
	TCase *cmds = tcase_create("commands");
	TCase *down = tcase_create("down");

	tcase_add_test(conf, test_conf_lookup);
	tcase_add_test(conf, test_conf_defaults);
	tcase_add_test(conf, test_conf_missing);
	tcase_add_test(conf, test_help_version);
	tcase_add_test(conf, test_badmin_ckconfig_local);
	tcase_add_test(conf, test_arena_unpack);
	suite_add_tcase(s, conf);

	tcase_add_checked_fixture(cmds, fake_start, fake_stop);
	tcase_add_test(cmds, test_bsub_submit);
	tcase_add_test(cmds, test_bsub_default_queue_and_script);
	tcase_add_test(cmds, test_bsub_wait);
	tcase_add_test(cmds, test_bsub_refused);
	tcase_add_test(cmds, test_bsub_bad_option);
	tcase_add_test(cmds, test_bjobs_table);
	tcase_add_test(cmds, test_bjobs_not_found);
	tcase_add_test(cmds, test_bjobs_long_and_json);
	tcase_add_test(cmds, test_bkill);
	tcase_add_test(cmds, test_bpost_bread);
	tcase_add_test(cmds, test_bconsumers);
	tcase_add_test(cmds, test_control_refused);
	tcase_add_test(cmds, test_job_control_family);
	tcase_add_test(cmds, test_bmod);
	tcase_add_test(cmds, test_info_commands);
	tcase_add_test(cmds, test_bpeek_follow);
	tcase_add_test(cmds, test_badmin);
	suite_add_tcase(s, cmds);

	tcase_add_test(down, test_mbatchd_down);
	tcase_set_timeout(down, 30);
	suite_add_tcase(s, down);
	return s;
}

int
main(void)
{
	/* The fake's connection log would drown the TAP output. */
	bs_log_set_level(BS_LOG_WARNING);
	return bs_run_suite(api_suite());
}
