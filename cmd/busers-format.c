/*
 * busers output (see bqueues-format.h):
 *
 *   USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV
 *   alice                  -      -      0      0      0      0      0      0
 *
 * name in 19 (cut with a '*' unless -w), JL/P in 5, the rest in 7.
 */
#include "config.h"

#include "bqueues-format.h"
#include "cmd-util.h"

void
busers_format_table(GString *out, const Basalt__UserList *l, gboolean wide)
{
	g_string_append(out, "USER/GROUP          JL/P    MAX  NJOBS   PEND"
			"    RUN  SSUSP  USUSP    RSV\n");
	for (size_t i = 0; i < l->n_users; i++) {
		const Basalt__UserInfo *u = l->users[i];
		g_autoptr(GString) v = g_string_new(NULL);

		cmd_cell(out, u->name, 19, wide ? CMD_FIT_WIDE : CMD_FIT_HEAD,
			 FALSE);
		cmd_limit_double(v, u->jl_p);
		cmd_cell(out, v->str, 5, CMD_FIT_WIDE, TRUE);
		g_string_truncate(v, 0);
		cmd_limit(v, u->max_jobs);
		cmd_cell(out, v->str, 7, CMD_FIT_WIDE, TRUE);
		g_string_append_printf(out, "%7u%7u%7u%7u%7u%7u\n", u->njobs,
				       u->pend, u->run, u->ssusp, u->ususp,
				       u->rsv);
	}
}
