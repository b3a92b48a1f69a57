/* lib/conf: whole configurations.  The good directory loads without a
 * diagnostic and reads back; the samples of lsf-reference.md parse as
 * documented; each kind of error gives its exact `file:line: message`. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"
#include "util/memunit.h"

/* The cluster files and lsb.hosts: the base of the error cases. */
static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", NULL,
};

static BsConfig *
load_good(void)
{
	g_autofree char *dir = conf_data("good");
	g_autofree char *diags = NULL;
	BsConfig *cfg = conf_load_dir(dir, &diags);

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	return cfg;
}

static char *
joined(char **v)
{
	char *s = g_strjoinv(" ", v);

	g_strfreev(v);
	return s;
}

START_TEST(test_good_queues)
{
	g_autoptr(BsConfig) cfg = load_good();
	const BsQueueConf *high = bs_config_queue(cfg, "high");
	const BsQueueConf *med = bs_config_queue(cfg, "medium");
	const BsQueueConf *n = bs_config_queue(cfg, "normal");
	const BsQueueConf *low = bs_config_queue(cfg, "low");
	const BsQueueRef *r;
	g_autofree char *win = NULL, *hosts = NULL;

	ck_assert_uint_eq(cfg->queues->len, 7);
	ck_assert_str_eq(((BsQueueConf *)cfg->queues->pdata[0])->name, "high");
	ck_assert_int_eq(high->priority, 99);
	ck_assert_str_eq(high->description, "Urgent work; may preempt every lower-priority queue");
	ck_assert(high->preemption.preemptive && high->preemption.preemptive_queues == NULL);
	ck_assert(!high->preemption.preemptable);
	ck_assert_uint_eq(med->preemption.preemptive_queues->len, 2);
	r = med->preemption.preemptive_queues->pdata[1];
	ck_assert_str_eq(r->queue, "low");
	ck_assert(r->has_pref && r->pref == 1);
	ck_assert(n->preemption.preemptive && n->preemption.preemptable);
	ck_assert_uint_eq(n->preemption.preemptable_queues->len, 2);
	ck_assert(!low->preemption.preemptive && !low->preemption.preemptable);
	ck_assert_int_eq(low->max_job_preempt, 2);
	ck_assert_int_eq(high->max_job_preempt, BS_CONF_UNLIMITED);
	/* limits and windows */
	ck_assert_int_eq(n->nice, 10);
	ck_assert_int_eq(n->ujob_limit, 4);
	ck_assert_int_eq(n->qjob_limit, BS_CONF_UNLIMITED);
	ck_assert(n->pjob_limit == 1.5);
	ck_assert_int_eq(n->runlimit.def, 60);
	ck_assert_int_eq(n->runlimit.max, 210);
	ck_assert_int_eq(n->cpulimit.def, BS_CONF_UNLIMITED);
	ck_assert_int_eq(n->cpulimit.max, 120);
	ck_assert_str_eq(n->cpulimit.spec, "hostA");
	ck_assert_int_eq(n->memlimit.max, 2000);
	ck_assert_int_eq(high->runlimit.max, BS_CONF_UNLIMITED);
	win = bs_conf_windows_format(n->run_window);
	ck_assert_str_eq(win, "5:19:00-1:8:30 20:00-8:30");
	ck_assert_uint_eq(n->dispatch_window->len, 1);
	ck_assert_ptr_null(high->run_window);
	ck_assert_str_eq(n->job_controls.suspend, "SIGTSTP");
	ck_assert_str_eq(n->job_controls.resume, "SIGCONT");
	ck_assert_str_eq(n->job_controls.terminate, "kill -9 $LSB_JOBPGIDS");
	ck_assert_uint_eq(n->terminate_when, BS_TERMINATE_WHEN_PREEMPT | BS_TERMINATE_WHEN_WINDOW);
	ck_assert_uint_eq(n->requeue_exit_values.codes->len, 2);
	ck_assert_int_eq(g_array_index(n->requeue_exit_values.exclude, int, 1), 102);
	ck_assert_int_eq(n->interactive, BS_INTERACTIVE_NO);
	ck_assert_uint_eq(n->load_thresholds->len, 1);
	ck_assert(((BsLoadThreshold *)n->load_thresholds->pdata[0])->stop == 2.0);
	ck_assert_str_eq(n->users[1], "~user9");
	/* HOSTS = groupA+2 hostC ~hostD others+1 */
	ck_assert_int_eq(((BsHostRef *)n->hosts->pdata[0])->kind, BS_HOSTREF_GROUP);
	ck_assert_int_eq(((BsHostRef *)n->hosts->pdata[0])->pref, 2);
	ck_assert(((BsHostRef *)n->hosts->pdata[2])->exclude);
	ck_assert_int_eq(((BsHostRef *)n->hosts->pdata[3])->kind, BS_HOSTREF_OTHERS);
	hosts = joined(bs_config_queue_hosts(cfg, n));
	ck_assert_str_eq(hosts, "hostA hostB hostC hostK");
	ck_assert_int_eq(bs_conf_key_line(n->key_lines, "PREEMPTION"), 20);
}
END_TEST

