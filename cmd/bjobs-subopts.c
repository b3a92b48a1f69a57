/*
 * What the submission options -x, -t, -sp, -L and -We asked for, as bjobs
 * shows it: appended to -l's "Submitted from" statement as LSF appends
 * each request there, and the -o fields JOB_PRIORITY, EXCLUSIVE,
 * SPECIFIED_TERMINATE_TIME and ESTIMATED_RUN_TIME.  Kept apart from
 * bjobs-format.c and bjobs-fields.c so these options keep their wording
 * in one place.
 */
#include "config.h"

#include "bjobs-fields.h"
#include "bjobs-format.h"
#include "cmd-util.h"

void
bjobs_subopts_details(GString *l, const Basalt__JobInfo *j)
{
	const Basalt__JobSpec *s = j->spec;

	if (s == NULL)
		return;
	if (s->exclusive)
		g_string_append(l, ", Exclusive Execution");
	if (s->term_time > 0) {
		g_string_append(l, ", Specified Termination Time <");
		cmd_time_long(l, s->term_time);
		g_string_append_c(l, '>');
	}
	/* The job's priority in its queue: its -sp, or the default. */
	if (j->user_priority > 0)
		g_string_append_printf(l, ", Job Priority <%u>", j->user_priority);
	if (s->login_shell[0] != '\0')
		g_string_append_printf(l, ", Login Shell <%s>", s->login_shell);
	if (s->est_runtime_s > 0)
		g_string_append_printf(l, ", Estimated Run Time <%" G_GUINT64_FORMAT
		    " minutes>", (s->est_runtime_s + 59) / 60);
}

/* bjobs -o: JOB_PRIORITY, the priority the job has in its queue (its -sp,
 * else MAX_USER_PRIORITY/2); none while user priority is off. */
gboolean
bjobs_get_job_priority(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->user_priority == 0)
		return FALSE;
	g_string_append_printf(v, "%u", j->user_priority);
	return TRUE;
}

/* EXCLUSIVE: Y for a bsub -x job. */
gboolean
bjobs_get_exclusive(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->spec == NULL || !j->spec->exclusive)
		return FALSE;
	g_string_append_c(v, 'Y');
	return TRUE;
}

/* SPECIFIED_TERMINATE_TIME: bsub -t, as the other time fields show
 * times. */
gboolean
bjobs_get_term_time(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	(void)o;
	if (j->spec == NULL || j->spec->term_time <= 0)
		return FALSE;
	cmd_time_short(v, j->spec->term_time);
	return TRUE;
}

/* ESTIMATED_RUN_TIME: bsub -We in seconds ("N second(s)", hh:mm:ss with
 * -hms). */
gboolean
bjobs_get_est_runtime(GString *v, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	guint64 s;

	if (j->spec == NULL || (s = j->spec->est_runtime_s) == 0)
		return FALSE;
	if (o->hms)
		g_string_append_printf(v, "%02" G_GUINT64_FORMAT ":%02u:%02u",
		    s / 3600, (guint)(s / 60 % 60), (guint)(s % 60));
	else
		g_string_append_printf(v, "%" G_GUINT64_FORMAT " second(s)", s);
	return TRUE;
}
