/*
 * The job selection options shared by bjobs, bkill, bstop, bresume,
 * brequeue and bswitch: -u user -q queue -m host -J name, the state
 * filters -a -d -p -r -s, and job ids ("123", "123[4]", "0" for every
 * matching job).  The result is a Basalt__JobQuery ready to send.
 *
 * Each command also has options of its own (bjobs -l, bkill -s SIG, ...);
 * it lists them in a CmdOpt table and finds their values in `extra`.
 */
#ifndef BS_CMD_SELECT_ARGS_H
#define BS_CMD_SELECT_ARGS_H

#include <glib.h>

#include "pb.h"

typedef struct {
	const char *name;     /* with its dash: "-l", "-noheader" */
	gboolean has_arg;
} CmdOpt;

typedef struct {
	Basalt__JobQuery *query;
	gboolean all_matching;   /* job id 0 was among the operands */
	GHashTable *extra;       /* option -> its value, "" for a flag */
} SelectArgs;

/*
 * states: which of the letters "adprs" the command accepts as state
 * filters (bjobs: all of them; bkill: none).  usage is the text after
 * "Usage: " printed with an option error.  Error messages are LSF's:
 * "bjobs: illegal option -- z", "123x: Illegal job ID.".
 */
SelectArgs *select_args_parse(const char *prog, int argc, char **argv,
			      const char *states, const CmdOpt *extra,
			      const char *usage, GError **error);
void select_args_free(SelectArgs *sa);

/* The value of one of the command's own options, NULL when absent. */
const char *select_args_get(const SelectArgs *sa, const char *opt);
gboolean select_args_has(const SelectArgs *sa, const char *opt);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SelectArgs, select_args_free)

#endif