START_TEST(test_good_pool_and_fairshare)
{
	g_autoptr(BsConfig) cfg = load_good();
	const BsQueueConf *p1 = bs_config_queue(cfg, "poolA1");
	const BsQueueConf *p2 = bs_config_queue(cfg, "poolA2");
	const BsQueueConf *f = bs_config_queue(cfg, "fair");
	g_autofree char *h = joined(bs_config_queue_hosts(cfg, f));

	ck_assert_str_eq(p1->slot_pool, "poolA");
	ck_assert_int_eq(p1->slot_share, 50);
	ck_assert_int_eq(p2->slot_share, 30);
	ck_assert_int_eq(p1->max_slots_in_pool, 8);
	ck_assert(p1->use_priority_in_pool && !p2->use_priority_in_pool);
	ck_assert_uint_eq(f->fairshare->len, 3);
	ck_assert_str_eq(((BsShare *)f->fairshare->pdata[1])->name, "groupA@");
	ck_assert_int_eq(((BsShare *)f->fairshare->pdata[1])->shares, 5);
	ck_assert_str_eq(h, "hostB hostC hostK");
	ck_assert_int_eq(((BsHostRef *)f->hosts->pdata[1])->kind, BS_HOSTREF_ALLREMOTE);
	ck_assert_int_eq(f->proclimit.min, 1);
	ck_assert_int_eq(f->proclimit.def, 2);
	ck_assert_int_eq(f->proclimit.max, 8);
	ck_assert(f->exclusive.enabled);
}
END_TEST

START_TEST(test_good_hosts_users)
{
	g_autoptr(BsConfig) cfg = load_good();
	g_autofree char *a = joined(bs_config_host_group_expand(cfg, "groupA"));
	g_autofree char *b = joined(bs_config_host_group_expand(cfg, "groupB"));
	g_autofree char *c = joined(bs_config_host_group_expand(cfg, "groupC"));
	g_autofree char *u = joined(bs_config_user_group_expand(cfg, "groupC"));
	const BsHostConf *ha = bs_config_host(cfg, "hostA");
	const BsUserConf *u1;

	ck_assert_str_eq(a, "hostA hostD");
	ck_assert_str_eq(b, "hostD hostK");
	ck_assert_str_eq(c, "hostB hostC hostK");
	ck_assert(bs_config_host_group(cfg, "groupR")->allremote);
	ck_assert_ptr_null(bs_config_host_group_expand(cfg, "nosuch"));
	ck_assert_int_eq(ha->mxj, 1);
	ck_assert_int_eq(ha->jl_u, BS_CONF_UNLIMITED);
	ck_assert_uint_eq(ha->dispatch_window->len, 2);
	ck_assert_uint_eq(ha->load_thresholds->len, 2);
	ck_assert_int_eq(bs_config_host(cfg, "hostB")->mxj, BS_CONF_MXJ_NCPUS);
	ck_assert_int_eq(bs_config_host(cfg, "hostB")->jl_u, 2);
	ck_assert_str_eq(bs_config_host(cfg, "hostC")->name, "SUNSOL");	/* by model */
	ck_assert_str_eq(bs_config_host(cfg, "hostK")->name, "default");
	ck_assert_int_eq(bs_config_host(cfg, "hostK")->mxj, 2);
	ck_assert_str_eq(u, "user1 user2 user3 user4 user5 user6");
	ck_assert_uint_eq(bs_config_user_group(cfg, "groupB")->shares->len, 2);
	ck_assert_ptr_null(bs_config_user_group(cfg, "groupA")->shares);
	ck_assert_uint_eq(cfg->users->users->len, 3);
	u1 = cfg->users->users->pdata[1];
	ck_assert_str_eq(u1->name, "groupA");
	ck_assert(u1->per_member);
	ck_assert_int_eq(u1->max_pend_slots, 10);
	ck_assert(u1->jl_p == 1.0);
	u1 = cfg->users->users->pdata[0];
	ck_assert_int_eq(u1->max_jobs, 10);
	ck_assert_int_eq(u1->max_pend_jobs, BS_CONF_UNLIMITED);
}
END_TEST

