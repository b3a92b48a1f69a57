/*
 * Job dependency conditions, as `bsub -w` takes them:
 *
 *   done(123) && (exit(build, >3) || ended("nightly*")) && numdone(200, >=10)
 *
 * Conditions: done ended exit started post_done post_err, each of one job,
 * exit with an optional `, [op] code`; numdone numended numexit numrun
 * numstart numpend numhold of a job array with `, op count` or `, *`
 * (every element).  A job is an ID (123), an array element (123[4]) or a
 * job name, quoted or not, with an optional trailing `*` wildcard; a job
 * alone, without a condition, means done(job).  && binds tighter than ||,
 * ! tightest; parentheses and whitespace anywhere.
 *
 * A name refers to every job of the user with that name (the daemon's
 * lookup decides which jobs those are) and the condition must hold for all
 * of them, as in LSF.  A whole array job ID likewise refers to all of its
 * elements: done(200) waits for every element of array 200.
 *
 * Pure: parse to an immutable AST, print it back canonically, and evaluate
 * it against job states the caller supplies.
 */
#ifndef BS_DEPEND_H
#define BS_DEPEND_H

#include <glib.h>

#define BS_DEPEND_MAX_LEN 4096
#define BS_DEPEND_MAX_DEPTH 64
/* LSF job IDs are below 2^31. */
#define BS_JOB_ID_MAX G_GUINT64_CONSTANT(2147483646)

typedef struct _BsDepend BsDepend;

typedef enum {
	BS_DEPEND_SATISFIED, /* the condition holds now: the job may start */
	BS_DEPEND_WAIT,      /* not yet */
	BS_DEPEND_NEVER,     /* cannot hold any more (LSF: "Dependency condition
	                      * invalid or never satisfied") */
} BsDependResult;

/* What the evaluator needs to know of a job's state. */
typedef enum {
	BS_DEPEND_JOB_PEND,  /* PEND */
	BS_DEPEND_JOB_HELD,  /* PSUSP */
	BS_DEPEND_JOB_RUN,   /* RUN, and UNKWN */
	BS_DEPEND_JOB_SUSP,  /* USUSP, SSUSP */
	BS_DEPEND_JOB_DONE,
	BS_DEPEND_JOB_EXIT,
} BsDependJobState;

/* Post-processing (post-exec) of a finished job.  A job without a
 * post-exec command is POST_DONE once it has finished, as in LSF. */
typedef enum {
	BS_DEPEND_POST_NONE, /* not finished, or post-exec still running */
	BS_DEPEND_POST_DONE,
	BS_DEPEND_POST_ERR,
} BsDependPost;

typedef struct {
	BsDependJobState state;
	int exit_code;       /* when EXIT */
	BsDependPost post;
} BsDependJob;

/* A job as the condition names it. */
typedef struct {
	guint64 job_id;      /* 0 when by name */
	const char *name;    /* NULL when by ID; may end in '*' */
	guint index;         /* array element; 0 = the whole job */
} BsDependRef;

/*
 * Appends to `jobs` (a GArray of BsDependJob) one entry per job the
 * reference matches: for a name, every job of the user with that name
 * (bs_depend_name_matches() gives the wildcard rule); for a whole array,
 * every element; for an element or a plain job, that job.  Appends
 * nothing for a job that does not exist.
 */
typedef void (*BsDependLookup)(const BsDependRef *ref, GArray *jobs,
    void *data);

BsDepend *bs_depend_parse(const char *text, GError **error);
void bs_depend_free(BsDepend *dep);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsDepend, bs_depend_free)

/* Canonical text: every condition explicit (a bare job prints as
 * done(job)), minimal parentheses, " && " / " || ". */
char *bs_depend_to_string(const BsDepend *dep);

/*
 * A reference that matches no job makes its condition NEVER: the daemon
 * should keep finished jobs that others depend on, and check references at
 * submission with bs_depend_check_refs().
 */
BsDependResult bs_depend_eval(const BsDepend *dep, BsDependLookup lookup,
    void *data);

/* Every job reference in the condition, in order of appearance: a
 * GPtrArray of const BsDependRef *, owned by dep; free the array only. */
GPtrArray *bs_depend_collect_refs(const BsDepend *dep);

/* Fails with `Job <ref> is not found` for the first reference that
 * matches no job: what LSF says at submission. */
gboolean bs_depend_check_refs(const BsDepend *dep, BsDependLookup lookup,
    void *data, GError **error);

/* Does job_name match the name in a reference ("abc" or "ab*")? */
gboolean bs_depend_name_matches(const char *pattern, const char *job_name);

/* The reference as text: 123, 123[4], name, name[4]. */
char *bs_depend_ref_to_string(const BsDependRef *ref);

#endif
