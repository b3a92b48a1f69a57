/*
 * LSF's job warning action (bsub -wa 'signal', -wt '[hour:]minute', and
 * JOB_WARNING_ACTION / JOB_ACTION_WARNING_TIME of lsb.queues and
 * lsb.applications): signal names and the time form, in lib/util so bsub,
 * the configuration and mbatchd read them alike.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "util/warning.h"

static const struct { const char *name; int sig; } names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "TERM", SIGTERM },
	{ "ALRM", SIGALRM }, { "URG", SIGURG }, { "XCPU", SIGXCPU },
	{ "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF },
	{ "WINCH", SIGWINCH }, { "IO", SIGIO }, { "CONT", SIGCONT },
	{ "TSTP", SIGTSTP }, { "PWR", SIGPWR }, { "KILL", SIGKILL },
	{ "STOP", SIGSTOP }, { "PIPE", SIGPIPE },
};

int
bs_warning_signal_parse(const char *s)
{
	char *end;
	long n;

	if (s == NULL || *s == '\0')
		return -1;
	n = strtol(s, &end, 10);
	if (end != s && *end == '\0')
		return n >= 1 && n < 65 ? (int)n : -1;
	if (g_ascii_strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
		if (g_ascii_strcasecmp(s, names[i].name) == 0)
			return names[i].sig;
	return -1;
}

int
bs_warning_time_parse(const char *s)
{
	g_auto(GStrv) p = NULL;
	char *end;
	long h = 0, m;

	if (s == NULL || *s == '\0')
		return -1;
	p = g_strsplit(s, ":", 3);
	if (p[1] != NULL && p[2] != NULL)
		return -1;
	if (p[1] != NULL) {
		h = strtol(p[0], &end, 10);
		if (end == p[0] || *end != '\0' || h < 0 || h > 100000)
			return -1;
	}
	m = strtol(p[p[1] != NULL], &end, 10);
	if (end == p[p[1] != NULL] || *end != '\0' || m < 0 || m > 6000000)
		return -1;
	if (p[1] != NULL && m > 59)
		return -1;
	return (int)((h * 60 + m) * 60);
}

