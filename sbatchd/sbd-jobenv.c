/*
 * LSF's job environment and the files it points to (see sbd-jobenv.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbd-jobenv.h"
#include "sbd.h"
#include "util/error.h"

#ifndef BS_BINDIR
#define BS_BINDIR "/usr/local/bin"
#endif
#ifndef BS_LIBDIR
#define BS_LIBDIR "/usr/local/lib"
#endif
#ifndef BS_SBINDIR
#define BS_SBINDIR "/usr/local/sbin"
#endif
/* LSF's longest job name; a longer default name (the command) would make
 * LSB_JOBNAME too long to pass to execve(). */
#define JOB_NAME_MAX 4094
/* Deeper trees are left in place (and logged) rather than risk the stack. */
#define TMPDIR_MAX_DEPTH 128

static char **
setenv_num(char **env, const char *key, guint64 n)
{
	char num[32];

	g_snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, n);
	return g_environ_setenv(env, key, num, TRUE);
}

static const char *
conf_or(Sbd *sbd, const char *key, const char *dflt)
{
	const char *v = sbd_conf_value(sbd, key);

	return v != NULL && *v != '\0' ? v : dflt;
}

char **
sbd_job_env_add(Sbd *sbd, char **env, const Basalt__StartJobRequest *req,
    const SbdJobEnvFacts *f)
{
	const Basalt__JobSpec *s = req->spec;
	const char *cluster = sbd->cfg->cluster && sbd->cfg->cluster->name ?
	    sbd->cfg->cluster->name : "";
	const char *subcwd = s->sub_cwd && *s->sub_cwd ? s->sub_cwd : s->cwd;
	guint64 slots = req->n_exec_hosts > 0 ? req->n_exec_hosts : 1;
	const char *name;

	name = g_environ_getenv(env, "LSB_JOBNAME");
	if (name != NULL && strlen(name) > JOB_NAME_MAX) {
		g_autofree char *cut = g_strndup(name, JOB_NAME_MAX);

		env = g_environ_setenv(env, "LSB_JOBNAME", cut, TRUE);
	}
	env = setenv_num(env, "LSB_DJOB_NUMPROC", slots);
	env = setenv_num(env, "LSB_MAX_NUM_PROCESSORS", slots);
	if (f->hostfile != NULL)
		env = g_environ_setenv(env, "LSB_DJOB_HOSTFILE", f->hostfile, TRUE);
	if (f->out_path != NULL)
		env = g_environ_setenv(env, "LSB_OUTPUTFILE", f->out_path, TRUE);
	if (f->err_path != NULL)
		env = g_environ_setenv(env, "LSB_ERRORFILE", f->err_path, TRUE);
	env = g_environ_setenv(env, "LSB_EXEC_CLUSTER", cluster, TRUE);
	if (f->jobfile != NULL)
		env = g_environ_setenv(env, "LSB_JOBFILENAME", f->jobfile, TRUE);
	env = g_environ_setenv(env, "LSB_PROJECT_NAME",
	    s->project && *s->project ? s->project : "default", TRUE);
	env = g_environ_setenv(env, "LSB_SUB_USER", req->user ? req->user : "", TRUE);
	if (subcwd != NULL && *subcwd != '\0')
		env = g_environ_setenv(env, "LS_SUBCWD", subcwd, TRUE);
	if (f->cwd != NULL)
		env = g_environ_setenv(env, "LS_EXECCWD", f->cwd, TRUE);
	env = g_environ_setenv(env, "LSF_BINDIR", conf_or(sbd, "LSF_BINDIR", BS_BINDIR), TRUE);
	env = g_environ_setenv(env, "LSF_LIBDIR", conf_or(sbd, "LSF_LIBDIR", BS_LIBDIR), TRUE);
	env = g_environ_setenv(env, "LSF_SERVERDIR",
	    sbd->cfg->lsf->lsf_serverdir ? sbd->cfg->lsf->lsf_serverdir : BS_SBINDIR, TRUE);
	if (f->tmpdir != NULL) {
		env = g_environ_setenv(env, "TMPDIR", f->tmpdir, TRUE);
		env = g_environ_setenv(env, "LSB_JOB_TMPDIR", f->tmpdir, TRUE);
	}
	return env;
}

gboolean
sbd_file_for_owner(const char *path, uid_t uid, gid_t gid, const char *text,
    gsize len, GError **error)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	gboolean ok = fd >= 0;
	gsize done = 0;

	while (ok && done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		ok = n > 0;
		done += ok ? (gsize)n : 0;
	}
	if (ok && geteuid() == 0)
		ok = fchown(fd, uid, gid) == 0;
	if (!ok)
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s", path,
		    g_strerror(errno));
	if (fd >= 0)
		close(fd);
	return ok;
}

