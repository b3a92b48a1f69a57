/*
 * bmod: change a pending job.  Each option names the JobSpec fields it
 * sets (ModifyRequest.set_fields) and its "n" form the fields it returns
 * to their defaults (reset_fields).  Values are parsed by bsub's own
 * parser, fed a synthetic bsub command line, so "-W 1:30" or "-M 4G"
 * mean exactly what they mean to bsub.  -q is a queue switch and goes
 * through SwitchQueue first; -Z replaces the command.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bsub-args.h"
#include "cmd-main.h"
#include "cmd-util.h"
#include "jobctl-format.h"

extern char **environ;

#define BMOD_USAGE \
	"bmod [-h] [-V] [-q \"queue ...\"] [-J job_name | -Jn] " \
	"[-o out_file | -oo out_file | -on] [-e err_file | -eo err_file | -en] " \
	"[-i in_file | -in] [-n min[,max] | -nn] [-R \"res_req\" | -Rn] " \
	"[-M mem_limit | -Mn] [-W [hour:]minute | -Wn] [-We [hour:]minute | -Wen] " \
	"[-c [hour:]minute | -cn] " \
	"[-P project | -Pn] [-G user_group | -Gn] [-g job_group | -gn] [-m \"host ...\" | -mn] " \
	"[-w 'dependency' | -wn] [-u mail_user | -un] [-b begin_time | -bn] " \
	"[-E \"pre_exec\" | -En] [-Ep \"post_exec\" | -Epn] [-app profile | -appn] [-r | -rn] " \
	"[-Z \"new_command\"] job_ID | \"job_ID[index]\""

typedef struct {
	const char *opt;
	gboolean has_arg;
	gboolean reset;          /* the "n" form */
	const char *fields;      /* JobSpec field names, blank-separated */
} ModOpt;

static const ModOpt mod_opts[] = {
	{ "-J", TRUE, FALSE, "job_name" },
	{ "-o", TRUE, FALSE, "stdout_path stdout_overwrite" },
	{ "-oo", TRUE, FALSE, "stdout_path stdout_overwrite" },
	{ "-e", TRUE, FALSE, "stderr_path stderr_overwrite" },
	{ "-eo", TRUE, FALSE, "stderr_path stderr_overwrite" },
	{ "-i", TRUE, FALSE, "stdin_path" },
	{ "-n", TRUE, FALSE, "min_slots max_slots" },
	{ "-R", TRUE, FALSE, "resreq" },
	{ "-M", TRUE, FALSE, "memlimit_kb" },
	{ "-W", TRUE, FALSE, "runlimit_s" },
	{ "-We", TRUE, FALSE, "est_runtime_s" },
	{ "-c", TRUE, FALSE, "cpulimit_s" },
	{ "-P", TRUE, FALSE, "project" },
	{ "-G", TRUE, FALSE, "user_group" },
	{ "-g", TRUE, FALSE, "job_group" },
	{ "-m", TRUE, FALSE, "hosts" },
	{ "-w", TRUE, FALSE, "dependency" },
	{ "-u", TRUE, FALSE, "mail_user" },
	{ "-b", TRUE, FALSE, "begin_time" },
	{ "-E", TRUE, FALSE, "pre_exec" },
	{ "-Ep", TRUE, FALSE, "post_exec" },
	{ "-app", TRUE, FALSE, "app_profile" },
	{ "-r", FALSE, FALSE, "rerunnable" },
	{ "-Z", TRUE, FALSE, "command" },
	{ "-q", TRUE, FALSE, NULL },
	{ "-Jn", FALSE, TRUE, "job_name" },
	{ "-on", FALSE, TRUE, "stdout_path stdout_overwrite" },
	{ "-en", FALSE, TRUE, "stderr_path stderr_overwrite" },
	{ "-in", FALSE, TRUE, "stdin_path" },
	{ "-nn", FALSE, TRUE, "min_slots max_slots" },
	{ "-Rn", FALSE, TRUE, "resreq" },
	{ "-Mn", FALSE, TRUE, "memlimit_kb" },
	{ "-Wn", FALSE, TRUE, "runlimit_s" },
	{ "-Wen", FALSE, TRUE, "est_runtime_s" },
	{ "-cn", FALSE, TRUE, "cpulimit_s" },
	{ "-Pn", FALSE, TRUE, "project" },
	{ "-Gn", FALSE, TRUE, "user_group" },
	{ "-gn", FALSE, TRUE, "job_group" },
	{ "-mn", FALSE, TRUE, "hosts" },
	{ "-wn", FALSE, TRUE, "dependency" },
	{ "-un", FALSE, TRUE, "mail_user" },
	{ "-bn", FALSE, TRUE, "begin_time" },
	{ "-En", FALSE, TRUE, "pre_exec" },
	{ "-Epn", FALSE, TRUE, "post_exec" },
	{ "-appn", FALSE, TRUE, "app_profile" },
	{ "-rn", FALSE, TRUE, "rerunnable" },
	{ NULL, FALSE, FALSE, NULL },
};

