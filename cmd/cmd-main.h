/*
 * What the command programs' main() functions share on top of lib/api:
 * -h/-V handling, printing a GString to the right stream, and one call to
 * mbatchd whose failures are printed the way LSF prints them.  Unlike the
 * rest of cmd/, this does I/O; it is linked only into the programs.
 */
#ifndef BS_CMD_MAIN_H
#define BS_CMD_MAIN_H

#include <glib.h>

#include "api/api.h"
#include "pb.h"
#include "select-args.h"

/*
 * -h prints "Usage: <usage>" on stdout, -V the version on stderr; both
 * return TRUE with *code 0 so main() returns at once.
 */
gboolean cmd_main_hv(int argc, char **argv, const char *usage, int *code);

/* Writes s to stdout or stderr and empties it. */
void cmd_main_out(GString *s);
void cmd_main_err(GString *s);

/* Prints "msg" (an argument error: its text already names the command)
 * on stderr and returns CMD_EXIT_FAIL. */
int cmd_main_fail(const GError *err);

/*
 * lsb_call() that prints its failure on stderr ("LSF is down; please
 * wait: ..."): returns NULL then.  The caller frees the reply with
 * protobuf_c_message_free_unpacked().
 */
ProtobufCMessage *cmd_main_call(LsbMethod method,
    const ProtobufCMessage *request);

/* TRUE when a reply's Error is set and not OK; prints "prog: text" on
 * stderr when prog is not NULL, the bare text otherwise. */
gboolean cmd_main_refused(const char *prog, const Basalt__Error *e);

/*
 * For commands whose options are plain flags (bqueues -l -w, badmin -f):
 * flags is a NULL-terminated list ("-l", "-w"); bit i of *seen is set for
 * flags[i].  Returns the operands (g_strfreev), or NULL with LSF's
 * "prog: illegal option -- x" and the usage in err.
 */
char **cmd_main_flags(const char *prog, int argc, char **argv,
    const char *const *flags, guint *seen, const char *usage, GError **err);
/*
 * cmd_main_flags() for commands with options that take a value (bqueues
 * -o fmt -u user): opts ends with a NULL name; vals[i] is the value of
 * opts[i] ("" for a flag), NULL when it was not given.  A value may
 * follow in the same word ("-uuser") as with getopt.
 */
char **cmd_main_opts(const char *prog, int argc, char **argv,
    const CmdOpt *opts, const char **vals, const char *usage, GError **err);

/*
 * bkill, bstop, bresume, brequeue: sends one JobControlRequest for the
 * selection and prints a line per job (jobctl-format.c).  Returns 0 when
 * every job was acted on, 255 when any failed or none matched.
 */
int cmd_main_control(Basalt__JobControlRequest *req, const SelectArgs *sa);
/* btop (to_bottom FALSE) and bbot: the whole program. */
int cmd_main_move(int argc, char **argv, const char *usage, gboolean to_bottom);

/*
 * Reads LSF_UNIT_FOR_LIMITS from lsf.conf into cmd_set_mem_unit(), for
 * commands that parse sizes (bsub, bmod).  No lsf.conf leaves KB: the call
 * to mbatchd reports that.  A value that is not a unit is an error.
 */
gboolean cmd_main_mem_unit(GError **err);

/* Name of the user running the command. */
const char *cmd_main_user(void);

#endif
