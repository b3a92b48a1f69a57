/*
 * Every field of LSF 10.1's bjobs -o list, one table row each: its names
 * (aliases included), header, LSF's recommended width and the getter that
 * renders a job's value.  The -o parser and the -json printer
 * (bjobs-custom.c) only look fields up here, so a field's data is wired in
 * exactly one place: its getter.
 *
 * A getter returns FALSE when the job has no value, and the job then shows
 * "-" (an empty string in JSON), as LSF does for an unset value.  Fields
 * for which Basalt keeps no data at all (service classes, reservations,
 * license projects, multicluster forwarding, energy, GPUs, ...) use
 * get_none.  Durations follow -hms: "12 second(s)" or "00:00:12".
 */
#include "config.h"

#include <string.h>

#include "bjobs-fields.h"
#include "cmd-fields.h"
#include "cmd-util.h"
#include "usage-format.h"

static gboolean
get_none(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)v; (void)j; (void)o;
	return FALSE;
}

static gboolean
put_time(GString *v, gint64 t)
{
	if (t <= 0)
		return FALSE;
	cmd_time_short(v, t);
	return TRUE;
}

/* Seconds as "N second(s)", or "hh:mm:ss" under -hms. */
static void
put_duration(GString *v, gint64 secs, const BjobsOpts *o)
{
	if (secs < 0)
		secs = 0;
	if (o->hms)
		g_string_append_printf(v, "%02" G_GINT64_FORMAT ":%02d:%02d",
				       secs / 3600, (int)(secs / 60 % 60),
				       (int)(secs % 60));
	else
		g_string_append_printf(v, "%" G_GINT64_FORMAT " second(s)", secs);
}

/* CPU seconds keep a tenth of a second unless -hms. */
static void
put_cpu(GString *v, double secs, const BjobsOpts *o)
{
	if (o->hms)
		put_duration(v, (gint64)(secs + 0.5), o);
	else
		g_string_append_printf(v, "%.1f second(s)", secs);
}

static const Basalt__JobSpec *
spec_of(const Basalt__JobInfo *j)
{
	return j->spec;
}

static gboolean
is_state(const Basalt__JobInfo *j, Basalt__JobState s)
{
	return j->state == s;
}

static gboolean
is_pending(const Basalt__JobInfo *j)
{
	return is_state(j, BASALT__JOB_STATE__JOB_STATE_PEND) ||
	       is_state(j, BASALT__JOB_STATE__JOB_STATE_PSUSP);
}

/* Started and not finished: RUN, SSUSP, USUSP, UNKWN. */
static gboolean
is_started(const Basalt__JobInfo *j)
{
	return j->start_time > 0 && j->end_time <= 0 && !is_pending(j);
}

/* A limit the job runs with: the stamped one once started, else its own
 * request (0 in the spec means none). */
static gboolean
limit_of(const Basalt__JobLimit *eff, guint64 own, const Basalt__JobInfo *j,
	 guint64 *val)
{
	if (j->effective != NULL) {
		if (eff == NULL)
			return FALSE;
		*val = eff->value;
		return TRUE;
	}
	*val = own;
	return own > 0;
}

static gboolean
runlimit(const Basalt__JobInfo *j, guint64 *secs)
{
	const Basalt__JobSpec *s = spec_of(j);

	return limit_of(j->effective ? j->effective->runlimit_s : NULL,
			s ? s->runlimit_s : 0, j, secs);
}

/* Seconds the current or last run has lasted. */
static gint64
run_seconds(const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (j->start_time <= 0 || is_pending(j))
		return 0;
	return (j->end_time > 0 ? j->end_time : o->now) - j->start_time;
}

static gboolean
get_jobid(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	cmd_jobid(v, j->job_id, 0);
	return TRUE;
}

static gboolean
get_jobindex(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	g_string_append_printf(v, "%u", j->array_index);
	return TRUE;
}

static gboolean
get_stat(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	g_string_append(v, cmd_state_name(j->state));
	return TRUE;
}

static gboolean
get_user(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return cmd_field_str(v, j->user);
}