typedef struct {
	GPtrArray *bsub_argv;    /* "bsub", options for bsub's parser */
	GPtrArray *set, *reset;  /* field names */
	char *queue;             /* -q */
	char *command;           /* -Z */
	const char *jobid;
} ModArgs;

static void
mod_args_clear(ModArgs *m)
{
	g_ptr_array_unref(m->bsub_argv);
	g_ptr_array_unref(m->set);
	g_ptr_array_unref(m->reset);
	g_free(m->queue);
	g_free(m->command);
}

static const ModOpt *
find_opt(const char *s)
{
	for (const ModOpt *o = mod_opts; o->opt != NULL; o++)
		if (strcmp(o->opt, s) == 0)
			return o;
	return NULL;
}

static void
add_fields(GPtrArray *to, const char *fields)
{
	g_auto(GStrv) f = g_strsplit(fields, " ", -1);

	for (guint i = 0; f[i] != NULL; i++)
		g_ptr_array_add(to, g_strdup(f[i]));
}

/* Sorts one option into the request's parts. */
static void
take(ModArgs *m, const ModOpt *o, const char *val)
{
	if (strcmp(o->opt, "-q") == 0) {
		g_free(m->queue);
		m->queue = g_strdup(val);
		return;
	}
	add_fields(o->reset ? m->reset : m->set, o->fields);
	if (strcmp(o->opt, "-Z") == 0) {
		g_free(m->command);
		m->command = g_strdup(val);
	} else if (!o->reset) {
		g_ptr_array_add(m->bsub_argv, g_strdup(o->opt));
		if (o->has_arg)
			g_ptr_array_add(m->bsub_argv, g_strdup(val));
	}
}

static gboolean
parse(ModArgs *m, int argc, char **argv, GError **err)
{
	for (int i = 1; i < argc; i++) {
		const ModOpt *o = argv[i][0] == '-' ? find_opt(argv[i]) : NULL;

		if (argv[i][0] != '-' || argv[i][1] == '\0') {
			if (m->jobid != NULL)
				goto usage;
			m->jobid = argv[i];
			continue;
		}
		if (o == NULL) {
			g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "bmod: illegal option -- %s\nUsage: %s",
			    argv[i] + 1, BMOD_USAGE);
			return FALSE;
		}
		if (o->has_arg && ++i >= argc) {
			g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "bmod: option requires an argument -- %s\n"
			    "Usage: %s", o->opt + 1, BMOD_USAGE);
			return FALSE;
		}
		take(m, o, o->has_arg ? argv[i] : NULL);
	}
	if (m->jobid != NULL && (m->set->len > 0 || m->reset->len > 0 ||
	    m->queue != NULL))
		return TRUE;
usage:
	g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED, "Usage: %s",
	    BMOD_USAGE);
	return FALSE;
}

