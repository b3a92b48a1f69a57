/*
 * Shared helpers for the transport-free halves of the user commands: exit
 * codes, -h/-V handling, LSF's time and memory formats, signal names, table
 * cells with LSF's truncation rules, job ids, and the lsberrno texts that
 * stand for the ErrorCode values of proto/common.proto.
 *
 * Nothing here does I/O: text is appended to a caller's GString, and the
 * caller's main() decides whether it goes to stdout or stderr.
 */
#ifndef BS_CMD_UTIL_H
#define BS_CMD_UTIL_H

#include <time.h>
#include <glib.h>

#include "pb.h"
#include "util/memunit.h"

/*
 * Exit codes, as OpenLava's commands use them, so that scripts written for
 * LSF test them unchanged:
 *   CMD_EXIT_OK      0    the request succeeded (for bjobs: a job was listed)
 *   CMD_EXIT_FAIL    255  any error, including bjobs' "No ... job found" and
 *                         a job control command where any job failed
 *   bsub -K          the job's own exit code once it finishes, or
 *   CMD_EXIT_KILLED_PENDING 126 when the job was killed before it started
 */
#define CMD_EXIT_OK 0
#define CMD_EXIT_FAIL 255
#define CMD_EXIT_KILLED_PENDING 126

/* What -h or -V among a command's options asks for. */
typedef enum {
	CMD_HV_NONE,
	CMD_HV_HELP,     /* print the usage on stdout, exit 0 */
	CMD_HV_VERSION,  /* print the version on stderr, exit 0 (as LSF does) */
} CmdHelpVersion;

/* The LSF release whose commands, files and output Basalt follows, as
 * lsid states it for tools that check the LSF version. */
#define CMD_LSF_VERSION "10.1.0.0"

CmdHelpVersion cmd_help_version(int argc, char **argv);
void cmd_format_usage(GString *out, const char *usage);
void cmd_format_version(GString *out);

/* Time formats.  Each takes local time, so tests fix TZ. */
void cmd_time_short(GString *out, gint64 t);   /* "Nov 21 10:02" */
void cmd_time_long(GString *out, gint64 t);    /* "Mon Nov 21 10:02:00" */
void cmd_time_wide(GString *out, gint64 t);    /* "11/21-10:02:00" (-W) */

/* Memory in LSF's human form: "512 Kbytes", "2 Mbytes", "1.5 Gbytes". */
void cmd_mem_kb(GString *out, guint64 kb);
/* A size limit as bjobs -l and bhist -l show one: in LSF_UNIT_FOR_LIMITS
 * (cmd_set_mem_unit) with its letter, "102400 K", "100 M", "1.5 G". */
void cmd_limit_kb(GString *out, guint64 kb);
/*
 * "100", "100K", "100KB", "4M", "4MB", "2G", "1.5GB", "1T", "1PB" -> KB,
 * units in any case.  A bare number is in the command's limit unit:
 * LSF_UNIT_FOR_LIMITS, which main() reads from lsf.conf and passes to
 * cmd_set_mem_unit(); KB until then.  Every memory-like bsub/bmod option
 * goes through here.
 */
gboolean cmd_parse_mem_kb(const char *s, guint64 *kb);
void cmd_set_mem_unit(BsMemUnit unit);
BsMemUnit cmd_mem_unit(void);

/* Whole non-negative decimal number, nothing else. */
gboolean cmd_parse_uint(const char *s, guint64 *v);

/*
 * Signals for bkill -s: "KILL", "SIGKILL", "kill" and "9" all give 9.
 * Returns -1 for anything else.
 */
int cmd_signal_parse(const char *s);
const char *cmd_signal_name(int sig);   /* "KILL", or NULL */
void cmd_signal_list(GString *out);     /* the bkill -l line */

/*
 * One table cell.  CMD_FIT_TAIL keeps the end of a long value behind a
 * leading '*' (LSF's rule for JOB_NAME); CMD_FIT_HEAD keeps the start and
 * marks the cut with a trailing '*' (our rule for the other default columns);
 * CMD_FIT_CUT cuts without a mark (bjobs -o widths); CMD_FIT_WIDE never cuts
 * (-w).  Short values are padded to width unless right-aligned.
 */
typedef enum {
	CMD_FIT_WIDE,
	CMD_FIT_HEAD,
	CMD_FIT_TAIL,
	CMD_FIT_CUT,
} CmdFit;

void cmd_cell(GString *out, const char *s, guint width, CmdFit fit,
	      gboolean right);

/* "-" for an unlimited (negative) limit, else the number. */
void cmd_limit(GString *out, gint64 v);
/* The same for a per-processor limit that may be fractional. */
void cmd_limit_double(GString *out, double v);

/* "123" or "123[4]". */
void cmd_jobid(GString *out, guint64 job_id, guint32 index);
/*
 * Parses "123" or "123[4]"; 0 is accepted (it means "all matching jobs"
 * for the job control commands).  Sets "<arg>: Illegal job ID." on error.
 */
gboolean cmd_parse_jobid(const char *s, guint64 *job_id, guint32 *index,
			 GError **error);

/* LSF's text for an error code: "No such queue", ... */
const char *cmd_errcode_text(Basalt__ErrorCode code);
/* The reply's own message when it carries one, else the code's text. */
const char *cmd_error_text(const Basalt__Error *e);

/* State names as bjobs prints them ("PEND", "RUN", ...). */
const char *cmd_state_name(Basalt__JobState s);

/*
 * Appends text wrapped the way LSF's long forms are: lines of at most width
 * characters, continuation lines indented by indent spaces, cut wherever the
 * width runs out (LSF cuts inside words too).  Ends with a newline.
 */
void cmd_wrap(GString *out, const char *text, guint width, guint indent);

/*
 * Replaces a protobuf-c string field.  Fields start out pointing at
 * protobuf_c_empty_string, which must never be freed.
 */
void cmd_pb_set_str(char **field, const char *value);

/* Splits on blanks; empty pieces are dropped.  Free with g_strfreev. */
char **cmd_split_words(const char *s);

#endif