gboolean
sbd_job_hostfile_write(const char *path, const Basalt__StartJobRequest *req,
    uid_t uid, gid_t gid, GError **error)
{
	g_autoptr(GString) text = g_string_new(NULL);

	for (size_t i = 0; i < req->n_exec_hosts; i++)
		g_string_append_printf(text, "%s\n", req->exec_hosts[i]);
	return sbd_file_for_owner(path, uid, gid, text->str, text->len, error);
}

/* Make name in base (a descriptor) for uid, or say why not. */
static int
tmpdir_make(int base, const char *name, uid_t uid, gid_t gid)
{
	struct stat st;
	int fd;

	if (mkdirat(base, name, 0700) < 0)
		return -errno;
	/* Root made it and owns it, so in a sticky /tmp nobody else can
	 * rename it away before this open; O_NOFOLLOW guards the rest. */
	fd = openat(base, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
	    (geteuid() == 0 && fchown(fd, uid, gid) < 0) || fchmod(fd, 0700) < 0) {
		int e = errno ? errno : EPERM;

		close(fd);
		(void)unlinkat(base, name, AT_REMOVEDIR);
		return -e;
	}
	close(fd);
	return 0;
}

gboolean
sbd_job_tmpdir_create(const char *base, const char *stem, uid_t uid, gid_t gid,
    char **out, GError **error)
{
	int bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	g_autofree char *name = g_strconcat(stem, ".tmpdir", NULL);
	int rc;

	if (bfd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot open %s: %s", base,
		    g_strerror(errno));
		return FALSE;
	}
	rc = tmpdir_make(bfd, name, uid, gid);
	/* Taken (another cluster on this host, a stale run): a fresh name. */
	for (int tries = 0; rc == -EEXIST && tries < 16; tries++) {
		g_free(name);
		name = g_strdup_printf("%s.tmpdir.%06x", stem,
		    g_random_int_range(0, 0xffffff));
		rc = tmpdir_make(bfd, name, uid, gid);
	}
	close(bfd);
	if (rc < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create %s/%s: %s",
		    base, name, g_strerror(-rc));
		return FALSE;
	}
	*out = g_build_filename(base, name, NULL);
	return TRUE;
}

/* Empty the directory open at dfd; every entry is handled through dfd, and
 * a subdirectory is entered only with O_NOFOLLOW on the same device. */
static gboolean
tmpdir_empty(int dfd, dev_t dev, int depth)
{
	DIR *d;
	struct dirent *e;
	gboolean ok = TRUE;
	int dup_fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);

	if (dup_fd < 0 || (d = fdopendir(dup_fd)) == NULL) {
		if (dup_fd >= 0)
			close(dup_fd);
		return FALSE;
	}
	while ((e = readdir(d)) != NULL) {
		int sub;
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dfd, e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ok = FALSE;
			continue;
		}
		sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			/* Swapped for something else meanwhile: remove that. */
			if (unlinkat(dfd, e->d_name, 0) < 0)
				ok = FALSE;
			continue;
		}
		if (fstat(sub, &st) < 0 || st.st_dev != dev || depth >= TMPDIR_MAX_DEPTH ||
		    !tmpdir_empty(sub, dev, depth + 1))
			ok = FALSE;
		close(sub);
		if (unlinkat(dfd, e->d_name, AT_REMOVEDIR) < 0)
			ok = FALSE;
	}
	closedir(d);
	return ok;
}

gboolean
sbd_job_tmpdir_remove(const char *path, GError **error)
{
	g_autofree char *base = g_path_get_dirname(path);
	g_autofree char *name = g_path_get_basename(path);
	int bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd = bfd < 0 ? -1 :
	    openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	gboolean ok;

	if (fd < 0) {
		int e = errno;

		if (bfd >= 0)
			close(bfd);
		if (e == ENOENT)
			return TRUE;
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot open %s: %s", path,
		    g_strerror(e));
		return FALSE;
	}
	ok = fstat(fd, &st) == 0 && tmpdir_empty(fd, st.st_dev, 0);
	close(fd);
	if (unlinkat(bfd, name, AT_REMOVEDIR) < 0)
		ok = FALSE;
	close(bfd);
	if (!ok)
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot remove all of %s", path);
	return ok;
}
