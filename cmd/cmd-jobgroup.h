/*
 * The -g option of bjobs, bkill, bstop and bresume: a job group path,
 * checked and normalized before it goes into the query, so "/a/" selects
 * what "/a" does and a malformed path fails here with its reason.
 */
#ifndef BS_CMD_JOBGROUP_H
#define BS_CMD_JOBGROUP_H

#include "select-args.h"

/* Sets query->job_group from -g (exact: the group alone, not its
 * subgroups, as bkill -g).  FALSE with the message printed. */
gboolean cmd_job_group_query(SelectArgs *sa, const char *prog,
    gboolean exact);

/* The extra option table entry commands add for -g. */
#define CMD_JOBGROUP_OPT { "-g", TRUE }

#endif
