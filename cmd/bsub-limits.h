/*
 * bsub's per-job limit options (-v -F -D -S -C -p -T) and the submitter's
 * umask, kept apart from bsub-args.c, which routes these options here.
 * Sizes go through cmd_parse_mem_kb (the unit rules live there); counts
 * are whole numbers above 0.
 */
#ifndef BS_CMD_BSUB_LIMITS_H
#define BS_CMD_BSUB_LIMITS_H

#include <glib.h>

#include "pb.h"

/* Set the limit of option `opt` ("-v", ...) in the spec from `value`. */
gboolean bsub_limits_apply(Basalt__JobSpec *s, const char *opt,
			   const char *value, GError **error);

/* Carry the process's umask in the spec (it is left as it was). */
void bsub_limits_umask(Basalt__JobSpec *s);

#endif
