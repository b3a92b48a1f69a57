/*
 * lsb.queues: one `Begin Queue` section per queue (lsf-reference.md 1.1).
 *
 * The table below is the list of supported queue parameters with their
 * types, ranges and LSF defaults.  Load-index keys (`r1m = 0.6/1.6`) are
 * queue thresholds.  A duplicate QUEUE_NAME is an error at the second
 * one; checks that need other files (PREEMPTION names, HOSTS names, slot
 * pools) are in conf_check.c.  No queue at all gives the queue `default`
 * with all defaults, as LSF does.
 */
#include "config.h"

#include <stddef.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

#define Q(f) offsetof(BsQueueConf, f)
#define IMAX 2147483647.0

static const char *const terminate_when_names[] = { "LOAD", "PREEMPT", "WINDOW", NULL };
static const char *const interactive_names[] = { "YES", "NO", "ONLY", NULL };

#define CUSTOM(name, field, fn, freefn) \
	{ name, BS_CT_CUSTOM, .offset = Q(field), .parse = fn, .free_fn = freefn }
#define ALIAS(name, field, fn) \
	{ name, BS_CT_CUSTOM, .offset = Q(field), .parse = fn, .alias = TRUE }

static const BsConfKey queue_table[] = {
	CUSTOM("QUEUE_NAME", name, bs_conf_parse_queue_name, bs_conf_string_clear),
	{ "PRIORITY", BS_CT_INT, .offset = Q(priority), 0, IMAX, .def = "1" },
	{ "NICE", BS_CT_INT, .offset = Q(nice), -20, 19, .def = "0" },
	{ "DESCRIPTION", BS_CT_STRING, .offset = Q(description), 0, 512 },
	CUSTOM("HOSTS", hosts, bs_conf_parse_hosts, bs_conf_ptr_array_clear),
	{ "USERS", BS_CT_NAMES, .offset = Q(users) },
	{ "ADMINISTRATORS", BS_CT_NAMES, .offset = Q(administrators) },
	{ "QJOB_LIMIT", BS_CT_INT, .offset = Q(qjob_limit), 0, IMAX, .def = "-1" },
	{ "UJOB_LIMIT", BS_CT_INT, .offset = Q(ujob_limit), 0, IMAX, .def = "-1" },
	{ "HJOB_LIMIT", BS_CT_INT, .offset = Q(hjob_limit), 0, IMAX, .def = "-1" },
	{ "PJOB_LIMIT", BS_CT_FLOAT, .offset = Q(pjob_limit), 0, IMAX, .def = "-1" },
	{ "RUNLIMIT", BS_CT_TIME_LIMIT, .offset = Q(runlimit) },
	{ "CPULIMIT", BS_CT_TIME_LIMIT, .offset = Q(cpulimit) },
	{ "MEMLIMIT", BS_CT_SIZE_LIMIT, .offset = Q(memlimit) },
	{ "CORELIMIT", BS_CT_SIZE_LIMIT, .offset = Q(corelimit) },
	{ "DATALIMIT", BS_CT_SIZE_LIMIT, .offset = Q(datalimit) },
	{ "FILELIMIT", BS_CT_SIZE_LIMIT, .offset = Q(filelimit) },
	{ "STACKLIMIT", BS_CT_SIZE_LIMIT, .offset = Q(stacklimit) },
	{ "SWAPLIMIT", BS_CT_SIZE_LIMIT, .offset = Q(swaplimit) },
	{ "PROCESSLIMIT", BS_CT_INT, .offset = Q(processlimit), 1, IMAX, .def = "-1" },
	{ "THREADLIMIT", BS_CT_INT, .offset = Q(threadlimit), 1, IMAX, .def = "-1" },
	CUSTOM("PROCLIMIT", proclimit, bs_conf_parse_proclimit, NULL),
	ALIAS("TASKLIMIT", proclimit, bs_conf_parse_proclimit),
	CUSTOM("PREEMPTION", preemption, bs_conf_parse_preemption, bs_conf_preemption_clear),
	CUSTOM("CONSUMER", consumer, bs_conf_parse_consumer_path, bs_conf_string_clear),
	{ "SLOT_POOL", BS_CT_STRING, .offset = Q(slot_pool), 0, 60 },
	{ "SLOT_SHARE", BS_CT_INT, .offset = Q(slot_share), 1, 100, .def = "0" },
	{ "MAX_SLOTS_IN_POOL", BS_CT_INT, .offset = Q(max_slots_in_pool), 1, IMAX, .def = "-1" },
	{ "USE_PRIORITY_IN_POOL", BS_CT_BOOL, .offset = Q(use_priority_in_pool), .def = "N" },
	CUSTOM("FAIRSHARE", fairshare, bs_conf_parse_fairshare, bs_conf_ptr_array_clear),
	{ "FAIRSHARE_QUEUES", BS_CT_NAMES, .offset = Q(fairshare_queues) },
	{ "RCVJOBS_FROM", BS_CT_NAMES, .offset = Q(rcvjobs_from) },
	{ "SNDJOBS_TO", BS_CT_NAMES, .offset = Q(sndjobs_to) },
	{ "MAX_JOB_PREEMPT", BS_CT_INT, .offset = Q(max_job_preempt), 1, IMAX, .def = "-1" },
	CUSTOM("LOCAL_MAX_PREEXEC_RETRY_ACTION", local_max_preexec_retry_action,
	    bs_conf_parse_preexec_action, NULL),
	{ "TERMINATE_WHEN", BS_CT_FLAGS, .offset = Q(terminate_when), .names = terminate_when_names },
	CUSTOM("REQUEUE_EXIT_VALUES", requeue_exit_values, bs_conf_parse_requeue,
	    bs_conf_requeue_clear),
	{ "JOB_STARTER", BS_CT_STRING, .offset = Q(job_starter), 0, 4095 },
	{ "JOB_WARNING_ACTION", BS_CT_CUSTOM, .offset = Q(job_warning_action),
	    .parse = bs_conf_parse_warning_action, .free_fn = bs_conf_free_string },
	{ "JOB_ACTION_WARNING_TIME", BS_CT_CUSTOM, .offset = Q(job_action_warning_time),
	    .parse = bs_conf_parse_warning_time },
	{ "PRE_EXEC", BS_CT_STRING, .offset = Q(pre_exec), 0, 4095 },
	{ "POST_EXEC", BS_CT_STRING, .offset = Q(post_exec), 0, 4095 },
	{ "RUN_WINDOW", BS_CT_WINDOWS, .offset = Q(run_window) },
	{ "DISPATCH_WINDOW", BS_CT_WINDOWS, .offset = Q(dispatch_window) },
	CUSTOM("JOB_CONTROLS", job_controls, bs_conf_parse_job_controls,
	    bs_conf_job_controls_clear),
	ALIAS("SUSPEND_CONTROL", job_controls, bs_conf_parse_control_alias),
	ALIAS("RESUME_CONTROL", job_controls, bs_conf_parse_control_alias),
	ALIAS("TERMINATE_CONTROL", job_controls, bs_conf_parse_control_alias),
	{ "STOP_COND", BS_CT_STRING, .offset = Q(stop_cond), 0, 4095 },
	{ "RESUME_COND", BS_CT_STRING, .offset = Q(resume_cond), 0, 4095 },
	{ "RES_REQ", BS_CT_STRING, .offset = Q(res_req), 0, 4095 },
	CUSTOM("SLOT_RESERVE", slot_reserve_time, bs_conf_parse_slot_reserve, NULL),
	{ "BACKFILL", BS_CT_BOOL, .offset = Q(backfill), .def = "N" },
	{ "INTERACTIVE", BS_CT_ENUM, .offset = Q(interactive), .names = interactive_names, .def = "YES" },
	CUSTOM("EXCLUSIVE", exclusive, bs_conf_parse_exclusive, bs_conf_exclusive_clear),
	{ "CHKPNT", BS_CT_STRING, .offset = Q(chkpnt), 0, 4095 },
	{ "RERUNNABLE", BS_CT_BOOL, .offset = Q(rerunnable), .def = "N" },
	{ "MIG", BS_CT_INT, .offset = Q(mig), 0, IMAX, .def = "-1" },
	{ "JOB_ACCEPT_INTERVAL", BS_CT_INT, .offset = Q(job_accept_interval), 0, IMAX, .def = "-1" },
	{ "NEW_JOB_SCHED_DELAY", BS_CT_INT, .offset = Q(new_job_sched_delay), 0, IMAX, .def = "-1" },
	{ "DEFAULT_HOST_SPEC", BS_CT_STRING, .offset = Q(default_host_spec), 0, 255 },
	{ "HIST_HOURS", BS_CT_INT, .offset = Q(hist_hours), 0, IMAX, .def = "-1" },
	{ "CPU_TIME_FACTOR", BS_CT_FLOAT, .offset = Q(cpu_time_factor), 0, G_MAXDOUBLE, .def = "-1" },
	{ "RUN_TIME_FACTOR", BS_CT_FLOAT, .offset = Q(run_time_factor), 0, G_MAXDOUBLE, .def = "-1" },
	{ "RUN_JOB_FACTOR", BS_CT_FLOAT, .offset = Q(run_job_factor), 0, G_MAXDOUBLE, .def = "-1" },
	CUSTOM("DISPATCH_ORDER", dispatch_order_queue, bs_conf_parse_dispatch_order, NULL),
	{ "IGNORE_DEADLINE", BS_CT_BOOL, .offset = Q(ignore_deadline), .def = "N" },
	{ NULL },
};

