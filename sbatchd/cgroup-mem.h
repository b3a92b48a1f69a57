/*
 * The cgroup v2 files behind job memory limits (job-cgroup.c), as plain
 * path operations: no daemon state, so a test can drive them against a
 * directory that stands in for the cgroup2 mount (the kernel makes a
 * cgroup's control files; the test makes them itself).
 */
#ifndef BS_SBD_CGROUP_MEM_H
#define BS_SBD_CGROUP_MEM_H

#include <glib.h>

/* Is parent a directory strictly under mount (a path below it, with no
 * ".." component)?  A sibling such as <mount>X or the mount itself is not. */
gboolean bs_cgroup_under(const char *mount, const char *parent);

/*
 * Ready the parent of job cgroups: conf_parent (lsf.conf
 * LSB_CGROUP_PARENT; NULL or empty: <mount>/basalt) must be under mount,
 * mount's cgroup.controllers must list memory; the parent is created if
 * missing and the memory controller enabled for its children.  Returns
 * the parent's path, NULL with error when it cannot be used.
 */
char *bs_cgroup_setup_parent(const char *mount, const char *conf_parent,
                             GError **error);

/*
 * Make the job's cgroup <parent>/<key> and write memory.max and
 * memory.swap.max in bytes from KB limits (< 0: none; swap may be
 * unsupported: not an error).  Returns the cgroup's path, NULL with error.
 */
char *bs_cgroup_job_create(const char *parent, const char *key,
                           gint64 mem_kb, gint64 swap_kb, GError **error);

/* Write memory.max: mem_kb in bytes, < 0 for no limit ("max"). */
gboolean bs_cgroup_set_memory_max(const char *dir, gint64 mem_kb);

/* Did the kernel OOM-kill a process in the cgroup (memory.events'
 * oom_kill count above 0)? */
gboolean bs_cgroup_oom_killed(const char *dir);

#endif
