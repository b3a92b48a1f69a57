/*
 * Memory limits by cgroup v2, when the host has it.
 *
 * sbatchd's samples see a job over its MEMLIMIT only every
 * LSF_PIM_SLEEPTIME seconds; a cgroup's memory.max stops it at once.  So
 * when the host has a cgroup v2 hierarchy with the memory controller that
 * sbatchd may write (it runs as root), every job with a memory or swap
 * limit gets its own cgroup, LSB_CGROUP_PARENT/<job key> (default parent:
 * basalt under the cgroup2 mount), with memory.max = MEMLIMIT and
 * memory.swap.max = SWAPLIMIT.  The kernel's OOM kill inside it is
 * reported as TERM_MEMLIMIT.  The job joins the cgroup in the launch child
 * before it becomes the user, so every process it forks is inside.
 *
 * Everything here is optional: a host without cgroup v2 (or a hybrid v1
 * host, or sbatchd not root, or LSB_CGROUP_PARENT=none) runs jobs exactly
 * as before, with the limits enforced from the samples alone, and a
 * cgroup that cannot be made is logged, never a launch failure.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbd.h"

/* The cgroup2 mount point, from /proc/self/mounts; NULL: none. */
static char *
cgroup2_mount(void)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents("/proc/self/mounts", &text, NULL, NULL))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], " ", 4);

		if (g_strv_length(f) >= 3 && g_str_equal(f[2], "cgroup2"))
			return g_strdup(f[1]);
	}
	return NULL;
}

static gboolean
has_word(const char *path, const char *word)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) words = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return FALSE;
	words = g_strsplit_set(g_strstrip(text), " \n", -1);
	return g_strv_contains((const char *const *)words, word);
}

/* Write a short value to a control file that exists. */
static gboolean
write_ctl(const char *dir, const char *file, const char *value)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	gboolean ok;

	if (fd < 0)
		return FALSE;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok;
}

void
sbd_cgroup_init(Sbd *sbd)
{
	const char *conf = sbd_conf_value(sbd, "LSB_CGROUP_PARENT");
	g_autofree char *mount = NULL;
	g_autofree char *parent = NULL;
	g_autofree char *ctl = NULL;

	if (conf != NULL && g_ascii_strcasecmp(conf, "none") == 0)
		return;
	if (geteuid() != 0 || (mount = cgroup2_mount()) == NULL) {
		sbd_log(BS_LOG_INFO, NULL, "no writable cgroup v2 hierarchy: "
		    "memory limits are enforced from samples only");
		return;
	}
	ctl = g_build_filename(mount, "cgroup.controllers", NULL);
	if (!has_word(ctl, "memory")) {
		sbd_log(BS_LOG_INFO, NULL, "cgroup v2 at %s has no memory "
		    "controller: memory limits are enforced from samples only", mount);
		return;
	}
	parent = conf != NULL && *conf ? g_strdup(conf) :
	    g_build_filename(mount, "basalt", NULL);
	if (!g_str_has_prefix(parent, mount) || strstr(parent, "/..") != NULL ||
	    (mkdir(parent, 0755) < 0 && errno != EEXIST)) {
		sbd_log(BS_LOG_WARNING, NULL, "cannot use %s as the parent of job "
		    "cgroups (it must be a directory under %s): %s", parent, mount,
		    g_strerror(errno));
		return;
	}
	/* Each level passes the memory controller down to its children. */
	(void)write_ctl(mount, "cgroup.subtree_control", "+memory");
	if (!write_ctl(parent, "cgroup.subtree_control", "+memory")) {
		sbd_log(BS_LOG_WARNING, NULL, "cannot enable the memory controller "
		    "in %s: memory limits are enforced from samples only", parent);
		return;
	}
	sbd->cgroup_parent = g_steal_pointer(&parent);
	sbd_log(BS_LOG_INFO, NULL, "job memory limits also by cgroup v2 under %s",
	    sbd->cgroup_parent);
}

static gboolean
set_bytes(const char *dir, const char *file, const Basalt__JobLimit *kb)
{
	g_autofree char *v = NULL;

	if (kb == NULL)
		return TRUE;
	v = g_strdup_printf("%" G_GUINT64_FORMAT,
	    kb->value > G_MAXUINT64 / 1024 ? G_MAXUINT64 : kb->value * 1024);
	return write_ctl(dir, file, v);
}

char *
sbd_cgroup_create(SbdJob *job, const Basalt__JobEffective *e)
{
	Sbd *sbd = job->sbd;
	g_autofree char *dir = NULL;

	if (sbd->cgroup_parent == NULL || e == NULL ||
	    (e->memlimit_kb == NULL && e->swaplimit_kb == NULL))
		return NULL;
	dir = g_build_filename(sbd->cgroup_parent, job->key, NULL);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		sbd_log(BS_LOG_WARNING, job, "cannot create cgroup %s: %s", dir,
		    g_strerror(errno));
		return NULL;
	}
	/* memory.swap.max is absent without swap accounting: not an error. */
	if (!set_bytes(dir, "memory.max", e->memlimit_kb))
		sbd_log(BS_LOG_WARNING, job, "cannot set memory.max in %s", dir);
	(void)set_bytes(dir, "memory.swap.max", e->swaplimit_kb);
	job->cgroup = g_steal_pointer(&dir);
	return g_build_filename(job->cgroup, "cgroup.procs", NULL);
}

void
sbd_cgroup_set_memory(SbdJob *job, const Basalt__JobLimit *kb)
{
	gboolean ok;

	if (job->cgroup == NULL)
		return;
	ok = kb != NULL ? set_bytes(job->cgroup, "memory.max", kb) :
	    write_ctl(job->cgroup, "memory.max", "max");
	if (!ok)
		sbd_log(BS_LOG_WARNING, job, "cannot set memory.max in %s: %s",
		    job->cgroup, g_strerror(errno));
}

gboolean
sbd_cgroup_oom_killed(const SbdJob *job)
{
	g_autofree char *path = NULL;
	g_autofree char *text = NULL;
	const char *p;

	if (job->cgroup == NULL)
		return FALSE;
	path = g_build_filename(job->cgroup, "memory.events", NULL);
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return FALSE;
	p = strstr(text, "oom_kill ");
	return p != NULL && g_ascii_strtoull(p + strlen("oom_kill "), NULL, 10) > 0;
}

void
sbd_cgroup_remove(SbdJob *job)
{
	if (job->cgroup == NULL)
		return;
	/* Busy while a process that left the job's process group lives on. */
	if (rmdir(job->cgroup) < 0 && errno != ENOENT)
		sbd_log(BS_LOG_WARNING, job, "cannot remove cgroup %s: %s",
		    job->cgroup, g_strerror(errno));
	g_clear_pointer(&job->cgroup, g_free);
}
