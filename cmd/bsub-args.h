/*
 * bsub's argument and job script parsing, without I/O.
 *
 * Two steps, because only parsing tells whether argv holds a command:
 *
 *   a = bsub_args_parse(argc, argv, &ctx, &err);
 *   if (a != NULL && a->needs_script)
 *       ok = bsub_args_add_script(a, text_read_from_stdin, &ctx, &err);
 *
 * Options from #BSUB lines at the top of the script are applied first and
 * the command line's afterwards, so the command line wins.  On error the
 * GError message is the full stderr text (no trailing newline).
 */
#ifndef BS_CMD_BSUB_ARGS_H
#define BS_CMD_BSUB_ARGS_H

#include <glib.h>

#include "pb.h"

#define BSUB_USAGE \
	"bsub [-h] [-V] [-H] [-x] [-r] [-N] [-B] [-K] [-q \"queue ...\"] " \
	"[-J job_name] [-o out_file | -oo out_file] [-e err_file | -eo err_file] " \
	"[-i in_file] [-n min[,max]] [-R \"res_req\"] [-M mem_limit] " \
	"[-W [hour:]minute[/host]] [-c [hour:]minute[/host]] [-cwd dir] " \
	"[-outdir dir] [-P project] [-G user_group] [-g job_group] [-m \"host ...\"] [-w 'dependency'] " \
	"[-env \"none | all [, var=val ...] | var[=val] ...\"] [-u mail_user] " \
	"[-b [[month:]day:]hour:minute] [-t [[month:]day:]hour:minute] " \
	"[-E \"pre_exec\"] [-app profile] [-consumer consumer_path] " \
	"[-sp priority] [-L login_shell] " \
	"[-x] [-We [hour:]minute[/host]] " \
	"[-v swap_limit] [-F file_limit] [-D data_limit] [-S stack_limit] " \
	"[-C core_limit] [-p process_limit] [-T thread_limit] " \
	"[-I | -Ip | -Is [-tty]] " \
	"[command [argument ...]]"

/* What bsub knows about where it runs, passed in to keep parsing pure. */
typedef struct {
	char **envp;             /* NULL-terminated KEY=value list */
	const char *cwd;
	const char *submit_host;
	gint64 now;              /* resolves -b and -t */
} BsubContext;

typedef struct {
	Basalt__SubmitRequest *req;   /* NULL while needs_script */
	gboolean needs_script;        /* no command: read the script on stdin */
	/* Options JobSpec has no field for yet (see the final report). */
	gboolean exclusive;           /* -x */
	gboolean notify_begin;        /* -B */
	gboolean notify_end;          /* -N */
	char *login_shell;            /* -L */
	char *est_run_host;           /* -We .../host_spec, read and ignored */
	gint64 term_time;             /* -t, unix seconds, 0 unset */
	guint32 user_priority;        /* -sp, 0 unset */
	char *runlimit_host;          /* -W .../host */
	char *cpulimit_host;          /* -c .../host */
	gboolean env_none;            /* -env none (env is then empty) */
	/* private: the command line's options, kept for the script step */
	GPtrArray *cli_opts;
} BsubArgs;

BsubArgs *bsub_args_parse(int argc, char **argv, const BsubContext *ctx,
			  GError **error);
gboolean bsub_args_add_script(BsubArgs *a, const char *script,
			      const BsubContext *ctx, GError **error);
void bsub_args_free(BsubArgs *a);

/*
 * Syntax check of a job name with an array spec: "name[1-10:2,20]%5".
 * Detailed range checks (MAX_JOB_ARRAY_SIZE) belong to mbatchd.
 */
gboolean bsub_check_job_name(const char *name);

/* "[[month:]day:]hour:minute" -> the next such moment at or after now. */
gboolean bsub_parse_time(const char *s, gint64 now, gint64 *out);

/* "[hour:]minute" -> seconds (> 0). */
gboolean bsub_parse_minutes(const char *s, guint64 *secs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsubArgs, bsub_args_free)

#endif
