/*
 * Messages of the job control commands (bkill, bstop, bresume, brequeue,
 * bswitch, bmod, btop, bbot) and of bsub's success and failure lines.
 * Each function appends one line to a GString; the return value, where
 * there is one, says whether the line belongs on stdout (TRUE) or on
 * stderr (FALSE) so main() can pick the stream and the exit code.
 */
#ifndef BS_CMD_JOBCTL_FORMAT_H
#define BS_CMD_JOBCTL_FORMAT_H

#include <glib.h>

#include "pb.h"

/*
 * One job's result of bkill/bstop/bresume/brequeue: "Job <1> is being
 * terminated" or, on error, "Job <1>: Job has already finished".  For
 * JOB_ACTION_SIGNAL the verb follows the signal: STOP (and TSTP) -> stopped,
 * CONT -> resumed, anything else -> signaled.
 */
gboolean jobctl_format_result(GString *out, Basalt__JobAction action,
			      int signal, const Basalt__JobResult *r);

/* bswitch: "Job <1> is switched to queue <q>", or the error line. */
gboolean jobctl_format_switch(GString *out, const char *queue,
			      const Basalt__JobResult *r);

/* bmod: "Parameters of job <1> are being changed", or the error line. */
gboolean jobctl_format_modify(GString *out, const Basalt__JobResult *r);

/*
 * btop/bbot (LSF prints this on stderr even on success):
 * "Job <1> has been moved to position 2 from top." (or "from bottom.").
 */
void jobctl_format_move(GString *out, guint64 job_id, guint32 index,
			guint32 position, gboolean to_bottom);

/* bsub success: "Job <1> is submitted to [default ]queue <normal>." */
void bsub_format_submitted(GString *out, const Basalt__SubmitReply *reply);

/*
 * bsub failure: "<text>. Job not submitted.", prefixed with "<queue>: "
 * for the errors that are about one queue when the user named one.
 */
void bsub_format_rejected(GString *out, const Basalt__Error *error,
			  const char *queue);

#endif
