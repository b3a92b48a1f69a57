/*
 * bugroup and bmgroup: one main for both.  They take the same options
 * (-l -r -w and group names), read groups from the configuration files
 * (cmd-conf.h) and answer an unknown group and an empty list alike; only
 * the kind of group and the layout of a line differ, which the caller
 * describes in a CmdGroups.
 */
#ifndef BS_CMD_GROUPS_H
#define BS_CMD_GROUPS_H

#include <glib.h>

#include "conf/conf.h"

/* Indexes of the options' values handed to print. */
enum { CMD_GROUPS_L, CMD_GROUPS_R, CMD_GROUPS_W, CMD_GROUPS_N };

typedef struct {
	const char *prog;                 /* "bugroup" */
	const char *usage;
	const char *kind;                 /* "user": "No such user group" */
	const char *header;               /* first line; NULL: none */
	const char *header_long;          /* first line with -l; NULL: none */
	/* The configured groups (NULL: none). */
	GPtrArray *(*list)(const BsConfig *cfg);
	/* A group by name, NULL when there is none. */
	gconstpointer (*lookup)(const BsConfig *cfg, const char *name);
	/* One group's lines; v holds the options' values (CMD_GROUPS_*). */
	void (*print)(GString *out, const BsConfig *cfg, gconstpointer group,
	    const char **v);
} CmdGroups;

/* The whole command: returns its exit code. */
int cmd_groups_main(const CmdGroups *c, int argc, char **argv);

#endif