START_TEST(test_good_params_cluster)
{
	g_autoptr(BsConfig) cfg = load_good();
	const BsParamsConf *p = cfg->params;
	const char *const *dq = bs_config_default_queues(cfg);
	const BsRemoteCluster *rc;

	ck_assert_str_eq(dq[0], "normal");
	ck_assert_str_eq(dq[1], "low");
	ck_assert_int_eq(p->mbd_sleep_time, 10);
	ck_assert_int_eq(p->sbd_sleep_time, 30);
	ck_assert_int_eq(p->job_accept_interval, 0);
	ck_assert_int_eq(p->max_jobid, 9999999);
	ck_assert_int_eq(p->max_job_array_size, 1000);
	ck_assert_int_eq(p->clean_period, 3600);
	ck_assert_int_eq(p->hist_hours, 5);
	ck_assert_int_eq(p->max_sbd_fail, 3);
	ck_assert_int_eq(p->job_terminate_interval, 10);
	ck_assert_uint_eq(p->preempt_for, BS_PREEMPT_FOR_LEAST_RUN_TIME | BS_PREEMPT_FOR_GROUP_MAX);
	ck_assert_int_eq(p->mc_reclaim_delay, 30);
	ck_assert_int_eq(p->max_job_preempt, 3);
	ck_assert(p->cpu_time_factor == 0.5 && p->run_job_factor == 3.0);
	ck_assert(p->enable_event_stream);
	ck_assert_int_eq(p->pool_usage_half_life, 2);
	ck_assert_str_eq(p->default_project, "default");
	ck_assert_int_eq(p->max_pend_slots, 2147483647);
	ck_assert_int_eq(p->max_job_groups_per_user, 1000);
	ck_assert_str_eq(cfg->lsf->lsf_logdir, "/tmp/basalt-log");
	ck_assert_str_eq(cfg->lsf->lsb_sharedir, "/var/lib/basalt");
	ck_assert_str_eq(cfg->lsf->lsf_serverdir, "/usr/sbin");
	ck_assert_int_eq(cfg->lsf->log_mask, 3);
	ck_assert_int_eq(cfg->lsf->mbd_port, 7001);
	ck_assert_int_eq(cfg->lsf->sbd_port, 7002);
	ck_assert_str_eq(g_hash_table_lookup(cfg->lsf->values, "LSF_RSH"), "ssh");
	ck_assert_str_eq(cfg->cluster->name, "basalt");
	ck_assert_str_eq(cfg->lsb_dir, cfg->envdir);
	ck_assert_uint_eq(cfg->cluster->clusters->len, 2);
	ck_assert_str_eq(cfg->cluster->admins[1], "root");
	ck_assert_uint_eq(cfg->cluster->hosts->len, 5);
	ck_assert_str_eq(bs_config_cluster_host(cfg, "hostC")->model, "SUNSOL");
	ck_assert_ptr_null(bs_config_cluster_host(cfg, "hostA")->model);
	ck_assert_str_eq(bs_config_cluster_host(cfg, "hostA")->resources[0], "mg");
	rc = cfg->cluster->remote_clusters->pdata[0];
	ck_assert(rc->equiv && !rc->recv_from);
	ck_assert_int_eq(rc->cache_interval, 30);
	ck_assert_uint_eq(cfg->resources->sections->len, 5);
	ck_assert_str_eq(((BsResourceSection *)cfg->resources->sections->pdata[4])->kind,
	    "HybridConsumer");
}
END_TEST

START_TEST(test_absent_optional_files)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = NULL;

	conf_write(dir, "lsb.hosts", NULL);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_uint_eq(cfg->queues->len, 1);
	ck_assert_str_eq(bs_config_queue(cfg, "default")->name, "default");
	ck_assert_int_eq(bs_config_queue(cfg, "default")->priority, 1);
	ck_assert_str_eq(bs_config_default_queues(cfg)[0], "default");
	ck_assert_int_eq(cfg->params->mbd_sleep_time, 60);
	ck_assert_int_eq(cfg->params->mc_reclaim_delay, 600);
	ck_assert_int_eq(cfg->params->pool_usage_half_life, 5);
	ck_assert_int_eq(cfg->lsf->mbd_port, 7001);
	ck_assert_ptr_null(bs_config_host(cfg, "hostA"));
	conf_rmtree(dir);
}
END_TEST

/* LSF_UNIT_FOR_LIMITS: the unit of a bare size limit in lsb.queues and
 * lsb.applications; a written unit always wins. */
