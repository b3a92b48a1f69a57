/*
 * bconsumers output: the default table, -w, -l and -json of a
 * ConsumerList (what mbatchd kept of the last scheduling cycle's
 * entitlement stage).  Pure formatting, so the unit tests can check the
 * layouts without a daemon.
 */
#ifndef BS_CMD_BCONSUMERS_FORMAT_H
#define BS_CMD_BCONSUMERS_FORMAT_H

#include <glib.h>

#include "pb.h"

/* One row per consumer and resource group; wide never cuts a path. */
void bconsumers_format_table(GString *out, const Basalt__ConsumerList *l,
    gboolean wide);
/* A block per consumer and resource group, with the quota's reason. */
void bconsumers_format_long(GString *out, const Basalt__ConsumerList *l);
/* {"COMMAND":"bconsumers","CONSUMERS":n,"RECORDS":[...]}, cmd-fields.c's
 * JSON, every column a key. */
void bconsumers_format_json(GString *out, const Basalt__ConsumerList *l);

#endif
