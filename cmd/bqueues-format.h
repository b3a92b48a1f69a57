/*
 * bqueues, bhosts, busers and bparams output from their reply messages.
 * Unlimited values print as "-".  `wide` is -w: names are never cut.
 * The implementations are bqueues-format.c, bhosts-format.c,
 * busers-format.c and bparams-format.c.
 */
#ifndef BS_CMD_BQUEUES_FORMAT_H
#define BS_CMD_BQUEUES_FORMAT_H

#include <glib.h>

#include "cmd-fields.h"
#include "pb.h"

/* QUEUE_NAME PRIO STATUS MAX JL/U JL/P JL/H NJOBS PEND RUN SUSP */
void bqueues_format_table(GString *out, const Basalt__QueueList *l,
			  gboolean wide);
/* bqueues -l: QUEUE:, description, PARAMETERS/STATISTICS with NICE and the
 * long status (Inact_Adm / Inact_Win), then the queue's parameters; a
 * queue with FAIRSHARE shows LSF's SCHEDULING POLICIES and USER_SHARES
 * lines (also bqueues -r). */
void bqueues_format_long(GString *out, const Basalt__QueueList *l);
/* bqueues -o / -json (bqueues-fields.c): spec NULL means the default
 * listing's columns. */
CmdFields *bqueues_fields_parse(const char *spec, GError **error);
void bqueues_format_custom(GString *out, const CmdFields *f,
			   const Basalt__QueueList *l, gboolean noheader);
void bqueues_format_json(GString *out, const CmdFields *f,
			 const Basalt__QueueList *l);

/* HOST_NAME STATUS JL/U MAX NJOBS RUN SSUSP USUSP RSV; the short listing
 * shows every closed_* status as "closed". */
void bhosts_format_table(GString *out, const Basalt__HostList *l,
			 gboolean wide);
/* bhosts -l: per host the detailed status, counters and load. */
void bhosts_format_long(GString *out, const Basalt__HostList *l);
/* bhosts -o / -json (bhosts-fields.c): spec NULL means the default
 * listing's columns. */
CmdFields *bhosts_fields_parse(const char *spec, GError **error);
void bhosts_format_custom(GString *out, const CmdFields *f,
			  const Basalt__HostList *l, gboolean noheader);
void bhosts_format_json(GString *out, const CmdFields *f,
			const Basalt__HostList *l);

/* USER/GROUP JL/P MAX NJOBS PEND RUN SSUSP USUSP RSV */
/* blimits: usage rows (LSF's INTERNAL RESOURCE LIMITS) and -c. */
void blimits_format_table(GString *out, const Basalt__LimitList *l,
    gboolean wide);
void blimits_format_config(GString *out, const Basalt__LimitList *l);
void busers_format_table(GString *out, const Basalt__UserList *l,
			 gboolean wide);

/* bparams: the four-line short form. */
void bparams_format_short(GString *out, const Basalt__ParamsReply *r);
/* bparams -l: each known parameter under a line that explains it. */
void bparams_format_long(GString *out, const Basalt__ParamsReply *r);
/* bparams -a: every parameter, known defaults included, by name. */
void bparams_format_all(GString *out, const Basalt__ParamsReply *r);

#endif