static gboolean
get_user_group(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->user_group);
}

static gboolean
get_queue(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return cmd_field_str(v, j->queue);
}

static gboolean
get_name(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	g_autofree char *n = bjobs_job_name(j);

	(void)o;
	return cmd_field_str(v, n);
}

static gboolean
get_proj(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (spec_of(j) == NULL || spec_of(j)->project[0] == '\0') {
		g_string_append(v, "default");
		return TRUE;
	}
	return cmd_field_str(v, spec_of(j)->project);
}

/* JobInfo.job_group is filled without detail too; "-" when in no group. */
static gboolean
get_job_group(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return cmd_field_str(v, j->job_group);
}

static gboolean
get_app(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->app_profile);
}

/* Basalt's own field: the job's lsb.consumers leaf (JobInfo.consumer). */
static gboolean
get_consumer(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return cmd_field_str(v, j->consumer);
}

static gboolean
get_dependency(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->dependency);
}

static gboolean
get_pend_reason(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return is_pending(j) && cmd_field_str(v, j->pending_reason);
}

static gboolean
get_suspend_reason(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return !is_pending(j) && j->end_time <= 0 &&
	       cmd_field_str(v, j->suspend_reason);
}

static gboolean
get_command(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->command);
}

/* bsub -E, else the queue's or application's PRE_EXEC it started with. */
static gboolean
get_pre_exec(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (spec_of(j) && cmd_field_str(v, spec_of(j)->pre_exec))
		return TRUE;
	return j->effective && cmd_field_str(v, j->effective->pre_exec);
}

static gboolean
get_post_exec(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return j->effective && cmd_field_str(v, j->effective->post_exec);
}

static gboolean
get_pids(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	const Basalt__ResourceUsage *u = j->usage;

	(void)o;
	if (u == NULL || u->n_pids == 0)
		return FALSE;
	for (size_t i = 0; i < u->n_pids; i++)
		g_string_append_printf(v, "%s%d", i ? "," : "", u->pids[i]);
	return TRUE;
}

/* Only an EXIT job has an exit code worth showing; a signal counts as
 * 128 + signal, as the shell reports it. */
static gboolean
get_exit_code(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->state != BASALT__JOB_STATE__JOB_STATE_EXIT)
		return FALSE;
	g_string_append_printf(v, "%d", j->term_signal > 0 ?
			       128 + j->term_signal : j->exit_status);
	return TRUE;
}

/* LSF's text for a limit's end ("TERM_MEMLIMIT: job killed after
 * reaching LSF memory usage limit"), else the reason mbatchd or the host
 * gave. */
static gboolean
get_exit_reason(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->term_reason != NULL && j->term_reason[0] != '\0') {
		const char *text = usage_term_text(j->term_reason);

		g_string_append(v, j->term_reason);
		if (text != NULL)
			g_string_append_printf(v, ": %s", text);
		return TRUE;
	}
	return cmd_field_str(v, j->exit_reason);
}

static gboolean
get_from(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return cmd_field_str(v, j->from_host);
}

static gboolean
get_first_host(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return j->n_exec_hosts > 0 && cmd_field_str(v, j->exec_hosts[0]);
}

static gboolean
get_exec(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	g_auto(GStrv) groups = bjobs_exec_groups(j);
	g_autofree char *joined = g_strjoinv(":", groups);

	(void)o;
	return cmd_field_str(v, joined);
}

static gboolean
get_nexec_host(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

	(void)o;
	if (j->n_exec_hosts == 0)
		return FALSE;
	for (size_t i = 0; i < j->n_exec_hosts; i++)
		g_hash_table_add(seen, j->exec_hosts[i]);
	g_string_append_printf(v, "%u", g_hash_table_size(seen));
	return TRUE;
}

static gboolean
get_nalloc_slot(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->n_exec_hosts == 0)
		return FALSE;
	g_string_append_printf(v, "%zu", j->n_exec_hosts);
	return TRUE;
}

