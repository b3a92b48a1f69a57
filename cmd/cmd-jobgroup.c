/*
 * -g for the job selection commands (see cmd-jobgroup.h).
 */
#include "config.h"

#include <stdio.h>

#include "cmd-jobgroup.h"
#include "cmd-util.h"
#include "job/jobgroup.h"

gboolean
cmd_job_group_query(SelectArgs *sa, const char *prog, gboolean exact)
{
	const char *v = select_args_get(sa, "-g");
	g_autofree char *norm = NULL;
	g_autoptr(GError) err = NULL;

	if (v == NULL)
		return TRUE;
	if (!bs_jobgroup_normalize(v, &norm, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err->message);
		return FALSE;
	}
	cmd_pb_set_str(&sa->query->job_group, norm);
	sa->query->job_group_exact = exact;
	return TRUE;
}
