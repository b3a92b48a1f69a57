/*
 * bjobs -l: what the submission options -x, -t, -sp, -L and -We asked
 * for, appended to the "Submitted from" statement as LSF appends each
 * request it shows there.  Kept apart from bjobs-format.c so that each
 * group of options keeps its own wording in one place.
 */
#include "config.h"

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