START_TEST(test_unit_for_limits)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = NULL;
	const BsQueueConf *q;

	conf_write(dir, "lsf.conf", "LSB_MBD_PORT=7001\nLSF_UNIT_FOR_LIMITS=MB\n");
	conf_write(dir, "lsb.queues", "Begin Queue\nQUEUE_NAME = q\n"
	    "MEMLIMIT = 100 2G\nSWAPLIMIT = 1.5gb\nFILELIMIT = 512KB\n"
	    "End Queue\n");
	conf_write(dir, "lsb.applications", "Begin Application\nNAME = a\n"
	    "MEMLIMIT = 10\nEnd Application\n");
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_int_eq(cfg->lsf->unit_for_limits, BS_MEM_MB);
	q = bs_config_queue(cfg, "q");
	ck_assert_int_eq(q->memlimit.def, 100 * 1024);
	ck_assert_int_eq(q->memlimit.max, 2 * 1024 * 1024);
	ck_assert_int_eq(q->swaplimit.max, 1536 * 1024);
	ck_assert_int_eq(q->filelimit.max, 512);
	ck_assert_int_eq(bs_config_app(cfg, "a")->memlimit.max, 10 * 1024);
	g_clear_pointer(&cfg, bs_config_free);
	g_clear_pointer(&diags, g_free);
	/* Without it, KB as before; a bad unit is a configuration error. */
	conf_write(dir, "lsf.conf", "LSB_MBD_PORT=7001\n");
	cfg = conf_load_dir(dir, &diags);
	ck_assert_int_eq(bs_config_queue(cfg, "q")->memlimit.def, 100);
	g_clear_pointer(&cfg, bs_config_free);
	g_clear_pointer(&diags, g_free);
	conf_write(dir, "lsf.conf", "LSF_UNIT_FOR_LIMITS=QB\n");
	cfg = conf_load_dir(dir, &diags);
	ck_assert_ptr_null(cfg);
	ck_assert_msg(strstr(diags, "LSF_UNIT_FOR_LIMITS") != NULL &&
	    strstr(diags, "expected KB, MB, GB, TB or PB") != NULL, "%s", diags);
	conf_rmtree(dir);
}
END_TEST

START_TEST(test_missing_lsf_conf)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL, *want = NULL;
	BsConfig *cfg;

	conf_write(dir, "lsf.conf", NULL);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_ptr_null(cfg);
	want = g_strdup_printf("lsf.conf: cannot read %s/lsf.conf: no such file\n", dir);
	ck_assert_str_eq(diags, want);
	conf_rmtree(dir);
}
END_TEST

/* LSB_CONFDIR/<cluster>/configdir is used when it exists. */
START_TEST(test_lsf_layout_and_envdir)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *lsb = g_build_filename(dir, "lsbatch", NULL);
	g_autofree char *cd = g_build_filename(lsb, "basalt", "configdir", NULL);
	g_autofree char *conf = NULL, *diags = NULL, *q = NULL;
	g_autoptr(BsConfig) cfg = NULL;

	g_mkdir_with_parents(cd, 0755);
	conf = g_strdup_printf("LSB_CONFDIR=%s\nLSF_CLUSTER_NAME=basalt\n", lsb);
	conf_write(dir, "lsf.conf", conf);
	q = g_build_filename(cd, "lsb.queues", NULL);
	g_assert_true(g_file_set_contents(q, "Begin Queue\nQUEUE_NAME = only\nEnd Queue\n", -1, NULL));
	g_setenv("LSF_ENVDIR", dir, TRUE);
	cfg = conf_load_dir(NULL, &diags);
	g_unsetenv("LSF_ENVDIR");
	ck_assert_str_eq(diags, "");
	ck_assert_str_eq(cfg->lsb_dir, cd);
	ck_assert_ptr_nonnull(bs_config_queue(cfg, "only"));
	ck_assert_int_eq(cfg->lsf->mbd_port, 6881);
	conf_rmtree(dir);
}
END_TEST

/* The shipped conf/ loads clean, with its relative paths taken from
 * LSF_ENVDIR (a Basalt extension). */
START_TEST(test_shipped_conf)
{
	const char *top = g_getenv("top_srcdir");
	g_autofree char *envdir = g_build_filename(top != NULL ? top : "..", "conf", NULL);
	g_autofree char *abs = g_canonicalize_filename(envdir, NULL);
	g_autofree char *lsb = g_build_filename(abs, "lsbatch", "basalt", "configdir", NULL);
	g_autofree char *share = g_build_filename(abs, "work", NULL);
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = conf_load_dir(envdir, &diags);

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_str_eq(cfg->lsb_dir, lsb);
	ck_assert_str_eq(cfg->lsf->lsb_sharedir, share);
	ck_assert_str_eq(cfg->cluster->name, "basalt");
	ck_assert_int_eq(bs_config_queue(cfg, "priority")->priority, 43);
	ck_assert_str_eq(bs_config_default_queues(cfg)[0], "normal");
}
END_TEST

/* Load, free, load again: the daemon's reconfig path (leaks show under ASan). */
START_TEST(test_reload)
{
	for (int i = 0; i < 3; i++) {
		BsConfig *cfg = load_good();

		bs_config_free(cfg);
	}
}
END_TEST

/* ---- the samples of lsf-reference.md ------------------------------------ */

static char *
load_sample(const char *file, BsConfig **out)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *sample_name = g_strconcat("samples/", file, NULL);
	g_autofree char *sample = conf_data(sample_name);
	g_autofree char *to = g_build_filename(dir, file, NULL);
	char *diags;

	copy_file(sample, to);
	*out = conf_load_dir(dir, &diags);
	conf_rmtree(dir);
	return diags;
}

