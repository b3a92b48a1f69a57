/*
 * lsb.params: the Parameters section (lsf-reference.md section 2).
 *
 * Every parameter of the reference has a row below with its LSF default
 * and range; unknown keys are warnings (sites carry keys we do not
 * implement).  Times are seconds unless the comment in conf.h says
 * otherwise.  MC_RECLAIM_DELAY is written in minutes as LSF's, or with an
 * `s` suffix in seconds (decisions.md), and stored in seconds.
 *
 * POOL_USAGE_HALF_LIFE is Basalt's own: the half-life in hours of the
 * decayed slot usage that orders the queues of a slot pool (decisions.md,
 * "Queue-based fairshare").  Unset, it takes the value of HIST_HOURS; 0
 * means no decay.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

#define P(f) offsetof(BsParamsConf, f)
#define IMAX 2147483647.0

static const char *const preempt_for_names[] = {
	"GROUP_JLP", "GROUP_MAX", "HOST_JLU", "USER_JLP", "LEAST_RUN_TIME",
	"MINI_JOB", "OPTIMAL_MINI_JOB", NULL,
};
static const char *const reclaim_criteria_names[] = {
	"POLICY_DEFAULT", "MOST_RECENT_TASK", NULL
};
static const char *const preempt_jobtype_names[] = {
	"EXCLUSIVE", "BACKFILL", "AFFINITY", NULL,
};

/* Minutes, or seconds with an `s` suffix; stored as seconds. */
static gboolean
parse_reclaim_delay(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autofree char *v = g_strdup(value);
	gsize n = strlen(v);
	int mult = 60, x;

	if (n > 0 && (v[n - 1] == 's' || v[n - 1] == 'S')) {
		v[n - 1] = '\0';
		mult = 1;
	}
	if (!bs_conf_parse_int(v, 1, IMAX / 60, &x, why))
		return FALSE;
	*(int *)field = x * mult;
	return TRUE;
}