/* The values, by bsub's parser; its messages say "bsub:", ours "bmod:". */
static Basalt__JobSpec *
parse_values(ModArgs *m, BsubArgs **keep, GError **err)
{
	g_autofree char *cwd = g_get_current_dir();
	BsubContext ctx = { environ, cwd, "localhost", (gint64)time(NULL) };

	/* A command for bsub's parser to find; argv ends in NULL, as main's. */
	g_ptr_array_add(m->bsub_argv, g_strdup("true"));
	g_ptr_array_add(m->bsub_argv, NULL);
	*keep = bsub_args_parse((int)m->bsub_argv->len - 1,
	    (char **)m->bsub_argv->pdata, &ctx, err);
	if (*keep == NULL) {
		if (g_str_has_prefix((*err)->message, "bsub:"))
			memcpy((*err)->message, "bmod:", 5);
		return NULL;
	}
	if (m->command != NULL)
		cmd_pb_set_str(&(*keep)->req->spec->command, m->command);
	return (*keep)->req->spec;
}

static int
print_result(const Basalt__JobControlReply *r, gboolean modify,
    const char *queue)
{
	g_autoptr(GString) line = g_string_new(NULL);
	int code = CMD_EXIT_OK;

	if (cmd_main_refused(NULL, r->error))
		return CMD_EXIT_FAIL;
	for (size_t i = 0; i < r->n_results; i++) {
		gboolean ok = modify ?
		    jobctl_format_modify(line, r->results[i]) :
		    jobctl_format_switch(line, queue, r->results[i]);

		if (ok && !modify) {
			/* A switch that worked is reported by the modify line. */
			g_string_truncate(line, 0);
			continue;
		}
		if (ok)
			cmd_main_out(line);
		else
			cmd_main_err(line);
		if (!ok)
			code = CMD_EXIT_FAIL;
	}
	return code;
}

static int
switch_queue(guint64 id, guint32 idx, const char *queue)
{
	Basalt__SwitchRequest req = BASALT__SWITCH_REQUEST__INIT;
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	uint64_t ids[1] = { id };
	uint32_t idxs[1] = { idx };
	Basalt__JobControlReply *r;
	int code;

	q.n_job_ids = q.n_array_indexes = 1;
	q.job_ids = ids;
	q.array_indexes = idxs;
	req.select = &q;
	req.queue = (char *)queue;
	r = (Basalt__JobControlReply *)cmd_main_call(LSB_SWITCH, &req.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	code = print_result(r, FALSE, queue);
	basalt__job_control_reply__free_unpacked(r, NULL);
	return code;
}

static int
modify(Basalt__ModifyRequest *req)
{
	Basalt__JobControlReply *r;
	int code;

	r = (Basalt__JobControlReply *)cmd_main_call(LSB_MODIFY, &req->base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	code = print_result(r, TRUE, NULL);
	basalt__job_control_reply__free_unpacked(r, NULL);
	return code;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(BsubArgs) values = NULL;
	ModArgs m = { g_ptr_array_new_with_free_func(g_free),
	    g_ptr_array_new_with_free_func(g_free),
	    g_ptr_array_new_with_free_func(g_free), NULL, NULL, NULL };
	Basalt__ModifyRequest req = BASALT__MODIFY_REQUEST__INIT;
	int code = CMD_EXIT_OK;

	if (cmd_main_hv(argc, argv, BMOD_USAGE, &code))
		goto out;
	g_ptr_array_add(m.bsub_argv, g_strdup("bsub"));
	if (!cmd_main_mem_unit(&err) || !parse(&m, argc, argv, &err) ||
	    !cmd_parse_jobid(m.jobid, &req.job_id, &req.array_index, &err) ||
	    (req.spec = parse_values(&m, &values, &err)) == NULL) {
		code = cmd_main_fail(err);
		goto out;
	}
	if (m.queue != NULL)
		code = switch_queue(req.job_id, req.array_index, m.queue);
	req.set_fields = (char **)m.set->pdata;
	req.n_set_fields = m.set->len;
	req.reset_fields = (char **)m.reset->pdata;
	req.n_reset_fields = m.reset->len;
	if (code == CMD_EXIT_OK)
		code = modify(&req);
out:
	mod_args_clear(&m);
	return code;
}