static gboolean
get_slots(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint n = (guint)j->n_exec_hosts;

	(void)o;
	if (n == 0)
		n = spec_of(j) != NULL && spec_of(j)->min_slots > 0 ?
		    spec_of(j)->min_slots : 1;
	g_string_append_printf(v, "%u", n);
	return TRUE;
}

static gboolean
get_min_req(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	const Basalt__JobSpec *s = spec_of(j);

	(void)o;
	if (s == NULL)
		return FALSE;
	g_string_append_printf(v, "%u", s->min_slots > 0 ? s->min_slots : 1);
	return TRUE;
}

static gboolean
get_max_req(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	const Basalt__JobSpec *s = spec_of(j);

	(void)o;
	if (s == NULL)
		return FALSE;
	g_string_append_printf(v, "%u", s->max_slots > s->min_slots ?
			       s->max_slots : s->min_slots > 0 ?
			       s->min_slots : 1);
	return TRUE;
}

static gboolean
get_ask_hosts(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	const Basalt__JobSpec *s = spec_of(j);

	(void)o;
	if (s == NULL || s->n_hosts == 0)
		return FALSE;
	for (size_t i = 0; i < s->n_hosts; i++)
		g_string_append_printf(v, "%s%s", i ? " " : "", s->hosts[i]);
	return TRUE;
}

static gboolean
get_submit(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return put_time(v, j->submit_time);
}

static gboolean
get_start(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return put_time(v, j->start_time);
}

static gboolean
get_estart(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return is_pending(j) && put_time(v, j->reserve_start);
}

static gboolean
get_sstart(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && put_time(v, spec_of(j)->begin_time);
}

/* The finish time, or for a running job with a run limit the time the
 * limit ends it, marked " L" as LSF does. */
static gboolean
get_finish(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 limit;

	(void)o;
	if (j->end_time > 0)
		return put_time(v, j->end_time);
	if (!is_started(j) || !runlimit(j, &limit))
		return FALSE;
	cmd_time_short(v, j->start_time + (gint64)limit);
	g_string_append(v, " L");
	return TRUE;
}

/* What is left of the run limit: "h:mm L", or "hh:mm:ss L" with -hms. */
static gboolean
get_time_left(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 limit;
	gint64 left;

	if (!is_started(j) || !runlimit(j, &limit))
		return FALSE;
	left = j->start_time + (gint64)limit - o->now;
	if (left < 0)
		left = 0;
	if (o->hms)
		put_duration(v, left, o);
	else
		g_string_append_printf(v, "%" G_GINT64_FORMAT ":%02d", left / 3600,
				       (int)(left / 60 % 60));
	g_string_append(v, " L");
	return TRUE;
}

static gboolean
get_pct_complete(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 limit;

	if (!is_started(j) || !runlimit(j, &limit) || limit == 0)
		return FALSE;
	g_string_append_printf(v, "%.2f%% L",
			       MIN(100.0, 100.0 * (double)run_seconds(j, o) /
				   (double)limit));
	return TRUE;
}

static gboolean
get_ru_utime(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (j->usage == NULL || j->start_time <= 0)
		return FALSE;
	put_cpu(v, (double)j->usage->utime_us / 1e6, o);
	return TRUE;
}

static gboolean
get_ru_stime(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (j->usage == NULL || j->start_time <= 0)
		return FALSE;
	put_cpu(v, (double)j->usage->stime_us / 1e6, o);
	return TRUE;
}

/* IPEND: held (PSUSP), waiting for its -b time or for a dependency
 * condition (LSF's ineligible reasons); EPEND: eligible. */
static gboolean
ineligible(const Basalt__JobInfo *j, const BjobsOpts *o)
{
	const char *r = j->pending_reason;

	return is_state(j, BASALT__JOB_STATE__JOB_STATE_PSUSP) ||
	       (spec_of(j) && spec_of(j)->begin_time > o->now) ||
	       (r != NULL && (g_str_has_prefix(r, "Job dependency") ||
			      g_str_has_prefix(r, "Dependency condition")));
}

static gboolean
get_pendstate(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (!is_pending(j))
		return FALSE;
	g_string_append(v, ineligible(j, o) ? "IPEND" : "EPEND");
	return TRUE;
}

