/*
 * Shared tail of the command programs (see cmd-main.h).  Kept apart from
 * cmd-util.c so that the formatters stay pure and testable without a
 * daemon, and so lib/api never depends on cmd/.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "jobctl-format.h"
#include "util/error.h"

gboolean
cmd_main_hv(int argc, char **argv, const char *usage, int *code)
{
	g_autoptr(GString) s = g_string_new(NULL);

	switch (cmd_help_version(argc, argv)) {
	case CMD_HV_HELP:
		cmd_format_usage(s, usage);
		cmd_main_out(s);
		break;
	case CMD_HV_VERSION:
		cmd_format_version(s);
		cmd_main_err(s);
		break;
	default:
		return FALSE;
	}
	*code = CMD_EXIT_OK;
	return TRUE;
}

void
cmd_main_out(GString *s)
{
	fwrite(s->str, 1, s->len, stdout);
	fflush(stdout);
	g_string_truncate(s, 0);
}

void
cmd_main_err(GString *s)
{
	fwrite(s->str, 1, s->len, stderr);
	fflush(stderr);
	g_string_truncate(s, 0);
}

int
cmd_main_fail(const GError *err)
{
	fprintf(stderr, "%s\n", err->message);
	return CMD_EXIT_FAIL;
}

ProtobufCMessage *
cmd_main_call(LsbMethod method, const ProtobufCMessage *request)
{
	ProtobufCMessage *reply = NULL;
	g_autoptr(GError) err = NULL;

	/* stdout first: a "still trying" line must not precede output that
	 * was produced earlier but is still buffered. */
	fflush(stdout);
	if (!lsb_call(method, request, &reply, &err)) {
		fprintf(stderr, "%s\n", err->message);
		return NULL;
	}
	return reply;
}

gboolean
cmd_main_refused(const char *prog, const Basalt__Error *e)
{
	if (e == NULL || e->code == BASALT__ERROR_CODE__ERROR_CODE_OK)
		return FALSE;
	if (prog != NULL)
		fprintf(stderr, "%s: %s\n", prog, cmd_error_text(e));
	else
		fprintf(stderr, "%s\n", cmd_error_text(e));
	return TRUE;
}

gboolean
cmd_main_mem_unit(GError **err)
{
	g_autofree char *envdir = lsb_envdir();
	g_autoptr(GHashTable) conf = lsb_read_lsf_conf(envdir, NULL);
	const char *v = conf != NULL ?
	    g_hash_table_lookup(conf, "LSF_UNIT_FOR_LIMITS") : NULL;
	BsMemUnit unit = BS_MEM_KB;

	if (v != NULL && *v != '\0' && !bs_mem_unit_parse(v, strlen(v), &unit)) {
		g_set_error(err, LSB_ERROR, LSB_ERROR_CONF,
		    "%s/lsf.conf: LSF_UNIT_FOR_LIMITS=%s is not one of KB, MB, "
		    "GB, TB, PB", envdir, v);
		return FALSE;
	}
	cmd_set_mem_unit(unit);
	return TRUE;
}

const char *
cmd_main_user(void)
{
	return g_get_user_name();
}

char **
cmd_main_flags(const char *prog, int argc, char **argv,
    const char *const *flags, guint *seen, const char *usage, GError **err)
{
	g_autoptr(GPtrArray) ops = g_ptr_array_new_with_free_func(g_free);
	gboolean options_done = FALSE;

	*seen = 0;
	for (int i = 1; i < argc; i++) {
		guint f;

		if (!options_done && strcmp(argv[i], "--") == 0) {
			options_done = TRUE;
			continue;
		}
		if (options_done || argv[i][0] != '-' || argv[i][1] == '\0') {
			g_ptr_array_add(ops, g_strdup(argv[i]));
			continue;
		}
		for (f = 0; flags[f] != NULL; f++)
			if (strcmp(flags[f], argv[i]) == 0)
				break;
		if (flags[f] == NULL) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "%s: illegal option -- %s\nUsage: %s", prog,
			    argv[i] + 1, usage);
			return NULL;
		}
		*seen |= 1u << f;
	}
	g_ptr_array_add(ops, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&ops), FALSE);
}

static gboolean
opt_error(GError **err, const char *prog, const char *what, const char *opt,
    const char *usage)
{
	g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s: %s -- %s\nUsage: %s",
	    prog, what, opt, usage);
	return FALSE;
}