BsQueueConf *
bs_conf_queue_new(void)
{
	BsQueueConf *q = g_new0(BsQueueConf, 1);

	bs_conf_schema_init(queue_table, q);
	q->slot_reserve_time = BS_CONF_UNLIMITED;
	q->proclimit.min = q->proclimit.def = q->proclimit.max = BS_CONF_UNLIMITED;
	return q;
}

void
bs_conf_queue_free(BsQueueConf *q)
{
	if (q == NULL)
		return;
	bs_conf_schema_clear(queue_table, q);
	g_clear_pointer(&q->load_thresholds, g_ptr_array_unref);
	g_clear_pointer(&q->key_lines, g_hash_table_unref);
	g_free(q);
}

static void
queue_threshold(const BsConfCtx *ctx, BsQueueConf *q, const BsLexPair *pr)
{
	g_autoptr(GString) why = g_string_new(NULL);
	BsLoadThreshold *t;

	if (!bs_conf_parse_threshold(pr->key, pr->value, &t, why)) {
		ctx_error(ctx, pr->line, "bad value '%s' for %s: %s", pr->value, pr->key, why->str);
		return;
	}
	if (q->load_thresholds == NULL)
		q->load_thresholds = g_ptr_array_new_with_free_func(bs_conf_threshold_free);
	g_ptr_array_add(q->load_thresholds, t);
}

