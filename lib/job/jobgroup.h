/*
 * Job group paths (bsub -g, bgadd, bjgroup): LSF's absolute, slash
 * separated names such as "/proj/a/b".  Pure string rules shared by the
 * commands, which refuse a bad path before asking, and mbatchd, which
 * never trusts what a client sent.
 */
#ifndef BS_JOB_JOBGROUP_H
#define BS_JOB_JOBGROUP_H

#include <glib.h>

/* Longest path accepted, as LSF's MAX_JOB_GROUP_NAME-ish bound: a group
 * name is kept by every job in it and in every journal record. */
#define BS_JOBGROUP_PATH_MAX 512
/* Deepest hierarchy accepted: the limit check walks every ancestor. */
#define BS_JOBGROUP_DEPTH_MAX 32
/* Most groups mbatchd keeps: any user may create groups, so their number
 * is bounded like every other thing a user can make mbatchd hold. */
#define BS_JOBGROUP_COUNT_MAX 100000

/*
 * Checks `path` and writes its normal form into *out (to free): one
 * leading '/', no trailing '/', components of printable ASCII other than
 * '/' and blanks, none empty, "." or "..".  The root "/" alone is refused:
 * it holds every job and takes no limit.  FALSE with a message that names
 * the path.
 */
gboolean bs_jobgroup_normalize(const char *path, char **out, GError **error);

/* The parent of a normal path, to free; NULL for a top-level group. */
char *bs_jobgroup_parent(const char *path);

/* Whether `path` is `group` or lies below it (both normal). */
gboolean bs_jobgroup_within(const char *path, const char *group);

/* Number of components of a normal path ("/a/b" is 2). */
guint bs_jobgroup_depth(const char *path);

/*
 * LSF's %u and %p in DEFAULT_JOBGROUP / LSB_DEFAULT_JOBGROUP: the
 * submitting user and the job's project ("default" without -P).  Other
 * '%' sequences stay as written.  To free.
 */
char *bs_jobgroup_expand(const char *pattern, const char *user,
    const char *project);

#endif