static const BsConfKey params_table[] = {
	{ "DEFAULT_QUEUE", BS_CT_NAMES, .offset = P(default_queue) },
	{ "MBD_SLEEP_TIME", BS_CT_INT, .offset = P(mbd_sleep_time), 1, IMAX, .def = "60" },
	{ "SBD_SLEEP_TIME", BS_CT_INT, .offset = P(sbd_sleep_time), 1, IMAX, .def = "30" },
	{ "JOB_ACCEPT_INTERVAL", BS_CT_INT, .offset = P(job_accept_interval), 0, IMAX, .def = "1" },
	{ "MAX_JOB_NUM", BS_CT_INT, .offset = P(max_job_num), 1, IMAX, .def = "1000" },
	{ "MAX_JOB_ARRAY_SIZE", BS_CT_INT, .offset = P(max_job_array_size), 1, 2147483646, .def = "1000" },
	{ "MAX_JOBID", BS_CT_INT, .offset = P(max_jobid), 999999, 2147483646, .def = "999999" },
	{ "CLEAN_PERIOD", BS_CT_INT, .offset = P(clean_period), 1, IMAX, .def = "3600" },
	{ "PREEMPT_FOR", BS_CT_FLAGS, .offset = P(preempt_for), .names = preempt_for_names },
	{ "PREEMPTION_WAIT_TIME", BS_CT_INT, .offset = P(preemption_wait_time), 0, IMAX, .def = "300" },
	{ "PREEMPTABLE_RESOURCES", BS_CT_NAMES, .offset = P(preemptable_resources) },
	{ "PREEMPT_JOBTYPE", BS_CT_FLAGS, .offset = P(preempt_jobtype), .names = preempt_jobtype_names },
	{ "MAX_JOB_PREEMPT", BS_CT_INT, .offset = P(max_job_preempt), 1, IMAX, .def = "-1" },
	{ "MAX_PREEXEC_RETRY", BS_CT_INT, .offset = P(max_preexec_retry), 1, IMAX, .def = "5" },
	{ "LOCAL_MAX_PREEXEC_RETRY", BS_CT_INT, .offset = P(local_max_preexec_retry), 1, IMAX,
	    .def = "-1" },
	{ "JOB_PREPROC_TIMEOUT", BS_CT_INT, .offset = P(job_preproc_timeout), 1, IMAX / 60,
	    .def = "-1" },
	{ "JOB_POSTPROC_TIMEOUT", BS_CT_INT, .offset = P(job_postproc_timeout), 1, IMAX / 60,
	    .def = "-1" },
	{ "LOCAL_MAX_PREEXEC_RETRY_ACTION", BS_CT_CUSTOM,
	    .offset = P(local_max_preexec_retry_action), .parse = bs_conf_parse_preexec_action },
	{ "MC_RECLAIM_DELAY", BS_CT_CUSTOM, .offset = P(mc_reclaim_delay), .def = "10",
	    .parse = parse_reclaim_delay },
	{ "MC_PENDING_REASON_UPDATE_INTERVAL", BS_CT_INT, .offset = P(mc_pending_reason_update_interval),
	    0, IMAX, .def = "300" },
	{ "MC_PENDING_REASON_PKG_SIZE", BS_CT_INT, .offset = P(mc_pending_reason_pkg_size), 0, IMAX,
	    .def = "512" },
	{ "HIST_HOURS", BS_CT_INT, .offset = P(hist_hours), 0, IMAX, .def = "5" },
	{ "CPU_TIME_FACTOR", BS_CT_FLOAT, .offset = P(cpu_time_factor), 0, G_MAXDOUBLE, .def = "0.7" },
	{ "RUN_TIME_FACTOR", BS_CT_FLOAT, .offset = P(run_time_factor), 0, G_MAXDOUBLE, .def = "0.7" },
	{ "RUN_JOB_FACTOR", BS_CT_FLOAT, .offset = P(run_job_factor), 0, G_MAXDOUBLE, .def = "3.0" },
	{ "COMMITTED_RUN_TIME_FACTOR", BS_CT_FLOAT, .offset = P(committed_run_time_factor), 0, 1,
	    .def = "0" },
	{ "FAIRSHARE_ADJUSTMENT_FACTOR", BS_CT_FLOAT, .offset = P(fairshare_adjustment_factor), 0,
	    G_MAXDOUBLE, .def = "0" },
	{ "ENABLE_EVENT_STREAM", BS_CT_BOOL, .offset = P(enable_event_stream), .def = "N" },
	{ "MAX_EVENT_STREAM_SIZE", BS_CT_INT, .offset = P(max_event_stream_size), 1, IMAX, .def = "1024" },
	{ "MAX_EVENT_STREAM_FILE_NUMBER", BS_CT_INT, .offset = P(max_event_stream_file_number), 1, IMAX,
	    .def = "10" },
	{ "MAX_SBD_FAIL", BS_CT_INT, .offset = P(max_sbd_fail), 1, IMAX, .def = "3" },
	{ "JOB_TERMINATE_INTERVAL", BS_CT_INT, .offset = P(job_terminate_interval), 0, IMAX, .def = "10" },
	{ "MAX_PEND_JOBS", BS_CT_INT, .offset = P(max_pend_jobs), 0, IMAX, .def = "-1" },
	{ "MAX_PEND_SLOTS", BS_CT_INT, .offset = P(max_pend_slots), 0, IMAX, .def = "2147483647" },
	{ "MAX_USER_PRIORITY", BS_CT_INT, .offset = P(max_user_priority), 1, IMAX, .def = "-1" },
	{ "JOB_PRIORITY_OVER_TIME", BS_CT_STRING, .offset = P(job_priority_over_time) },
	{ "SUB_TRY_INTERVAL", BS_CT_INT, .offset = P(sub_try_interval), 0, IMAX, .def = "60" },
	{ "MAX_SBD_CONNS", BS_CT_INT, .offset = P(max_sbd_conns), 1, IMAX, .def = "-1" },
	{ "PG_SUSP_IT", BS_CT_INT, .offset = P(pg_susp_it), 0, IMAX, .def = "180" },
	{ "DEFAULT_PROJECT", BS_CT_STRING, .offset = P(default_project), 0, 511, .def = "default" },
	{ "JOB_SPOOL_DIR", BS_CT_STRING, .offset = P(job_spool_dir), 0, 4095 },
	{ "SHARED_RESOURCE_UPDATE_FACTOR", BS_CT_INT, .offset = P(shared_resource_update_factor), 1,
	    IMAX, .def = "-1" },
	{ "JOB_DISPATCH_PACK_SIZE", BS_CT_INT, .offset = P(job_dispatch_pack_size), 0, IMAX, .def = "300" },
	{ "JOB_SCHEDULING_INTERVAL", BS_CT_INT, .offset = P(job_scheduling_interval), 0, 45, .def = "0" },
	{ "SIMPLIFIED_GUARANTEE", BS_CT_BOOL, .offset = P(simplified_guarantee), .def = "N" },
	{ "DEFAULT_APPLICATION", BS_CT_STRING, .offset = P(default_application), 0, 59 },
	{ "POOL_USAGE_HALF_LIFE", BS_CT_INT, .offset = P(pool_usage_half_life), 0, IMAX, .def = "-1" },
	/* LSF's levels; Basalt's default is 5, not LSF's 0 (lsb.params(5)). */
	{ "SECURE_JOB_INFO_LEVEL", BS_CT_INT, .offset = P(secure_job_info_level), 0, 5, .def = "5" },
	{ "DEFAULT_JOBGROUP", BS_CT_STRING, .offset = P(default_jobgroup), 0, 511 },
	{ "JOB_GROUP_CLEAN", BS_CT_BOOL, .offset = P(job_group_clean), .def = "N" },
	/* Basalt: no user may take the whole BS_JOBGROUP_COUNT_MAX (100000). */
	{ "MAX_JOB_GROUPS_PER_USER", BS_CT_INT, .offset = P(max_job_groups_per_user), 1,
	    100000, .def = "1000" },
	{ "MAX_REQUEST_LIST_SIZE", BS_CT_INT, .offset = P(max_request_list_size), 1, IMAX,
	    .def = "100000" },
	{ "HYBRID_EVENLY_DISTRIBUTE_SLOTS", BS_CT_BOOL,
	    .offset = P(hybrid_evenly_distribute_slots), .def = "N" },
	{ "CONSUMER_RANK_DEFAULT", BS_CT_INT, .offset = P(consumer_rank_default), 0, IMAX,
	    .def = "-1" },
	/* Resource reclaim (decisions.md "Resource reclaim"). */
	{ "DISABLE_RECLAIM_HYBRID_OWN", BS_CT_BOOL,
	    .offset = P(disable_reclaim_hybrid_own), .def = "N" },
	{ "RECLAIM_SHARED", BS_CT_BOOL, .offset = P(reclaim_shared), .def = "Y" },
	{ "RECLAIM_OWNED_BEFORE_BORROW", BS_CT_BOOL,
	    .offset = P(reclaim_owned_before_borrow), .def = "N" },
	{ "USE_ANCESTOR_GRACE_PERIOD_FOR_RECLAIM", BS_CT_BOOL,
	    .offset = P(use_ancestor_grace_period_for_reclaim), .def = "N" },
	{ "RECLAIM_CRITERIA", BS_CT_ENUM, .offset = P(reclaim_criteria),
	    .names = reclaim_criteria_names, .def = "POLICY_DEFAULT" },
	{ NULL },
};

