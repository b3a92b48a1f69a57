/*
 * What bhist, bacct and `badmin journal` share that touches the system:
 * finding the journal ($LSB_SHAREDIR/events, from lsf.conf as lib/api
 * finds it) and reading it into a history model.  Kept out of the pure
 * hist-*.c files so those stay testable without files.
 */
#ifndef BS_CMD_HIST_IO_H
#define BS_CMD_HIST_IO_H

#include <glib.h>

#include "hist-model.h"

/* $LSB_SHAREDIR/events; LSB_SHAREDIR defaults to $LSF_ENVDIR/work. */
char *hist_journal_dir(GError **err);
/* $LSB_SHAREDIR/mbatchd.sock. */
char *hist_mbd_socket(GError **err);

/*
 * Feeds the records of the newest nfiles segments (0: all) into a new
 * model.  Damage in the middle of the history is reported in *warning
 * (g_free it) and ends the reading; what was read before it is kept.
 */
HistModel *hist_load(const char *dir, guint nfiles, char **warning,
    GError **err);

/*
 * Calls fn on every record, oldest first, from the journal in dir when
 * the caller can read it, else from mbatchd's History RPC; the strings
 * of each record are escaped first.  Damage as hist_load.
 */
typedef void (*HistEventFn)(Basalt__Event *ev, gpointer data);
gboolean hist_each_event(const char *dir, guint nfiles, HistEventFn fn,
    gpointer data, char **warning, GError **err);

/* Job ID operands ("123", "123[4]") into f->jobs; FALSE with LSF's text. */
gboolean hist_parse_jobs(HistFilter *f, char **ids, int n, GError **err);

#endif
