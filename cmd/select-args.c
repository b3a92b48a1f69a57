/*
 * Job selection options (see select-args.h).  One pass over argv: known
 * options first, then the command's own, and every operand is a job id.
 * Lists (-u, -q, -m) accept blank-separated names in one argument, as
 * LSF's -q "q1 q2" does.
 */
#include "config.h"

#include <string.h>

#include "cmd-util.h"
#include "select-args.h"
#include "util/error.h"

void
select_args_free(SelectArgs *sa)
{
	if (sa == NULL)
		return;
	if (sa->query != NULL)
		basalt__job_query__free_unpacked(sa->query, NULL);
	if (sa->extra != NULL)
		g_hash_table_unref(sa->extra);
	g_free(sa);
}

const char *
select_args_get(const SelectArgs *sa, const char *opt)
{
	return g_hash_table_lookup(sa->extra, opt);
}

gboolean
select_args_has(const SelectArgs *sa, const char *opt)
{
	return g_hash_table_contains(sa->extra, opt);
}

/* Appends blank-separated words to a protobuf string array. */
static void
add_words(size_t *n, char ***arr, const char *value)
{
	g_auto(GStrv) words = cmd_split_words(value);
	guint count = g_strv_length(words);

	*arr = g_renew(char *, *arr, *n + count);
	for (guint i = 0; i < count; i++)
		(*arr)[(*n)++] = g_strdup(words[i]);
}

static void
add_jobid(Basalt__JobQuery *q, guint64 id, guint32 idx)
{
	q->job_ids = g_renew(uint64_t, q->job_ids, q->n_job_ids + 1);
	q->array_indexes = g_renew(uint32_t, q->array_indexes,
				   q->n_array_indexes + 1);
	q->job_ids[q->n_job_ids++] = id;
	q->array_indexes[q->n_array_indexes++] = idx;
}

static gboolean
set_state(Basalt__JobQuery *q, char c)
{
	switch (c) {
	case 'a': q->all_states = TRUE; return TRUE;
	case 'd': q->finished = TRUE; return TRUE;
	case 'p': q->pending = TRUE; return TRUE;
	case 'r': q->running = TRUE; return TRUE;
	case 's': q->suspended = TRUE; return TRUE;
	default: return FALSE;
	}
}

/* Options every selecting command takes; returns FALSE if not one. */
static gboolean
take_common(Basalt__JobQuery *q, const char *opt, const char *val)
{
	if (strcmp(opt, "-u") == 0)
		add_words(&q->n_users, &q->users, val);
	else if (strcmp(opt, "-q") == 0)
		add_words(&q->n_queues, &q->queues, val);
	else if (strcmp(opt, "-m") == 0)
		add_words(&q->n_hosts, &q->hosts, val);
	else if (strcmp(opt, "-J") == 0) {
		cmd_pb_set_str(&q->job_name, val);
	} else
		return FALSE;
	return TRUE;
}

static const CmdOpt *
find_extra(const CmdOpt *extra, const char *opt)
{
	for (; extra != NULL && extra->name != NULL; extra++)
		if (strcmp(extra->name, opt) == 0)
			return extra;
	return NULL;
}

static gboolean
usage_error(GError **error, const char *prog, const char *usage,
	    const char *what, const char *opt)
{
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "%s: %s -- %s\nUsage: %s", prog, what, opt + 1, usage);
	return FALSE;
}

static gboolean
take_operand(SelectArgs *sa, const char *arg, GError **error)
{
	guint64 id;
	guint32 idx;

	if (!cmd_parse_jobid(arg, &id, &idx, error))
		return FALSE;
	if (id == 0)
		sa->all_matching = TRUE;
	else
		add_jobid(sa->query, id, idx);
	return TRUE;
}

static gboolean take_option(SelectArgs *sa, const char *opt, int argc,
			    char **argv, int *i, const char *prog,
			    const char *states, const CmdOpt *extra,
			    const char *usage, GError **error);

/* A one-letter option this command knows; *has_arg tells if it takes a
 * value. */