static BsQueueConf *
queue_from_section(const BsConfCtx *ctx, const BsLexSection *s)
{
	BsQueueConf *q = bs_conf_queue_new();

	q->line = s->line;
	for (guint i = 0; i < s->pairs->len; i++) {
		const BsLexPair *pr = s->pairs->pdata[i];

		bs_conf_record_line(&q->key_lines, pr->key, pr->line);
		if (bs_conf_is_load_index(pr->key))
			queue_threshold(ctx, q, pr);
		else if (!bs_conf_set_pair(ctx, queue_table, q, pr->key, pr->value, pr->line))
			ctx_warning(ctx, pr->line, "unknown parameter %s, ignoring", pr->key);
	}
	return q;
}

static void
add_queue(BsConfig *cfg, const BsConfCtx *ctx, BsQueueConf *q, const BsLexSection *s)
{
	const BsQueueConf *first;

	if (q->name == NULL) {
		if (bs_conf_key_line(q->key_lines, "QUEUE_NAME") == 0)
			ctx_error(ctx, s->line, "Queue section without QUEUE_NAME");
		bs_conf_queue_free(q);
		return;
	}
	first = g_hash_table_lookup(cfg->queue_by_name, q->name);
	if (first != NULL) {
		ctx_error(ctx, bs_conf_key_line(q->key_lines, "QUEUE_NAME"),
		    "duplicate queue %s (first defined at line %d)", q->name,
		    bs_conf_key_line(first->key_lines, "QUEUE_NAME"));
		bs_conf_queue_free(q);
		return;
	}
	g_ptr_array_add(cfg->queues, q);
	g_hash_table_insert(cfg->queue_by_name, q->name, q);
}

void
bs_conf_queues_add_default(BsConfig *cfg)
{
	BsQueueConf *q = bs_conf_queue_new();

	q->name = g_strdup("default");
	g_ptr_array_add(cfg->queues, q);
	g_hash_table_insert(cfg->queue_by_name, q->name, q);
}

void
bs_conf_queues_load(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	for (guint i = 0; f != NULL && i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		if (g_ascii_strcasecmp(s->name, "Queue") != 0 || s->table) {
			bs_conf_unknown_section(ctx, s);
			continue;
		}
		add_queue(cfg, ctx, queue_from_section(ctx, s), s);
	}
	if (cfg->queues->len == 0)
		bs_conf_queues_add_default(cfg);
}