BsParamsConf *
bs_conf_params_new(void)
{
	BsParamsConf *p = g_new0(BsParamsConf, 1);

	bs_conf_schema_init(params_table, p);
	p->key_lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	return p;
}

void
bs_conf_params_free(BsParamsConf *p)
{
	if (p == NULL)
		return;
	bs_conf_schema_clear(params_table, p);
	g_hash_table_unref(p->key_lines);
	g_free(p);
}

void
bs_conf_params_load(BsParamsConf *p, const BsConfCtx *ctx, const BsLexFile *f)
{
	int seen = 0;

	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		if (g_ascii_strcasecmp(s->name, "Parameters") != 0 || s->table) {
			bs_conf_unknown_section(ctx, s);
			continue;
		}
		if (seen > 0) {
			ctx_error(ctx, s->line, "second Parameters section (the first is at line %d)",
			    seen);
			continue;
		}
		seen = s->line;
		for (guint j = 0; j < s->pairs->len; j++) {
			const BsLexPair *pr = s->pairs->pdata[j];

			bs_conf_record_line(&p->key_lines, pr->key, pr->line);
			if (!bs_conf_set_pair(ctx, params_table, p, pr->key, pr->value, pr->line))
				ctx_warning(ctx, pr->line, "unknown parameter %s, ignoring", pr->key);
		}
	}
}

void
bs_conf_params_finish(BsParamsConf *p)
{
	if (p->pool_usage_half_life == BS_CONF_UNLIMITED)
		p->pool_usage_half_life = p->hist_hours;
}
