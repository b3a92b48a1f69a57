/*
 * Shared helpers of the user commands (see cmd-util.h).  Pure functions:
 * they read their arguments and append to a GString.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-util.h"
#include "util/error.h"

CmdHelpVersion
cmd_help_version(int argc, char **argv)
{
	/* LSF commands honour -h and -V wherever they sit among the options,
	 * but not after "--" where the job's own command starts. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-h") == 0)
			return CMD_HV_HELP;
		if (strcmp(argv[i], "-V") == 0)
			return CMD_HV_VERSION;
	}
	return CMD_HV_NONE;
}

void
cmd_format_usage(GString *out, const char *usage)
{
	g_string_append_printf(out, "Usage: %s\n", usage);
}

void
cmd_format_version(GString *out)
{
	g_string_append_printf(out, "Basalt %s, an LSF-compatible batch system\n",
			       PACKAGE_VERSION);
}

typedef enum { TF_SHORT, TF_LONG, TF_WIDE } TimeForm;

/*
 * The formats stay literal so the compiler can check them.  A listing
 * formats the same times over and over (a hundred thousand jobs submitted
 * within a few minutes), so the last text of each form is kept with the
 * span of times it stands for: the minute around t for the forms without
 * seconds, the second itself otherwise.
 */
static void
time_fmt(GString *out, gint64 t, TimeForm form)
{
	static struct {
		gint64 from, to;      /* [from, to): times that print as text */
		char text[64];
	} last[3];
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[64];
	gsize n = 0;

	if (t >= last[form].from && t < last[form].to) {
		g_string_append(out, last[form].text);
		return;
	}
	if (localtime_r(&tt, &tm) != NULL) {
		if (form == TF_SHORT)
			n = strftime(buf, sizeof(buf), "%b %e %H:%M", &tm);
		else if (form == TF_LONG)
			n = strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S", &tm);
		else
			n = strftime(buf, sizeof(buf), "%m/%d-%H:%M:%S", &tm);
	}
	if (n > 0 && tm.tm_sec >= 0 && tm.tm_sec < 60) {
		last[form].from = form == TF_SHORT ? t - tm.tm_sec : t;
		last[form].to = form == TF_SHORT ? last[form].from + 60 : t + 1;
		memcpy(last[form].text, buf, n + 1);
	}
	g_string_append(out, n > 0 ? buf : "-");
}

/* LSF cuts these out of ctime(3), so the day is blank-padded. */
void
cmd_time_short(GString *out, gint64 t)
{
	time_fmt(out, t, TF_SHORT);
}

void
cmd_time_long(GString *out, gint64 t)
{
	time_fmt(out, t, TF_LONG);
}

void
cmd_time_wide(GString *out, gint64 t)
{
	time_fmt(out, t, TF_WIDE);
}

void
cmd_mem_kb(GString *out, guint64 kb)
{
	if (kb < 1024)
		g_string_append_printf(out, "%" G_GUINT64_FORMAT " Kbytes", kb);
	else if (kb < 1024 * 1024)
		g_string_append_printf(out, "%" G_GUINT64_FORMAT " Mbytes",
				       (kb + 512) / 1024);
	else
		g_string_append_printf(out, "%.1f Gbytes",
				       (double)kb / (1024.0 * 1024.0));
}