START_TEST(test_sample_hosts)
{
	BsConfig *cfg;
	g_autofree char *diags = load_sample("lsb.hosts", &cfg);
	g_autofree char *b = NULL;

	ck_assert_str_eq(diags, "lsb.hosts:14: warning: host group groupE: egroup membership "
	    "(!) is not supported, the group is empty\n");
	ck_assert_int_eq(bs_config_host(cfg, "hostA")->mxj, 1);
	ck_assert_int_eq(bs_config_host(cfg, "hostC")->mxj, 1);	/* SUNSOL */
	ck_assert_int_eq(bs_config_host(cfg, "hostK")->jl_u, 1);
	b = joined(bs_config_host_group_expand(cfg, "groupB"));
	ck_assert_str_eq(b, "hostD hostK");
	bs_config_free(cfg);
}
END_TEST

START_TEST(test_sample_users)
{
	BsConfig *cfg;
	g_autofree char *diags = load_sample("lsb.users", &cfg);
	const BsShare *s;

	ck_assert_str_eq(diags, "");
	s = bs_config_user_group(cfg, "groupC")->shares->pdata[2];
	ck_assert_str_eq(s->name, "default");
	ck_assert_int_eq(s->shares, 10);
	ck_assert_int_eq(((BsUserConf *)cfg->users->users->pdata[2])->max_pend_slots, 20);
	bs_config_free(cfg);
}
END_TEST

START_TEST(test_sample_queues)
{
	BsConfig *cfg;
	g_autofree char *diags = load_sample("lsb.queues", &cfg);
	const BsQueueConf *normal;

	ck_assert_str_eq(diags, "");
	normal = bs_config_queue(cfg, "normal");
	ck_assert_str_eq(((BsQueueRef *)normal->preemption.preemptive_queues->pdata[0])->queue, "low");
	ck_assert_str_eq(((BsQueueRef *)normal->preemption.preemptable_queues->pdata[1])->queue,
	    "medium");
	ck_assert_int_eq(bs_config_queue(cfg, "low")->priority, 1);
	bs_config_free(cfg);
}
END_TEST

START_TEST(test_sample_resources)
{
	BsConfig *cfg;
	g_autofree char *diags = load_sample("lsb.resources", &cfg);
	const BsResourceSection *s;

	ck_assert_str_eq(diags, "");
	ck_assert_uint_eq(cfg->resources->sections->len, 3);
	s = cfg->resources->sections->pdata[2];
	ck_assert_str_eq(s->kind, "SharedResourceExport");
	ck_assert_str_eq(((BsConfPair *)s->pairs->pdata[2])->value, "([C1, 30] [C2, 70])");
	ck_assert_int_eq(((BsConfPair *)s->pairs->pdata[2])->line, 21);
	/* The HostExport sections, typed; the local cluster leaves DISTRIBUTION. */
	ck_assert_uint_eq(cfg->resources->exports->len, 2);
	{
		const BsHostExport *e = bs_config_host_export(cfg, "export1");
		const BsHostExport *r = bs_config_host_export(cfg, "export2");

		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(e->kind, BS_EXPORT_PER_HOST);
		ck_assert_str_eq(e->per_host[1], "hostB");
		ck_assert_int_eq(e->slots, 4);
		ck_assert_int_eq(e->mem, 100);
		ck_assert_int_eq(e->swp, 100);
		ck_assert(e->shared);
		ck_assert_uint_eq(e->distribution->len, 1);
		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(r->kind, BS_EXPORT_RES_SELECT);
		ck_assert_str_eq(r->res_select, "type==LINUX");
		ck_assert_int_eq(r->nhosts, 10);
		ck_assert(!r->shared);
		ck_assert_uint_eq(r->distribution->len, 1);
		ck_assert_str_eq(((BsShare *)r->distribution->pdata[0])->name, "other");
		ck_assert_int_eq(((BsShare *)r->distribution->pdata[0])->shares, 3);
	}
	bs_config_free(cfg);
}
END_TEST

/* ---- one case per kind of diagnostic ------------------------------------- */

typedef struct {
	const char *file;
	const char *text;
	const char *want;   /* every diagnostic, in order */
	gboolean loads;     /* warnings only */
} ErrCase;

#define Q1 "Begin Queue\nQUEUE_NAME = a\n"
#define QEND "End Queue\n"

