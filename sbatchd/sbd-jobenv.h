/*
 * The environment LSF gives a job on its execution host, and the files
 * behind it: the host file (LSB_DJOB_HOSTFILE) and the private per-job
 * temporary directory (TMPDIR, lsf.conf LSB_JOB_TMPDIR).
 *
 * The temporary directory is made by root in a directory other users may
 * write (/tmp), handed to the job's owner, and removed with its contents
 * when the job ends; both steps work through directory descriptors and
 * O_NOFOLLOW so a symbolic link planted by a user never redirects what
 * root creates or deletes.
 */
#ifndef BS_SBD_SBD_JOBENV_H
#define BS_SBD_SBD_JOBENV_H

#include <glib.h>
#include <sys/types.h>

#include "host.pb-c.h"

typedef struct Sbd Sbd;

/* What the start plan learned that the environment names. */
typedef struct {
	const char *cwd;          /* LS_EXECCWD */
	const char *out_path;     /* LSB_OUTPUTFILE, NULL: no -o */
	const char *err_path;     /* LSB_ERRORFILE, NULL: no -e */
	const char *jobfile;      /* LSB_JOBFILENAME */
	const char *hostfile;     /* LSB_DJOB_HOSTFILE */
	const char *tmpdir;       /* TMPDIR, NULL: none could be made */
} SbdJobEnvFacts;

/* LSF's job variables set on top of env (which is consumed). */
char **sbd_job_env_add(Sbd *sbd, char **env, const Basalt__StartJobRequest *req,
    const SbdJobEnvFacts *f);

/* A file in sbatchd's state directory made for the job's owner (0600). */
gboolean sbd_file_for_owner(const char *path, uid_t uid, gid_t gid,
    const char *text, gsize len, GError **error);

/* One execution host per line, one line per slot. */
gboolean sbd_job_hostfile_write(const char *path, const Basalt__StartJobRequest *req,
    uid_t uid, gid_t gid, GError **error);

/* A new 0700 directory for uid under base, named <stem>.tmpdir (or
 * <stem>.tmpdir.XXXXXX when that name is taken); *out is its path. */
gboolean sbd_job_tmpdir_create(const char *base, const char *stem, uid_t uid,
    gid_t gid, char **out, GError **error);
/* Remove it and everything in it, never following a symbolic link and
 * never leaving its file system; FALSE with error when something stayed. */
gboolean sbd_job_tmpdir_remove(const char *path, GError **error);

#endif