/* Time spent pending: until now, or until the (last) start. */
static gint64
pend_seconds(const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (is_pending(j) || j->start_time <= 0)
		return (j->end_time > 0 ? j->end_time : o->now) - j->submit_time;
	return j->start_time - j->submit_time;
}

static void
put_seconds(GString *v, gint64 secs, const BjobsOpts *o)
{
	if (o->hms)
		put_duration(v, secs, o);
	else
		g_string_append_printf(v, "%" G_GINT64_FORMAT, MAX(secs, 0));
}

static gboolean
get_pend_time(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (j->submit_time <= 0)
		return FALSE;
	put_seconds(v, pend_seconds(j, o), o);
	return TRUE;
}

/* Basalt does not split a pending time into eligible and ineligible
 * parts: a pending job's whole pending time goes to its current kind. */
static gboolean
get_ependtime(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (!is_pending(j) || ineligible(j, o))
		return FALSE;
	put_seconds(v, pend_seconds(j, o), o);
	return TRUE;
}

static gboolean
get_ipendtime(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (!is_pending(j) || !ineligible(j, o))
		return FALSE;
	put_seconds(v, pend_seconds(j, o), o);
	return TRUE;
}

static gboolean
get_cpu(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	if (j->usage == NULL)
		return FALSE;
	put_cpu(v, bjobs_cpu_seconds(j), o);
	return TRUE;
}

static gboolean
get_run_time(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	put_duration(v, run_seconds(j, o), o);
	return TRUE;
}

/* CPU time over run time, LSF's measure of an idle job. */
static gboolean
get_idle_factor(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	gint64 run = run_seconds(j, o);

	if (j->usage == NULL || run <= 0)
		return FALSE;
	g_string_append_printf(v, "%.2f", bjobs_cpu_seconds(j) / (double)run);
	return TRUE;
}

static gboolean
kb_mem(const Basalt__JobInfo *j, guint64 *kb)
{
	*kb = j->usage != NULL ? j->usage->rss_kb : 0;
	return *kb > 0 && is_started(j);
}

static gboolean
kb_max_mem(const Basalt__JobInfo *j, guint64 *kb)
{
	*kb = j->usage != NULL ? j->usage->max_rss_kb : 0;
	return *kb > 0;
}

static gboolean
kb_avg_mem(const Basalt__JobInfo *j, guint64 *kb)
{
	*kb = j->usage != NULL ? j->usage->avg_rss_kb : 0;
	return *kb > 0;
}

/* LSF's SWAP: the job's virtual memory at the last sample. */
static gboolean
kb_swap(const Basalt__JobInfo *j, guint64 *kb)
{
	*kb = j->usage != NULL ? j->usage->swap_kb : 0;
	return *kb > 0 && is_started(j);
}

static gboolean
kb_memlimit(const Basalt__JobInfo *j, guint64 *kb)
{
	return limit_of(j->effective ? j->effective->memlimit_kb : NULL,
			spec_of(j) ? spec_of(j)->memlimit_kb : 0, j, kb);
}

static gboolean
kb_swaplimit(const Basalt__JobInfo *j, guint64 *kb)
{
	return j->effective && limit_of(j->effective->swaplimit_kb, 0, j, kb);
}

static gboolean
kb_filelimit(const Basalt__JobInfo *j, guint64 *kb)
{
	return j->effective && limit_of(j->effective->filelimit_kb, 0, j, kb);
}

static gboolean
kb_corelimit(const Basalt__JobInfo *j, guint64 *kb)
{
	return j->effective && limit_of(j->effective->corelimit_kb, 0, j, kb);
}

static gboolean
kb_stacklimit(const Basalt__JobInfo *j, guint64 *kb)
{
	return j->effective && limit_of(j->effective->stacklimit_kb, 0, j, kb);
}

