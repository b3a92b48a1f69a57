/*
 * bqueues output (see bqueues-format.h).  Column layout of the default
 * listing, one blank-free line per queue:
 *
 *   QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP
 *   normal           30  Open:Active       -    -    -    -     0     0     0     0
 *
 * i.e. name in 16 (cut to 15 with a '*'), PRIO %3d, two blanks, STATUS in
 * 15, then right-aligned 4, 5, 5, 5, then the four counters each after a
 * blank in 5 (wider when a count needs it).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bqueues-format.h"
#include "cmd-util.h"

static void
status(GString *out, const Basalt__QueueInfo *q, gboolean lng)
{
	const char *state;

	if (q->active)
		state = "Active";
	else if (lng && q->inactive_reason[0] != '\0')
		state = q->inactive_reason;
	else
		state = "Inactive";
	g_string_append_printf(out, "%s:%s", q->open ? "Open" : "Closed", state);
}

/* STATUS cell, limits and counters: everything right of PRIO (and NICE). */
static void
counters(GString *out, const Basalt__QueueInfo *q, gboolean lng)
{
	g_autoptr(GString) st = g_string_new(NULL);
	g_autoptr(GString) lim = g_string_new(NULL);

	status(st, q, lng);
	cmd_cell(out, st->str, 15, CMD_FIT_WIDE, FALSE);
	cmd_limit(lim, q->qjob_limit);
	cmd_cell(out, lim->str, 4, CMD_FIT_WIDE, TRUE);
	g_string_truncate(lim, 0);
	cmd_limit(lim, q->ujob_limit);
	cmd_cell(out, lim->str, 5, CMD_FIT_WIDE, TRUE);
	g_string_truncate(lim, 0);
	cmd_limit_double(lim, q->pjob_limit);
	cmd_cell(out, lim->str, 5, CMD_FIT_WIDE, TRUE);
	g_string_truncate(lim, 0);
	cmd_limit(lim, q->hjob_limit);
	cmd_cell(out, lim->str, 5, CMD_FIT_WIDE, TRUE);
	/* " %5u", not "%6u": identical up to 99,999, and a larger count
	 * widens its column rather than running into its neighbour, so
	 * scripts that split on blanks still find four numbers. */
	g_string_append_printf(out, " %5u %5u %5u %5u\n", q->njobs, q->pend,
			       q->run, q->susp);
}

void
bqueues_format_table(GString *out, const Basalt__QueueList *l, gboolean wide)
{
	g_string_append(out, "QUEUE_NAME      PRIO STATUS          MAX JL/U "
			"JL/P JL/H NJOBS  PEND   RUN  SUSP\n");
	for (size_t i = 0; i < l->n_queues; i++) {
		const Basalt__QueueInfo *q = l->queues[i];

		cmd_cell(out, q->name, 15, wide ? CMD_FIT_WIDE : CMD_FIT_HEAD,
			 FALSE);
		g_string_append_printf(out, " %3d  ", q->priority);
		counters(out, q, FALSE);
	}
}

/* "KEY=value" -> its value when the key matches, else NULL. */
static const char *
param_value(const char *kv, const char *key)
{
	gsize n = strlen(key);

	if (strncmp(kv, key, n) != 0)
		return NULL;
	kv += n;
	kv += strspn(kv, " ");
	if (*kv != '=')
		return NULL;
	return kv + 1 + strspn(kv + 1, " ");
}

static int
nice_of(const Basalt__QueueInfo *q)
{
	for (size_t i = 0; i < q->n_params; i++) {
		const char *v = param_value(q->params[i], "NICE");

		if (v != NULL)
			return atoi(v);
	}
	return 0;
}

/*
 * FAIRSHARE = USER_SHARES[[a, 1][b, 2]] as LSF prints a fairshare queue:
 *
 *   SCHEDULING POLICIES:  FAIRSHARE
 *   USER_SHARES:  [a, 1] [b, 2]
 */
static void
fairshare_lines(GString *out, const char *v)
{
	const char *p = strchr(v, '[');

	g_string_append(out, "\nSCHEDULING POLICIES:  FAIRSHARE\nUSER_SHARES: ");
	if (p == NULL)
		return (void)g_string_append_c(out, '\n');
	for (p++; *p != '\0'; ) {
		const char *e = strchr(p, ']');

		if (*p != '[' || e == NULL)
			break;
		g_string_append_c(out, ' ');
		g_string_append_len(out, p, e - p + 1);
		p = e + 1;
	}
	g_string_append(out, "\n\n");
}

/*
 * One parameter line.  Lists of names read "USERS: all", limits come as
 * a two-line block as in LSF, anything else as "KEY = value".
 */
static void
param_line(GString *out, const char *kv)
{
	static const char *const colon[] = { "USERS", "HOSTS", "ADMINISTRATORS" };
	static const char *const block[] = {
		"RUNLIMIT", "CPULIMIT", "MEMLIMIT", "PROCLIMIT", "TASKLIMIT",
		"FILELIMIT", "DATALIMIT", "STACKLIMIT", "CORELIMIT", "SWAPLIMIT",
		"PROCESSLIMIT",
	};
	const char *eq = strchr(kv, '=');
	g_autofree char *key = g_strstrip(g_strndup(kv, eq ? (gsize)(eq - kv)
						       : strlen(kv)));
	const char *v = eq != NULL ? eq + 1 + strspn(eq + 1, " ") : "";

	if (strcmp(key, "NICE") == 0)
		return;
	if (strcmp(key, "FAIRSHARE") == 0) {
		fairshare_lines(out, v);
		return;
	}
	for (gsize i = 0; i < G_N_ELEMENTS(colon); i++)
		if (strcmp(key, colon[i]) == 0) {
			g_string_append_printf(out, "%s: %s%s\n", key,
					       strcmp(key, "HOSTS") ? "" : " ", v);
			return;
		}
	for (gsize i = 0; i < G_N_ELEMENTS(block); i++)
		if (strcmp(key, block[i]) == 0) {
			g_string_append_printf(out, "\n %s\n %s\n\n", key, v);
			return;
		}
	g_string_append_printf(out, "%s = %s\n", key, v);
}

static void
long_queue(GString *out, const Basalt__QueueInfo *q)
{
	g_string_append_printf(out, "\nQUEUE: %s\n", q->name);
	if (q->description[0] != '\0')
		g_string_append_printf(out, "  -- %s\n", q->description);
	g_string_append(out, "\nPARAMETERS/STATISTICS\n"
			"PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND"
			"   RUN  SUSP\n");
	g_string_append_printf(out, "%4d %4d ", q->priority, nice_of(q));
	counters(out, q, TRUE);
	if (q->n_params > 0)
		g_string_append_c(out, '\n');
	for (size_t i = 0; i < q->n_params; i++)
		param_line(out, q->params[i]);
}

void
bqueues_format_long(GString *out, const Basalt__QueueList *l)
{
	for (size_t i = 0; i < l->n_queues; i++) {
		if (i > 0)
			g_string_append(out, "-------------------------------"
					"-------------------------------------"
					"----------\n");
		long_queue(out, l->queues[i]);
	}
}