static const ErrCase err_cases[] = {
	{ "lsb.queues", Q1 "PRIORITY = abc\n" QEND,
	  "lsb.queues:3: bad value 'abc' for PRIORITY: not an integer\n", FALSE },
	{ "lsb.queues", Q1 "NICE = 40\n" QEND,
	  "lsb.queues:3: bad value '40' for NICE: out of range -20..19\n", FALSE },
	{ "lsb.queues", Q1 "RUN_WINDOW = 8:00-25:00\n" QEND,
	  "lsb.queues:3: bad value '8:00-25:00' for RUN_WINDOW: hour '25' is not 0-23\n", FALSE },
	{ "lsb.params", "Begin Parameters\nPREEMPT_FOR = GROUP_MAX FAST\nEnd Parameters\n",
	  "lsb.params:2: bad value 'GROUP_MAX FAST' for PREEMPT_FOR: unknown keyword FAST "
	  "(expected GROUP_JLP GROUP_MAX HOST_JLU USER_JLP LEAST_RUN_TIME MINI_JOB "
	  "OPTIMAL_MINI_JOB)\n", FALSE },
	{ "lsb.queues", Q1 "PREEMPTION = PREEMPTIVE[q1+q2]\n" QEND,
	  "lsb.queues:3: bad value 'PREEMPTIVE[q1+q2]' for PREEMPTION: 'q1+q2': + must be "
	  "followed by a preference number\n", FALSE },
	{ "lsb.queues", Q1 "PREEMPTION = PREEMPTIVE[low] PREEMPTIBLE\n" QEND,
	  "lsb.queues:3: bad value 'PREEMPTIVE[low] PREEMPTIBLE' for PREEMPTION: unknown keyword "
	  "PREEMPTIBLE (expected PREEMPTIVE or PREEMPTABLE)\n", FALSE },
	{ "lsb.queues", Q1 "PRIORITY = 2\n",
	  "lsb.queues:1: Begin Queue without End Queue\n", FALSE },
	{ "lsb.queues", Q1 "PRIORITY = 2\nPRIORITY = 3\n" QEND,
	  "lsb.queues:4: duplicate PRIORITY (first set at line 3)\n", FALSE },
	{ "lsb.queues", Q1 QEND "\n" Q1 QEND,
	  "lsb.queues:6: duplicate queue a (first defined at line 2)\n", FALSE },
	{ "lsb.queues", Q1 "PRIORITY = 5\nPREEMPTION = PREEMPTIVE[nosuch]\n" QEND,
	  "lsb.queues:4: queue a: PREEMPTION names unknown queue nosuch\n", FALSE },
	{ "lsb.params", "Begin Parameters\nMAX_JOB_GROUPS_PER_USER = 0\nEnd Parameters\n",
	  "lsb.params:2: bad value '0' for MAX_JOB_GROUPS_PER_USER: out of range 1..100000\n",
	  FALSE },
	{ "lsb.params", "Begin Parameters\nDEFAULT_QUEUE = nosuch\nEnd Parameters\n",
	  "lsb.params:2: DEFAULT_QUEUE names unknown queue nosuch\n", FALSE },
	{ "lsb.queues", Q1 "SLOT_POOL = P\nSLOT_SHARE = 50\nPREEMPTION = PREEMPTABLE\n" QEND,
	  "lsb.queues:5: queue a is in slot pool P and cannot be preemptive or preemptable\n", FALSE },
	{ "lsb.queues", Q1 "SLOT_POOL = P\nSLOT_SHARE = 60\n" QEND
	  "Begin Queue\nQUEUE_NAME = b\nSLOT_POOL = P\nSLOT_SHARE = 50\n" QEND,
	  "lsb.queues:9: slot pool P: SLOT_SHARE adds up to 110, over 100\n", FALSE },
	{ "lsb.queues", Q1 "SLOT_POOL = P\nSLOT_SHARE = 60\nHOSTS = groupA\n" QEND
	  "Begin Queue\nQUEUE_NAME = b\nSLOT_POOL = P\nSLOT_SHARE = 10\nHOSTS = hostA\n" QEND,
	  "lsb.queues:11: queue b in slot pool P has different HOSTS from queue a\n", FALSE },
	{ "lsb.queues", Q1 "HOSTS = hostA hostX+1 h@other\n" QEND,
	  "lsb.queues:3: queue a: HOSTS names hostX, which is neither a host of cluster basalt "
	  "nor a host group\n", FALSE },
	{ "lsb.hosts", "Begin HostGroup\nGROUP_NAME GROUP_MEMBER\ng1 (hostA g2)\ng2 (~g1)\n"
	  "End HostGroup\n",
	  "lsb.hosts:4: host group cycle: g1 -> g2 -> g1\n", FALSE },
	{ "lsb.hosts", "Begin Host\nHOST_NAME MXJ JL/U\nhostA 1\nhostB 1 - -\nEnd Host\n",
	  "lsb.hosts:3: row has 2 values but the Host header at line 2 has 3 columns\n"
	  "lsb.hosts:4: row has 4 values but the Host header at line 2 has 3 columns\n", FALSE },
	{ "lsb.hosts", "Begin Host\nHOST_NAME MXJ\nhostA x\nhostQ 2\nEnd Host\n"
	  "Begin HostGroup\nGROUP_NAME GROUP_MEMBER\nhostB (hostA)\nall (hostA)\nEnd HostGroup\n",
	  "lsb.hosts:3: bad value 'x' for MXJ: not an integer\n"
	  "lsb.hosts:4: warning: host hostQ is not a host of cluster basalt, ignoring\n"
	  "lsb.hosts:8: host group name hostB is also a host name\n"
	  "lsb.hosts:9: host group name all is reserved\n", FALSE },
	{ "lsb.params", "Begin Parameters\nFOO = 1\nMC_RECLAIM_DELAY = 5\nEnd Parameters\n"
	  "Begin Whatever\nX = 1\nEnd Whatever\n",
	  "lsb.params:2: warning: unknown parameter FOO, ignoring\n"
	  "lsb.params:5: warning: unknown section Whatever, ignoring\n", TRUE },
	{ "lsb.queues", Q1 "PRIORITY = 5\nPREEMPTION = PREEMPTIVE[b]\n" QEND
	  "Begin Queue\nQUEUE_NAME = b\nPRIORITY = 7\n" QEND,
	  "lsb.queues:4: warning: queue a: PREEMPTIVE[b] names a queue of equal or higher "
	  "priority, ignoring\n"
	  "lsb.queues:4: warning: queue a: no queue is left in PREEMPTIVE[], so the queue "
	  "preempts no queue\n", TRUE },
	{ "lsb.queues", Q1 "PRIORITY = 5\nPREEMPTION = PREEMPTABLE[b]\n" QEND
	  "Begin Queue\nQUEUE_NAME = b\nPRIORITY = 3\n" QEND,
	  "lsb.queues:4: warning: queue a: PREEMPTABLE[b] names a queue of equal or lower "
	  "priority, ignoring\n"
	  "lsb.queues:4: warning: queue a: no queue is left in PREEMPTABLE[], so the queue "
	  "is preempted by no queue\n", TRUE },
	/* lsb.queues(5): a pool queue in a preemption list is an error. */
	{ "lsb.queues", Q1 "PRIORITY = 5\nPREEMPTION = PREEMPTIVE[b]\n" QEND
	  "Begin Queue\nQUEUE_NAME = b\nPRIORITY = 3\nSLOT_POOL = P\nSLOT_SHARE = 50\n" QEND,
	  "lsb.queues:4: queue a: PREEMPTIVE[b] names a queue of slot pool P, which cannot be "
	  "preempted or preempt\n", FALSE },
	{ "lsb.queues", Q1 "PRIORITY = 5\nPREEMPTION = PREEMPTABLE[b]\n" QEND
	  "Begin Queue\nQUEUE_NAME = b\nPRIORITY = 7\nSLOT_POOL = P\nSLOT_SHARE = 50\n" QEND,
	  "lsb.queues:4: queue a: PREEMPTABLE[b] names a queue of slot pool P, which cannot be "
	  "preempted or preempt\n", FALSE },
	{ "lsb.queues", Q1 "SLOT_POOL = P\nSLOT_SHARE = 60\nSLOT_RESERVE = MAX_RESERVE_TIME[5]\n"
	  QEND "Begin Queue\nQUEUE_NAME = b\nFAIRSHARE_QUEUES = a\n" QEND,
	  "lsb.queues:5: warning: queue a: SLOT_RESERVE in slot pool P; reserved slots count "
	  "against the queue's share\n"
	  "lsb.queues:9: warning: queue b: FAIRSHARE_QUEUES includes a of slot pool P; "
	  "cross-queue fairshare would undo the pool's shares\n", TRUE },
	{ "lsb.queues", Q1 "SLOT_POOL = P\nSLOT_SHARE = 60\nMAX_SLOTS_IN_POOL = 8\n"
	  "SLOT_RESERVE = MAX_RESERVE_TIME[5]\nBACKFILL = Y\n" QEND,
	  "lsb.queues:6: warning: queue a: SLOT_RESERVE in slot pool P; reserved slots count "
	  "against the queue's share, and with MAX_SLOTS_IN_POOL and BACKFILL its jobs do "
	  "not backfill into slots its own jobs reserved\n", TRUE },
	/* Several problems in one run come out in line order. */
	{ "lsb.queues", "Begin Queue\nQUEUE_NAME = default\nPRIORITY = 1\nPRIORITY = 2\n"
	  "RUNLIMIT = 10 5\nBOGUS = 1\nSUSPEND_CONTROL = SIGSTOP\nJOB_CONTROLS = SUSPEND[x]\n"
	  QEND "Begin Queue\nPRIORITY = 3\n" QEND,
	  "lsb.queues:2: bad value 'default' for QUEUE_NAME: the name default is reserved\n"
	  "lsb.queues:4: duplicate PRIORITY (first set at line 3)\n"
	  "lsb.queues:5: bad value '10 5' for RUNLIMIT: default 10 is above maximum 5\n"
	  "lsb.queues:6: warning: unknown parameter BOGUS, ignoring\n"
	  "lsb.queues:8: bad value 'SUSPEND[x]' for JOB_CONTROLS: the SUSPEND action is set twice\n"
	  "lsb.queues:10: Queue section without QUEUE_NAME\n", FALSE },
	{ "lsb.users", "Begin User\nUSER_NAME MAX_JOBS\nnogroup@ 1\nu1 -1\nEnd User\n",
	  "lsb.users:3: nogroup@: no user group nogroup in lsb.users\n"
	  "lsb.users:4: bad value '-1' for MAX_JOBS: out of range 0..2147483647\n", FALSE },
	{ "lsf.conf", "LSB_MBD_PORT=70000\nLSF_LOG_MASK=LOUD\n",
	  "lsf.conf:1: bad value '70000' for LSB_MBD_PORT: out of range 0..65535\n"
	  "lsf.conf:2: bad value 'LOUD' for LSF_LOG_MASK: expected LOG_ERR, LOG_WARNING, "
	  "LOG_NOTICE, LOG_INFO or LOG_DEBUG\n", FALSE },
	{ "lsb.resources", "Begin HostExport\nPER_HOST = hostA\nDISTRIBUTION = ([c1 1])\n"
	  "End HostExport\nBegin Unknown\nA = 1\nEnd Unknown\n",
	  "lsb.resources:1: HostExport section without SLOTS (required with PER_HOST)\n"
	  "lsb.resources:3: bad value '([c1 1])' for DISTRIBUTION: expected [name, shares]\n"
	  "lsb.resources:5: warning: unknown section Unknown, ignoring\n", FALSE },
};

