/*
 * The configuration as the commands that show it read it (bugroup,
 * bmgroup, bapp): lsf.conf's LSB_CONFDIR files under LSF_ENVDIR, loaded
 * with lib/conf as mbatchd loads them.  There is no BatchService call
 * for groups or profiles; these commands read the files like LSF's do on
 * a host that shares the configuration, so they show the files as they
 * are now (mbatchd follows them at its next reconfig).
 */
#ifndef BS_CMD_CONF_H
#define BS_CMD_CONF_H

#include "conf/conf.h"

/* NULL after printing the configuration's errors on stderr. */
BsConfig *cmd_conf_load(const char *prog);

/* Group members as LSF's group commands print them: a member that is
 * itself a group gets a trailing '/'; with recursive, groups are
 * replaced by their members (expand gives them, NULL for a non-group). */
typedef char **(*CmdGroupExpand)(const BsConfig *cfg, const char *name);
char *cmd_conf_members(const BsConfig *cfg, char **members,
		       CmdGroupExpand expand, gboolean recursive);

#endif