static gboolean
single_known(char c, const char *states, const CmdOpt *extra,
	     gboolean *has_arg)
{
	char opt[3] = { '-', c, '\0' };
	const CmdOpt *own = find_extra(extra, opt);

	*has_arg = FALSE;
	if (c == '\0')
		return FALSE;
	if (own != NULL) {
		*has_arg = own->has_arg;
		return TRUE;
	}
	if (strchr("uqmJ", c) != NULL) {
		*has_arg = TRUE;
		return TRUE;
	}
	return states != NULL && strchr(states, c) != NULL;
}

/*
 * Bundled one-letter options, as getopt takes them: "-aw" is "-a -w",
 * "-aJ name" is "-a -J name".  Only the last letter may take a value,
 * the next argument.  FALSE (nothing applied) unless every letter is an
 * option of the command.
 */
static gboolean
is_bundle(const char *opt, const char *states, const CmdOpt *extra)
{
	gsize len = strlen(opt);
	gboolean has_arg;

	if (len < 3)
		return FALSE;
	for (gsize k = 1; k < len; k++)
		if (!single_known(opt[k], states, extra, &has_arg) ||
		    (has_arg && k + 1 < len))
			return FALSE;
	return TRUE;
}

static gboolean
take_bundle(SelectArgs *sa, const char *bundle, int argc, char **argv, int *i,
	    const char *prog, const char *states, const CmdOpt *extra,
	    const char *usage, GError **error)
{
	char opt[3] = { '-', '\0', '\0' };

	for (gsize k = 1; bundle[k] != '\0'; k++) {
		opt[1] = bundle[k];
		if (!take_option(sa, opt, argc, argv, i, prog, states, extra,
				 usage, error))
			return FALSE;
	}
	return TRUE;
}

/* Handles option opt (argv[*i] or a letter of it), moving *i past a
 * consumed value. */
static gboolean
take_option(SelectArgs *sa, const char *opt, int argc, char **argv, int *i,
	    const char *prog, const char *states, const CmdOpt *extra,
	    const char *usage, GError **error)
{
	const CmdOpt *own = find_extra(extra, opt);
	gboolean common = strlen(opt) == 2 && strchr("uqmJ", opt[1]) != NULL;

	if (own == NULL && strlen(opt) == 2 && states != NULL &&
	    strchr(states, opt[1]) != NULL)
		return set_state(sa->query, opt[1]);
	if (own == NULL && !common && is_bundle(opt, states, extra))
		return take_bundle(sa, opt, argc, argv, i, prog, states, extra,
				   usage, error);
	if (own == NULL && !common)
		return usage_error(error, prog, usage, "illegal option", opt);
	if ((own == NULL || own->has_arg) && *i + 1 >= argc)
		return usage_error(error, prog, usage,
				   "option requires an argument", opt);
	if (own == NULL)
		return take_common(sa->query, opt, argv[++*i]);
	g_hash_table_replace(sa->extra, g_strdup(opt),
			     g_strdup(own->has_arg ? argv[++*i] : ""));
	return TRUE;
}

SelectArgs *
select_args_parse(const char *prog, int argc, char **argv, const char *states,
		  const CmdOpt *extra, const char *usage, GError **error)
{
	g_autoptr(SelectArgs) sa = g_new0(SelectArgs, 1);
	gboolean options_done = FALSE;

	sa->query = g_new(Basalt__JobQuery, 1);
	basalt__job_query__init(sa->query);
	sa->extra = g_hash_table_new_full(g_str_hash, g_str_equal,
					  g_free, g_free);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!options_done && strcmp(arg, "--") == 0) {
			options_done = TRUE;
			continue;
		}
		if (!options_done && arg[0] == '-' && arg[1] != '\0') {
			if (!take_option(sa, arg, argc, argv, &i, prog, states,
					 extra, usage, error))
				return NULL;
			continue;
		}
		if (!take_operand(sa, arg, error))
			return NULL;
	}
	return g_steal_pointer(&sa);
}