START_TEST(test_errors)
{
	const ErrCase *c = &err_cases[_i];
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	if (strcmp(c->file, "lsf.conf") == 0) {
		conf_write(dir, "lsf.conf", c->text);
	} else {
		conf_write(dir, c->file, c->text);
	}
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, c->want);
	ck_assert(c->loads == (cfg != NULL));
	bs_config_free(cfg);
	conf_rmtree(dir);
}
END_TEST

/* A list emptied by the priority check allows nothing, and the kept
 * keyword of the other side is untouched. */
START_TEST(test_emptied_list_allows_nothing)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	const BsQueueConf *a, *c;
	BsConfig *cfg;

	conf_write(dir, "lsb.queues", Q1 "PRIORITY = 5\nPREEMPTION = PREEMPTIVE[vip] "
	    "PREEMPTABLE\n" QEND "Begin Queue\nQUEUE_NAME = vip\nPRIORITY = 9\n" QEND
	    "Begin Queue\nQUEUE_NAME = c\nPRIORITY = 5\nPREEMPTION = PREEMPTABLE[low]\n" QEND
	    "Begin Queue\nQUEUE_NAME = low\nPRIORITY = 1\n" QEND);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_ptr_nonnull(cfg);
	a = bs_config_queue(cfg, "a");
	ck_assert(!a->preemption.preemptive);
	ck_assert_ptr_null(a->preemption.preemptive_queues);
	ck_assert(a->preemption.preemptable);
	c = bs_config_queue(cfg, "c");
	ck_assert(!c->preemption.preemptable);
	ck_assert_ptr_null(c->preemption.preemptable_queues);
	bs_config_free(cfg);
	conf_rmtree(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_load");
	TCase *good = tcase_create("good");
	TCase *samples = tcase_create("samples");
	TCase *errors = tcase_create("errors");

	tcase_add_test(good, test_good_queues);
	tcase_add_test(good, test_good_pool_and_fairshare);
	tcase_add_test(good, test_good_hosts_users);
	tcase_add_test(good, test_good_params_cluster);
	tcase_add_test(good, test_absent_optional_files);
	tcase_add_test(good, test_missing_lsf_conf);
	tcase_add_test(good, test_unit_for_limits);
	tcase_add_test(good, test_lsf_layout_and_envdir);
	tcase_add_test(good, test_reload);
	tcase_add_test(samples, test_sample_hosts);
	tcase_add_test(samples, test_sample_users);
	tcase_add_test(samples, test_shipped_conf);
	tcase_add_test(samples, test_sample_queues);
	tcase_add_test(samples, test_sample_resources);
	tcase_add_loop_test(errors, test_errors, 0, G_N_ELEMENTS(err_cases));
	tcase_add_test(errors, test_emptied_list_allows_nothing);
	suite_add_tcase(s, good);
	suite_add_tcase(s, samples);
	suite_add_tcase(s, errors);
	return bs_run_suite(s);
}
