/*
 * JOB_WARNING_ACTION and JOB_ACTION_WARNING_TIME of lsb.queues and
 * lsb.applications, checked as bsub checks -wa and -wt (util/warning.h).
 * Resource reclaim sends the warning action as its interrupt notice
 * (decisions.md "Resource reclaim").
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conf_schema.h"
#include "util/warning.h"

gboolean
bs_conf_parse_warning_action(const BsConfKey *k, const char *value,
    void *field, GString *why)
{
	char **out = field;

	(void)k;
	if (bs_warning_signal_parse(value) < 0) {
		g_string_append_printf(why, "\"%s\" is not a signal name or number "
		    "(URG, USR1, 10, ...)", value);
		return FALSE;
	}
	g_free(*out);
	*out = g_strdup(value);
	return TRUE;
}

void
bs_conf_free_string(void *field)
{
	g_clear_pointer((char **)field, g_free);
}

gboolean
bs_conf_parse_warning_time(const BsConfKey *k, const char *value,
    void *field, GString *why)
{
	int *out = field;
	int t = bs_warning_time_parse(value);

	(void)k;
	if (t < 0) {
		g_string_append_printf(why, "\"%s\" is not [hour:]minute", value);
		return FALSE;
	}
	*out = t;
	return TRUE;
}