/* The getter of every memory field: its kb function, LSF's human form. */
#define MEM_GETTER(name)                                                \
	static gboolean                                                 \
	get_##name(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o) \
	{                                                               \
		guint64 kb;                                             \
		(void)o;                                                \
		if (!kb_##name(j, &kb))                                 \
			return FALSE;                                   \
		cmd_mem_kb(v, kb);                                      \
		return TRUE;                                            \
	}
MEM_GETTER(mem)
MEM_GETTER(max_mem)
MEM_GETTER(avg_mem)
MEM_GETTER(swap)
MEM_GETTER(memlimit)
MEM_GETTER(swaplimit)
MEM_GETTER(filelimit)
MEM_GETTER(corelimit)
MEM_GETTER(stacklimit)

static gboolean
get_processlimit(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 n;

	(void)o;
	if (j->effective == NULL || !limit_of(j->effective->processlimit, 0, j, &n))
		return FALSE;
	g_string_append_printf(v, "%" G_GUINT64_FORMAT, n);
	return TRUE;
}

/* RUNLIMIT in minutes as bjobs -l shows it, hh:mm:ss with -hms. */
static gboolean
get_runtimelimit(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 secs;

	if (!runlimit(j, &secs))
		return FALSE;
	if (o->hms)
		put_duration(v, (gint64)secs, o);
	else
		g_string_append_printf(v, "%.1f min", (double)secs / 60.0);
	return TRUE;
}

static gboolean
get_resreq(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->resreq);
}

static gboolean
get_input(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->stdin_path);
}

static gboolean
get_output(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->stdout_path);
}

static gboolean
get_error(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->stderr_path);
}

static gboolean
get_sub_cwd(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	return spec_of(j) && cmd_field_str(v, spec_of(j)->cwd);
}

/* The job runs in its submission directory, as bjobs -l's "Execution
 * CWD" says. */
static gboolean
get_exec_cwd(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	return j->start_time > 0 && get_sub_cwd(v, j, o);
}

/* NTHREADS: the job's threads at sbatchd's last sample. */
static gboolean
get_nthreads(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->usage == NULL || j->usage->nthreads == 0 || !is_started(j))
		return FALSE;
	g_string_append_printf(v, "%u", j->usage->nthreads);
	return TRUE;
}

/* MEM_EFFICIENCY: the job's peak memory as a share of its memory limit
 * (bsub -M or the queue's MEMLIMIT); none without a limit. */
static gboolean
get_mem_efficiency(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 max_kb, limit_kb;

	(void)o;
	if (!kb_max_mem(j, &max_kb) || !kb_memlimit(j, &limit_kb) ||
	    limit_kb == 0)
		return FALSE;
	g_string_append_printf(v, "%.2f%%",
	    100.0 * (double)max_kb / (double)limit_kb);
	return TRUE;
}

/* AVERAGE_CPU_EFFICIENCY: CPU time over run time times the slots the
 * job holds: 100% when every slot was busy the whole run. */
static gboolean
get_avg_cpu_efficiency(GString *v, const Basalt__JobInfo *j,
    const BjobsOpts *o)
{
	gint64 run = run_seconds(j, o);
	guint slots = j->n_exec_hosts > 0 ? (guint)j->n_exec_hosts : 1;

	if (j->usage == NULL || run <= 0)
		return FALSE;
	g_string_append_printf(v, "%.2f%%",
	    100.0 * bjobs_cpu_seconds(j) / ((double)run * slots));
	return TRUE;
}

/*
 * The table.  Rows whose getter is get_none are fields Basalt has no data
 * for; a row marked "wire:" names the JobSpec/JobInfo field whose data is
 * coming, so that field gets its getter here and nowhere else.
 */
#define MEM(n) get_##n, 0, kb_##n
/* bsub -I, -Ip, -Is: Y, else N (JobInfo.interactive, sent without -l). */
static gboolean
get_interactive(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	g_string_append(v, j->interactive != 0 ? "Y" : "N");
	return TRUE;
}