char **
cmd_main_opts(const char *prog, int argc, char **argv, const CmdOpt *opts,
    const char **vals, const char *usage, GError **err)
{
	g_autoptr(GPtrArray) ops = g_ptr_array_new_with_free_func(g_free);
	gboolean options_done = FALSE;
	guint n = 0;

	while (opts[n].name != NULL)
		vals[n++] = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		guint f;
		gsize len = 0;

		if (!options_done && strcmp(a, "--") == 0) {
			options_done = TRUE;
			continue;
		}
		if (options_done || a[0] != '-' || a[1] == '\0') {
			g_ptr_array_add(ops, g_strdup(a));
			continue;
		}
		for (f = 0; f < n; f++) {
			len = strlen(opts[f].name);
			if (strcmp(opts[f].name, a) == 0 ||
			    (opts[f].has_arg && strncmp(opts[f].name, a, len) == 0 &&
			     len == 2))
				break;
		}
		if (f == n) {
			opt_error(err, prog, "illegal option", a + 1, usage);
			return NULL;
		}
		if (!opts[f].has_arg) {
			vals[f] = "";
		} else if (a[len] != '\0') {
			vals[f] = a + len;
		} else if (i + 1 < argc) {
			vals[f] = argv[++i];
		} else {
			opt_error(err, prog, "option requires an argument",
			    a + 1, usage);
			return NULL;
		}
	}
	g_ptr_array_add(ops, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&ops), FALSE);
}

int
cmd_main_control(Basalt__JobControlRequest *req, const SelectArgs *sa)
{
	g_autoptr(GString) line = g_string_new(NULL);
	Basalt__JobControlReply *r;
	int code = CMD_EXIT_OK;

	req->select = sa->query;
	req->all_matching = sa->all_matching;
	r = (Basalt__JobControlReply *)cmd_main_call(LSB_CONTROL, &req->base);
	req->select = NULL;
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(NULL, r->error)) {
		code = CMD_EXIT_FAIL;
	} else if (r->n_results == 0) {
		fprintf(stderr, "No matching job found\n");
		code = CMD_EXIT_FAIL;
	}
	for (size_t i = 0; i < r->n_results; i++) {
		if (jobctl_format_result(line, req->action, req->signal,
		    r->results[i])) {
			cmd_main_out(line);
		} else {
			cmd_main_err(line);
			code = CMD_EXIT_FAIL;
		}
	}
	basalt__job_control_reply__free_unpacked(r, NULL);
	return code;
}

/*
 * btop and bbot: move a pending job to position N (default 1) counted from
 * the first or the last of its queue.  LSF prints the confirmation on
 * stderr, and so does this.
 */
int
cmd_main_move(int argc, char **argv, const char *usage, gboolean to_bottom)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) line = g_string_new(NULL);
	Basalt__MoveRequest req = BASALT__MOVE_REQUEST__INIT;
	Basalt__MoveReply *r;
	guint64 pos = 1;
	int code;

	if (cmd_main_hv(argc, argv, usage, &code))
		return code;
	if (argc < 2 || argc > 3 || argv[1][0] == '-' ||
	    !cmd_parse_jobid(argv[1], &req.job_id, &req.array_index, &err) ||
	    req.job_id == 0) {
		if (err != NULL)
			return cmd_main_fail(err);
		fprintf(stderr, "Usage: %s\n", usage);
		return CMD_EXIT_FAIL;
	}
	if (argc == 3 && (!cmd_parse_uint(argv[2], &pos) || pos == 0 ||
	    pos > G_MAXUINT32)) {
		fprintf(stderr, "%s: Illegal position\n", argv[2]);
		return CMD_EXIT_FAIL;
	}
	req.position = (guint32)pos;
	req.to_bottom = to_bottom;
	r = (Basalt__MoveReply *)cmd_main_call(LSB_MOVE, &req.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		g_string_append(line, "Job <");
		cmd_jobid(line, req.job_id, req.array_index);
		g_string_append_printf(line, ">: %s\n", cmd_error_text(r->error));
		code = CMD_EXIT_FAIL;
	} else {
		jobctl_format_move(line, req.job_id, req.array_index,
		    r->position != 0 ? r->position : req.position, to_bottom);
		code = CMD_EXIT_OK;
	}
	cmd_main_err(line);
	basalt__move_reply__free_unpacked(r, NULL);
	return code;
}
