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
#include <unistd.h>

#include "cgroup-mem.h"
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

void
sbd_cgroup_init(Sbd *sbd)
{
	const char *conf = sbd_conf_value(sbd, "LSB_CGROUP_PARENT");
	g_autofree char *mount = NULL;
	g_autoptr(GError) err = NULL;

	if (conf != NULL && g_ascii_strcasecmp(conf, "none") == 0)
		return;
	if (geteuid() != 0 || (mount = cgroup2_mount()) == NULL) {
		sbd_log(BS_LOG_INFO, NULL, "no writable cgroup v2 hierarchy: "
		    "memory limits are enforced from samples only");
		return;
	}
	if ((sbd->cgroup_parent = bs_cgroup_setup_parent(mount, conf, &err)) == NULL) {
		/* A parent the administrator named deserves a warning. */
		sbd_log(conf != NULL && *conf ? BS_LOG_WARNING : BS_LOG_INFO, NULL,
		    "no job cgroups (%s): memory limits are enforced from samples "
		    "only", err->message);
		return;
	}
	sbd_log(BS_LOG_INFO, NULL, "job memory limits also by cgroup v2 under %s",
	    sbd->cgroup_parent);
}

static gint64
kb_or_none(const Basalt__JobLimit *kb)
{
	if (kb == NULL)
		return -1;
	return kb->value > G_MAXINT64 ? G_MAXINT64 : (gint64)kb->value;
}

char *
sbd_cgroup_create(SbdJob *job, const Basalt__JobEffective *e)
{
	Sbd *sbd = job->sbd;
	g_autoptr(GError) err = NULL;

	if (sbd->cgroup_parent == NULL || e == NULL ||
	    (e->memlimit_kb == NULL && e->swaplimit_kb == NULL))
		return NULL;
	job->cgroup = bs_cgroup_job_create(sbd->cgroup_parent, job->key,
	    kb_or_none(e->memlimit_kb), kb_or_none(e->swaplimit_kb), &err);
	if (job->cgroup == NULL) {
		sbd_log(BS_LOG_WARNING, job, "%s", err->message);
		return NULL;
	}
	return g_build_filename(job->cgroup, "cgroup.procs", NULL);
}

void
sbd_cgroup_set_memory(SbdJob *job, const Basalt__JobLimit *kb)
{
	if (job->cgroup == NULL)
		return;
	if (!bs_cgroup_set_memory_max(job->cgroup, kb_or_none(kb)))
		sbd_log(BS_LOG_WARNING, job, "cannot set memory.max in %s: %s",
		    job->cgroup, g_strerror(errno));
}

gboolean
sbd_cgroup_oom_killed(const SbdJob *job)
{
	return job->cgroup != NULL && bs_cgroup_oom_killed(job->cgroup);
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
