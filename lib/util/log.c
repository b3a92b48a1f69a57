/*
 * Logging for the daemons.  The format is "Mon DD HH:MM:SS.mmm ident[pid]:
 * level: message", close to what LSF daemons write, so existing log readers
 * keep working.  Control characters in a message are escaped (escape.h):
 * messages carry names from outside, and a newline in one must not forge a
 * second log line.
 */
#include "config.h"
#include "util/log.h"
#include "util/escape.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static char log_ident[64] = "basalt";
static BsLogLevel log_max = BS_LOG_INFO;
static FILE *log_fp;
static BsLogSink log_sink;
static void *log_sink_data;

static const char *const level_names[] = {
	[BS_LOG_ERR] = "error",
	[BS_LOG_WARNING] = "warning",
	[BS_LOG_NOTICE] = "notice",
	[BS_LOG_INFO] = "info",
	[BS_LOG_DEBUG] = "debug",
};

void
bs_log_init(const char *ident, BsLogLevel max_level)
{
	g_strlcpy(log_ident, ident, sizeof log_ident);
	log_max = max_level;
}

gboolean
bs_log_open_file(const char *path)
{
	FILE *fp = fopen(path, "ae");

	if (fp == NULL)
		return FALSE;
	setvbuf(fp, NULL, _IOLBF, 0);
	if (log_fp != NULL)
		fclose(log_fp);
	log_fp = fp;
	return TRUE;
}

void
bs_log_set_level(BsLogLevel max_level)
{
	log_max = max_level;
}

gboolean
bs_log_level_parse(const char *name, BsLogLevel *out)
{
	static const struct {
		const char *name;
		BsLogLevel level;
	} names[] = {
		{ "LOG_ERR", BS_LOG_ERR },     { "LOG_CRIT", BS_LOG_ERR },
		{ "LOG_ALERT", BS_LOG_ERR },   { "LOG_EMERG", BS_LOG_ERR },
		{ "LOG_WARNING", BS_LOG_WARNING },
		{ "LOG_NOTICE", BS_LOG_NOTICE },
		{ "LOG_INFO", BS_LOG_INFO },   { "LOG_DEBUG", BS_LOG_DEBUG },
		{ "LOG_DEBUG1", BS_LOG_DEBUG }, { "LOG_DEBUG2", BS_LOG_DEBUG },
		{ "LOG_DEBUG3", BS_LOG_DEBUG },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		if (g_ascii_strcasecmp(name, names[i].name) == 0) {
			*out = names[i].level;
			return TRUE;
		}
	}
	return FALSE;
}

void
bs_log_set_sink(BsLogSink sink, void *data)
{
	log_sink = sink;
	log_sink_data = data;
}

void
bs_log(BsLogLevel level, const char *fmt, ...)
{
	char msg[2048], stamp[32];
	struct timeval tv;
	struct tm tm;
	va_list ap;
	int saved_errno = errno;
	g_autofree char *safe = NULL;

	if (level > log_max && log_sink == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Messages carry names from outside: one event, one line. */
	if (!bs_escape_clean(msg))
		safe = bs_escape(msg);
	if (safe != NULL)
		g_strlcpy(msg, safe, sizeof msg);

	if (log_sink != NULL)
		log_sink(level, msg, log_sink_data);
	if (level <= log_max) {
		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(stamp, sizeof stamp, "%b %d %H:%M:%S", &tm);
		fprintf(log_fp != NULL ? log_fp : stderr, "%s.%03d %s[%d]: %s: %s\n",
		    stamp, (int)(tv.tv_usec / 1000), log_ident, (int)getpid(),
		    level_names[level], msg);
	}
	errno = saved_errno;
}