gboolean
cmd_parse_uint(const char *s, guint64 *v)
{
	char *end;

	if (s == NULL || !g_ascii_isdigit(*s))
		return FALSE;
	errno = 0;
	*v = g_ascii_strtoull(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* LSF_UNIT_FOR_LIMITS of this command's cluster (see cmd-util.h). */
static BsMemUnit mem_unit = BS_MEM_KB;

void
cmd_set_mem_unit(BsMemUnit unit)
{
	mem_unit = unit;
}

BsMemUnit
cmd_mem_unit(void)
{
	return mem_unit;
}

void
cmd_limit_kb(GString *out, guint64 kb)
{
	guint64 per = bs_mem_unit_kb(mem_unit);

	if (kb % per == 0)
		g_string_append_printf(out, "%" G_GUINT64_FORMAT, kb / per);
	else
		g_string_append_printf(out, "%.1f", (double)kb / (double)per);
	g_string_append_printf(out, " %c", bs_mem_unit_name(mem_unit)[0]);
}

gboolean
cmd_parse_mem_kb(const char *s, guint64 *kb)
{
	return bs_mem_parse_kb(s, mem_unit, kb);
}

/* The order of `kill -l`, which is what bkill -l prints. */
static const struct { const char *name; int sig; } signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ILL", SIGILL }, { "TRAP", SIGTRAP }, { "ABRT", SIGABRT },
	{ "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL },
	{ "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
	{ "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO }, { "SYS", SIGSYS },
};

int
cmd_signal_parse(const char *s)
{
	guint64 n;

	if (s == NULL)
		return -1;
	if (cmd_parse_uint(s, &n))
		return n >= 1 && n < 65 ? (int)n : -1;
	if (g_ascii_strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (gsize i = 0; i < G_N_ELEMENTS(signals); i++)
		if (g_ascii_strcasecmp(s, signals[i].name) == 0)
			return signals[i].sig;
	return -1;
}

const char *
cmd_signal_name(int sig)
{
	for (gsize i = 0; i < G_N_ELEMENTS(signals); i++)
		if (signals[i].sig == sig)
			return signals[i].name;
	return NULL;
}

void
cmd_signal_list(GString *out)
{
	for (gsize i = 0; i < G_N_ELEMENTS(signals); i++) {
		if (i > 0)
			g_string_append_c(out, ' ');
		g_string_append(out, signals[i].name);
	}
	g_string_append_c(out, '\n');
}

static void
pad(GString *out, gsize n)
{
	static const char blanks[] = "                                ";

	/* A table's cells are padded a few blanks at a time, a million rows
	 * of them: whole runs rather than a blank per call. */
	for (; n >= sizeof(blanks) - 1; n -= sizeof(blanks) - 1)
		g_string_append_len(out, blanks, sizeof(blanks) - 1);
	g_string_append_len(out, blanks, (gssize)n);
}

void
cmd_cell(GString *out, const char *s, guint width, CmdFit fit, gboolean right)
{
	gsize len = s != NULL ? strlen(s) : 0;

	if (s == NULL)
		s = "";
	if (len > width && width > 0 && fit != CMD_FIT_WIDE) {
		if (fit == CMD_FIT_TAIL) {
			g_string_append_c(out, '*');
			g_string_append(out, s + len - (width - 1));
		} else if (fit == CMD_FIT_HEAD) {
			g_string_append_len(out, s, width - 1);
			g_string_append_c(out, '*');
		} else {
			g_string_append_len(out, s, width);
		}
		return;
	}
	if (right)
		pad(out, width > len ? width - len : 0);
	g_string_append(out, s);
	if (!right)
		pad(out, width > len ? width - len : 0);
}

void
cmd_limit(GString *out, gint64 v)
{
	if (v < 0)
		g_string_append_c(out, '-');
	else
		g_string_append_printf(out, "%" G_GINT64_FORMAT, v);
}

void
cmd_limit_double(GString *out, double v)
{
	if (v < 0)
		g_string_append_c(out, '-');
	else if (v == (double)(gint64)v)
		g_string_append_printf(out, "%" G_GINT64_FORMAT, (gint64)v);
	else
		g_string_append_printf(out, "%.1f", v);
}

void
cmd_jobid(GString *out, guint64 job_id, guint32 index)
{
	g_string_append_printf(out, "%" G_GUINT64_FORMAT, job_id);
	if (index > 0)
		g_string_append_printf(out, "[%u]", index);
}

gboolean
cmd_parse_jobid(const char *s, guint64 *job_id, guint32 *index,
		GError **error)
{
	g_autofree char *id = NULL;
	const char *br = strchr(s, '[');
	guint64 idx = 0;

	id = br != NULL ? g_strndup(s, (gsize)(br - s)) : g_strdup(s);
	if (!cmd_parse_uint(id, job_id))
		goto bad;
	if (br != NULL) {
		g_autofree char *in = NULL;
		gsize n = strlen(br);

		if (n < 3 || br[n - 1] != ']')
			goto bad;
		in = g_strndup(br + 1, n - 2);
		if (!cmd_parse_uint(in, &idx) || idx == 0 || idx > G_MAXUINT32)
			goto bad;
	}
	*index = (guint32)idx;
	return TRUE;
bad:
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "%s: Illegal job ID.", s);
	return FALSE;
}

const char *
cmd_errcode_text(Basalt__ErrorCode code)
{
	switch (code) {
	case BASALT__ERROR_CODE__ERROR_CODE_OK:
		return "No error";
	case BASALT__ERROR_CODE__ERROR_CODE_NO_JOB:
		return "No matching job found";
	case BASALT__ERROR_CODE__ERROR_CODE_NO_QUEUE:
		return "No such queue";
	case BASALT__ERROR_CODE__ERROR_CODE_NO_HOST:
		return "Bad host name, host group name or cluster name";
	case BASALT__ERROR_CODE__ERROR_CODE_PERMISSION:
		return "User permission denied";
	case BASALT__ERROR_CODE__ERROR_CODE_QUEUE_CLOSED:
		return "Queue has been closed";
	case BASALT__ERROR_CODE__ERROR_CODE_QUEUE_USER:
		return "User cannot use the queue";
	case BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST:
		return "Bad argument";
	case BASALT__ERROR_CODE__ERROR_CODE_LIMIT:
		return "Cannot exceed queue's hard limit(s)";
	case BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE:
		return "Job has already finished";
	case BASALT__ERROR_CODE__ERROR_CODE_CONFIG:
		return "Fatal error in the batch system configuration";
	case BASALT__ERROR_CODE__ERROR_CODE_STORAGE:
		return "Failed in writing the job event log";
	default:
		return "Internal batch system error";
	}
}

const char *
cmd_error_text(const Basalt__Error *e)
{
	if (e == NULL)
		return cmd_errcode_text(BASALT__ERROR_CODE__ERROR_CODE_OK);
	if (e->message != NULL && e->message[0] != '\0')
		return e->message;
	return cmd_errcode_text(e->code);
}

const char *
cmd_state_name(Basalt__JobState s)
{
	switch (s) {
	case BASALT__JOB_STATE__JOB_STATE_PEND: return "PEND";
	case BASALT__JOB_STATE__JOB_STATE_PSUSP: return "PSUSP";
	case BASALT__JOB_STATE__JOB_STATE_RUN: return "RUN";
	case BASALT__JOB_STATE__JOB_STATE_USUSP: return "USUSP";
	case BASALT__JOB_STATE__JOB_STATE_SSUSP: return "SSUSP";
	case BASALT__JOB_STATE__JOB_STATE_DONE: return "DONE";
	case BASALT__JOB_STATE__JOB_STATE_EXIT: return "EXIT";
	case BASALT__JOB_STATE__JOB_STATE_ZOMBI: return "ZOMBI";
	default: return "UNKWN";
	}
}

void
cmd_wrap(GString *out, const char *text, guint width, guint indent)
{
	gsize len = strlen(text), pos = 0, room = width;

	g_assert(width > indent);
	while (len - pos > room) {
		g_string_append_len(out, text + pos, room);
		g_string_append_c(out, '\n');
		pad(out, indent);
		pos += room;
		room = width - indent;
	}
	g_string_append(out, text + pos);
	g_string_append_c(out, '\n');
}

void
cmd_pb_set_str(char **field, const char *value)
{
	if (*field != NULL && *field != protobuf_c_empty_string)
		g_free(*field);
	*field = g_strdup(value != NULL ? value : "");
}

char **
cmd_split_words(const char *s)
{
	g_auto(GStrv) parts = g_strsplit_set(s != NULL ? s : "", " \t\n", -1);
	GPtrArray *words = g_ptr_array_new();

	for (char **p = parts; *p != NULL; p++)
		if (**p != '\0')
			g_ptr_array_add(words, g_strdup(*p));
	g_ptr_array_add(words, NULL);
	return (char **)g_ptr_array_free(words, FALSE);
}
