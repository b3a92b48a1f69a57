/*
 * Job paths as LSF expands them, on the execution host.
 *
 * bsub -cwd, -o/-oo, -e/-eo and -outdir may carry patterns that only the
 * execution host can fill in (the job's user and group as this host knows
 * them, the first execution host), so sbatchd expands them when it starts
 * the job, with the job's identity, never its own.  Pure string work: the
 * directories -outdir needs are created by the launch child after it has
 * become the job's owner (launch.h mkdirs).
 */
#ifndef BS_SBD_JOB_PATHS_H
#define BS_SBD_JOB_PATHS_H

#include <glib.h>

/* What the patterns stand for. */
typedef struct {
	gint64 job_id;
	int index;                /* 0: not an array element */
	const char *user;         /* %U */
	const char *group;        /* %G: bsub -G, else the user's primary group */
	const char *host;         /* %H: the first execution host */
	const char *project;      /* %P */
	const char *jobgroup;     /* %JG: bsub -g; NULL or empty: "/" */
} SbdPathVars;

/*
 * %J job id, %I array index (0 when none), %EJ and %EI the same (a job
 * runs in the cluster it was submitted to), %U user, %G user group, %H
 * first execution host, %P project, %JG job group (bsub -g, else "/"),
 * %% a percent sign; any other % is kept as it is.
 */
char *sbd_path_expand(const char *tmpl, const SbdPathVars *v);

/* Is path a directory, as the job's owner sees it? */
typedef gboolean (*SbdIsDirFunc)(const char *path, gpointer data);

/*
 * An -o or -e path made absolute: expanded; relative to base (-outdir when
 * given, else the working directory); a path ending in '/' or naming an
 * existing directory (is_dir; NULL: as this process sees it) means
 * <dir>/<jobid>.<suffix> (<jobid>_<index>.<suffix> for an array element).
 * suffix is "out" or "err".
 */
char *sbd_path_output(const char *tmpl, const SbdPathVars *v, const char *base,
    const char *suffix, SbdIsDirFunc is_dir, gpointer data);

/* "/a/b/c" -> "/a", "/a/b", "/a/b/c": what mkdir -p creates, in order. */
char **sbd_path_prefixes(const char *dir);

#endif
