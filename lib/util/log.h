/*
 * Daemon logging: one line per event, with a timestamp, the program name and
 * a level.  Lines go to stderr (foreground, tests) or to a log file; a test
 * may install a sink to see exactly what was logged.
 *
 * Only daemon-side code logs.  Code shared with the commands returns errors
 * through GError instead.
 */
#ifndef BS_LOG_H
#define BS_LOG_H

#include <glib.h>

typedef enum {
	BS_LOG_ERR = 0,
	BS_LOG_WARNING,
	BS_LOG_NOTICE,
	BS_LOG_INFO,
	BS_LOG_DEBUG,
} BsLogLevel;

/* A sink receives each formatted message (without timestamp or newline). */
typedef void (*BsLogSink)(BsLogLevel level, const char *msg, void *data);

void bs_log_init(const char *ident, BsLogLevel max_level);
/* Append to this file instead of stderr; FALSE and errno set on failure. */
gboolean bs_log_open_file(const char *path);
void bs_log_set_level(BsLogLevel max_level);
/* Parse LSF_LOG_MASK style names (LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG). */
gboolean bs_log_level_parse(const char *name, BsLogLevel *out);
/* Install (or with NULL remove) a sink that sees every message as well. */
void bs_log_set_sink(BsLogSink sink, void *data);

void bs_log(BsLogLevel level, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

#define log_err(...)     bs_log(BS_LOG_ERR, __VA_ARGS__)
#define log_warning(...) bs_log(BS_LOG_WARNING, __VA_ARGS__)
#define log_notice(...)  bs_log(BS_LOG_NOTICE, __VA_ARGS__)
#define log_info(...)    bs_log(BS_LOG_INFO, __VA_ARGS__)
#define log_debug(...)   bs_log(BS_LOG_DEBUG, __VA_ARGS__)

#endif