static const BjobsFieldDef field_defs[] = {
	{ "jobid id", "JOBID", 7, get_jobid, 0, NULL },
	{ "jobindex", "JOBINDEX", 8, get_jobindex, 0, NULL },
	{ "stat", "STAT", 5, get_stat, 0, NULL },
	{ "user", "USER", 7, get_user, 0, NULL },
	{ "user_group ugroup", "USER_GROUP", 15, get_user_group, 0, NULL },
	{ "queue", "QUEUE", 10, get_queue, 0, NULL },
	{ "job_name name", "JOB_NAME", 10, get_name, BJOBS_FIELD_TAIL, NULL },
	/* wire: bsub -Jd */
	{ "job_description description", "JOB_DESCRIPTION", 17, get_none, 0, NULL },
	{ "proj_name proj project", "PROJ_NAME", 11, get_proj, 0, NULL },
	{ "application app", "APPLICATION", 13, get_app, 0, NULL },
	/* Basalt: no LSF 10.1 field holds a job's consumer */
	{ "consumer", "CONSUMER", 15, get_consumer, 0, NULL },
	{ "service_class sla", "SERVICE_CLASS", 13, get_none, 0, NULL },
	{ "job_group group", "JOB_GROUP", 10, get_job_group, 0, NULL },
	{ "job_priority priority", "JOB_PRIORITY", 12, bjobs_get_job_priority, 0,
	  NULL },
	{ "rsvid", "RSVID", 40, get_none, 0, NULL },
	{ "esub", "ESUB", 20, get_none, 0, NULL },
	{ "kill_reason", "KILL_REASON", 50, get_none, 0, NULL },
	{ "suspend_reason", "SUSPEND_REASON", 50, get_suspend_reason, 0, NULL },
	{ "resume_reason", "RESUME_REASON", 50, get_none, 0, NULL },
	/* mbatchd does not keep the host a kill, stop or resume came from */
	{ "kill_issue_host", "KILL_ISSUE_HOST", 50, get_none, 0, NULL },
	{ "suspend_issue_host", "SUSPEND_ISSUE_HOST", 50, get_none, 0, NULL },
	{ "resume_issue_host", "RESUME_ISSUE_HOST", 50, get_none, 0, NULL },
	{ "dependency", "DEPENDENCY", 15, get_dependency, 0, NULL },
	{ "pend_reason", "PEND_REASON", 11, get_pend_reason, 0, NULL },
	{ "charged_saap saap", "CHARGED_SAAP", 50, get_none, 0, NULL },
	{ "command cmd", "COMMAND", 15, get_command, 0, NULL },
	/* wire: bsub -E / -Ep and the profile's PRE_EXEC, POST_EXEC */
	{ "pre_exec_command pre_cmd", "PRE_EXEC_COMMAND", 16, get_pre_exec, 0, NULL },
	{ "post_exec_command post_cmd", "POST_EXEC_COMMAND", 17, get_post_exec, 0, NULL },
	{ "resize_notification_command resize_cmd",
	  "RESIZE_NOTIFICATION_COMMAND", 27, get_none, 0, NULL },
	{ "pids", "PIDS", 20, get_pids, 0, NULL },
	{ "exit_code", "EXIT_CODE", 10, get_exit_code, 0, NULL },
	/* TERM_* of a limit (JobInfo.term_reason), else JobInfo.exit_reason */
	{ "exit_reason", "EXIT_REASON", 50, get_exit_reason, 0, NULL },
	/* wire: bsub -I/-Ip/-Is */
	{ "interactive", "INTERACTIVE", 11, get_interactive, 0, NULL },
	{ "from_host", "FROM_HOST", 11, get_from, 0, NULL },
	{ "first_host", "FIRST_HOST", 11, get_first_host, 0, NULL },
	{ "exec_host", "EXEC_HOST", 11, get_exec, 0, NULL },
	{ "nexec_host", "NEXEC_HOST", 10, get_nexec_host, 0, NULL },
	{ "ask_hosts", "ASK_HOSTS", 30, get_ask_hosts, 0, NULL },
	{ "alloc_slot", "ALLOC_SLOT", 20, get_exec, 0, NULL },
	{ "nalloc_slot", "NALLOC_SLOT", 10, get_nalloc_slot, 0, NULL },
	{ "host_file", "HOST_FILE", 10, get_none, 0, NULL },
	{ "exclusive", "EXCLUSIVE", 13, bjobs_get_exclusive, 0, NULL },
	{ "nreq_slot", "NREQ_SLOT", 10, get_min_req, 0, NULL },
	{ "submit_time", "SUBMIT_TIME", 15, get_submit, 0, NULL },
	{ "start_time", "START_TIME", 15, get_start, 0, NULL },
	{ "estimated_start_time estart_time", "ESTIMATED_START_TIME", 20,
	  get_estart, 0, NULL },
	{ "specified_start_time sstart_time", "SPECIFIED_START_TIME", 20,
	  get_sstart, 0, NULL },
	{ "specified_terminate_time sterminate_time",
	  "SPECIFIED_TERMINATE_TIME", 24, bjobs_get_term_time, 0, NULL },
	{ "time_left", "TIME_LEFT", 11, get_time_left, 0, NULL },
	{ "finish_time", "FINISH_TIME", 16, get_finish, 0, NULL },
	{ "estimated_run_time ertime", "ESTIMATED_RUN_TIME", 20,
	  bjobs_get_est_runtime, 0, NULL },
	{ "ru_utime", "RU_UTIME", 12, get_ru_utime, 0, NULL },
	{ "ru_stime", "RU_STIME", 12, get_ru_stime, 0, NULL },
	{ "%complete pct_complete", "%COMPLETE", 11, get_pct_complete, 0, NULL },
	{ "warning_action warn_act", "WARNING_ACTION", 15, get_none, 0, NULL },
	{ "action_warning_time warn_time", "ACTION_WARNING_TIME", 19,
	  get_none, 0, NULL },
	{ "pendstate", "PENDSTATE", 9, get_pendstate, 0, NULL },
	{ "pend_time", "PEND_TIME", 12, get_pend_time, 0, NULL },
	{ "ependtime", "EPENDTIME", 12, get_ependtime, 0, NULL },
	{ "ipendtime", "IPENDTIME", 12, get_ipendtime, 0, NULL },
	{ "estimated_sim_start_time esstart_time", "ESTIMATED_SIM_START_TIME",
	  24, get_none, 0, NULL },
	{ "effective_plimit", "EFFECTIVE_PLIMIT", 18, get_none, 0, NULL },
	{ "plimit_remain", "PLIMIT_REMAIN", 15, get_none, 0, NULL },
	{ "effective_eplimit", "EFFECTIVE_EPLIMIT", 19, get_none, 0, NULL },
	{ "eplimit_remain", "EPLIMIT_REMAIN", 16, get_none, 0, NULL },
	{ "cpu_used", "CPU_USED", 10, get_cpu, 0, NULL },
	{ "run_time", "RUN_TIME", 15, get_run_time, 0, NULL },
	{ "idle_factor", "IDLE_FACTOR", 11, get_idle_factor, 0, NULL },
	{ "exception_status except_stat", "EXCEPTION_STATUS", 16, get_none, 0, NULL },
	{ "slots", "SLOTS", 5, get_slots, 0, NULL },
	{ "mem", "MEM", 15, MEM(mem) },
	{ "max_mem", "MAX_MEM", 15, MEM(max_mem) },
	{ "avg_mem", "AVG_MEM", 15, MEM(avg_mem) },
	{ "memlimit", "MEMLIMIT", 15, MEM(memlimit) },
	{ "swap", "SWAP", 15, MEM(swap) },
	{ "swaplimit", "SWAPLIMIT", 15, MEM(swaplimit) },
	{ "min_req_proc", "MIN_REQ_PROC", 12, get_min_req, 0, NULL },
	{ "max_req_proc", "MAX_REQ_PROC", 12, get_max_req, 0, NULL },
	{ "effective_resreq eresreq", "EFFECTIVE_RESREQ", 17, get_resreq, 0, NULL },
	{ "combined_resreq cresreq", "COMBINED_RESREQ", 20, get_resreq, 0, NULL },
	{ "network_req", "NETWORK_REQ", 15, get_none, 0, NULL },
	{ "filelimit", "FILELIMIT", 10, MEM(filelimit) },
	{ "corelimit", "CORELIMIT", 10, MEM(corelimit) },
	{ "stacklimit", "STACKLIMIT", 10, MEM(stacklimit) },
	{ "processlimit", "PROCESSLIMIT", 12, get_processlimit, 0, NULL },
	{ "runtimelimit", "RUNTIMELIMIT", 12, get_runtimelimit, 0, NULL },
	{ "plimit", "PLIMIT", 10, get_none, 0, NULL },
	{ "input_file", "INPUT_FILE", 10, get_input, 0, NULL },
	{ "output_file", "OUTPUT_FILE", 11, get_output, 0, NULL },
	{ "error_file", "ERROR_FILE", 10, get_error, 0, NULL },
	/* wire: bsub -outdir */
	{ "output_dir", "OUTPUT_DIR", 15, get_none, 0, NULL },
	{ "sub_cwd", "SUB_CWD", 10, get_sub_cwd, 0, NULL },
	{ "exec_home", "EXEC_HOME", 10, get_none, 0, NULL },
	{ "exec_cwd", "EXEC_CWD", 10, get_exec_cwd, 0, NULL },
	{ "licproject", "LICPROJECT", 20, get_none, 0, NULL },
	{ "forward_cluster fwd_cluster", "FORWARD_CLUSTER", 15, get_none, 0, NULL },
	{ "forward_time fwd_time", "FORWARD_TIME", 15, get_none, 0, NULL },
	{ "srcjobid", "SRCJOBID", 8, get_none, 0, NULL },
	{ "dstjobid", "DSTJOBID", 8, get_none, 0, NULL },
	{ "source_cluster srcluster", "SOURCE_CLUSTER", 15, get_none, 0, NULL },
	{ "energy", "ENERGY", 12, get_none, 0, NULL },
	{ "gpu_num gnum", "GPU_NUM", 10, get_none, 0, NULL },
	{ "gpu_mode gmode", "GPU_MODE", 20, get_none, 0, NULL },
	{ "j_exclusive j_excl", "J_EXCLUSIVE", 15, get_none, 0, NULL },
	{ "gpu_alloc galloc", "GPU_ALLOC", 30, get_none, 0, NULL },
	{ "nthreads", "NTHREADS", 10, get_nthreads, 0, NULL },
	{ "hrusage", "HRUSAGE", 50, get_none, 0, NULL },
	{ "eplimit", "EPLIMIT", 10, get_none, 0, NULL },
	/* LSF 10.1 gives gpfsio no recommended width */
	{ "gpfsio", "GPFSIO", 10, get_none, 0, NULL },
	/* sbatchd samples no per-CPU use: no peak to report */
	{ "cpu_peak", "CPU_PEAK", 10, get_none, 0, NULL },
	{ "cpu_efficiency cpu_peak_efficiency", "CPU_EFFICIENCY", 10, get_none,
	  0, NULL },
	{ "mem_efficiency", "MEM_EFFICIENCY", 10, get_mem_efficiency, 0, NULL },
	{ "average_cpu_efficiency", "AVERAGE_CPU_EFFICIENCY", 10,
	  get_avg_cpu_efficiency, 0, NULL },
	{ "cpu_peak_reached_duration", "CPU_PEAK_REACHED_DURATION", 10,
	  get_none, 0, NULL },
};

const BjobsFieldDef *
bjobs_field_table(gsize *n)
{
	*n = G_N_ELEMENTS(field_defs);
	return field_defs;
}

/* Whole-word match of name among the row's blank-separated names. */
static gboolean
names_hold(const char *names, const char *name)
{
	gsize len = strlen(name);

	for (const char *p = names; *p != '\0';) {
		const char *e = strchr(p, ' ');
		gsize n = e != NULL ? (gsize)(e - p) : strlen(p);

		if (n == len && g_ascii_strncasecmp(p, name, n) == 0)
			return TRUE;
		p += n + (e != NULL);
	}
	return FALSE;
}

const BjobsFieldDef *
bjobs_field_find(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(field_defs); i++)
		if (names_hold(field_defs[i].names, name))
			return &field_defs[i];
	return NULL;
}
