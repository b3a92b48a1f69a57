/*
 * cgroup v2 memory files (see cgroup-mem.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup-mem.h"
#include "util/error.h"

gboolean
bs_cgroup_under(const char *mount, const char *parent)
{
	gsize n;

	if (mount == NULL || parent == NULL || *mount != '/')
		return FALSE;
	n = strlen(mount);
	while (n > 1 && mount[n - 1] == '/')
		n--;
	/* A plain prefix would also take /sys/fs/cgroupX for /sys/fs/cgroup. */
	if (strncmp(parent, mount, n) != 0 || (n > 1 && parent[n] != '/'))
		return FALSE;
	if (parent[n + (n > 1)] == '\0' || strstr(parent + n, "/..") != NULL)
		return FALSE;
	return TRUE;
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

/* Write a short value to a control file that exists: the kernel makes
 * them, so a missing one is an error, never a new regular file. */
static gboolean
write_ctl(const char *dir, const char *file, const char *value)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	/* O_TRUNC as a shell's ">" does: cgroupfs ignores it, a stand-in needs it. */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	gboolean ok;

	if (fd < 0)
		return FALSE;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok;
}

char *
bs_cgroup_setup_parent(const char *mount, const char *conf_parent, GError **error)
{
	g_autofree char *ctl = g_build_filename(mount, "cgroup.controllers", NULL);
	g_autofree char *parent = NULL;

	if (!has_word(ctl, "memory")) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "cgroup v2 at %s has no memory controller", mount);
		return NULL;
	}
	parent = conf_parent != NULL && *conf_parent ? g_strdup(conf_parent) :
	    g_build_filename(mount, "basalt", NULL);
	if (!bs_cgroup_under(mount, parent)) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "%s is not a directory under %s", parent, mount);
		return NULL;
	}
	if (mkdir(parent, 0755) < 0 && errno != EEXIST) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s",
		    parent, g_strerror(errno));
		return NULL;
	}
	/* Each level passes the memory controller down to its children. */
	(void)write_ctl(mount, "cgroup.subtree_control", "+memory");
	if (!write_ctl(parent, "cgroup.subtree_control", "+memory")) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO,
		    "cannot enable the memory controller in %s", parent);
		return NULL;
	}
	return g_steal_pointer(&parent);
}

static gboolean
set_kb(const char *dir, const char *file, gint64 kb)
{
	g_autofree char *v = NULL;

	if (kb < 0)
		v = g_strdup("max");
	else
		v = g_strdup_printf("%" G_GUINT64_FORMAT,
		    (guint64)kb > G_MAXUINT64 / 1024 ? G_MAXUINT64 : (guint64)kb * 1024);
	return write_ctl(dir, file, v);
}

char *
bs_cgroup_job_create(const char *parent, const char *key, gint64 mem_kb,
    gint64 swap_kb, GError **error)
{
	g_autofree char *dir = NULL;

	if (key == NULL || *key == '\0' || strchr(key, '/') != NULL ||
	    strcmp(key, "..") == 0 || strcmp(key, ".") == 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "bad cgroup name '%s'",
		    key != NULL ? key : "");
		return NULL;
	}
	dir = g_build_filename(parent, key, NULL);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create cgroup %s: %s",
		    dir, g_strerror(errno));
		return NULL;
	}
	if (mem_kb >= 0 && !set_kb(dir, "memory.max", mem_kb)) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot set memory.max in %s",
		    dir);
		(void)rmdir(dir);
		return NULL;
	}
	/* memory.swap.max is absent without swap accounting: not an error. */
	if (swap_kb >= 0)
		(void)set_kb(dir, "memory.swap.max", swap_kb);
	return g_steal_pointer(&dir);
}

gboolean
bs_cgroup_set_memory_max(const char *dir, gint64 mem_kb)
{
	return set_kb(dir, "memory.max", mem_kb);
}

gboolean
bs_cgroup_oom_killed(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "memory.events", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return FALSE;
	/* One "key count" per line; match the key whole, not a substring of
	 * another (oom_group_kill). */
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		if (g_str_has_prefix(lines[i], "oom_kill "))
			return g_ascii_strtoull(lines[i] + strlen("oom_kill "), NULL, 10) > 0;
	}
	return FALSE;
}
