/*
 * sbatchd/cgroup-mem.c against a directory standing in for the cgroup2
 * mount: which parents are accepted, the memory controller enabled, the
 * limits written in bytes, the OOM count read; and job-limits.c's mapping
 * of a kernel OOM kill to TERM_MEMLIMIT.  The kernel makes a cgroup's
 * control files; here the test makes them, as empty files, first.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "cgroup-mem.h"
#include "job-limits.h"
#include "tap.h"

static char *mount_dir;

static void
put(const char *dir, const char *file, const char *text)
{
	g_autofree char *p = g_build_filename(dir, file, NULL);

	ck_assert(g_file_set_contents(p, text, -1, NULL));
}

static char *
get(const char *dir, const char *file)
{
	g_autofree char *p = g_build_filename(dir, file, NULL);
	char *text = NULL;

	ck_assert(g_file_get_contents(p, &text, NULL, NULL));
	return text;
}

static void
setup(void)
{
	mount_dir = g_dir_make_tmp("bs-cgroup-XXXXXX", NULL);
	ck_assert_ptr_nonnull(mount_dir);
	put(mount_dir, "cgroup.controllers", "cpuset cpu io memory pids\n");
	put(mount_dir, "cgroup.subtree_control", "");
}

static void
rm_rf(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *n;

	while (d != NULL && (n = g_dir_read_name(d)) != NULL) {
		g_autofree char *p = g_build_filename(path, n, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
			rm_rf(p);
		else
			(void)g_unlink(p);
	}
	if (d != NULL)
		g_dir_close(d);
	(void)g_rmdir(path);
}

static void
teardown(void)
{
	rm_rf(mount_dir);
	g_clear_pointer(&mount_dir, g_free);
}

START_TEST(test_under)
{
	ck_assert(bs_cgroup_under("/sys/fs/cgroup", "/sys/fs/cgroup/basalt"));
	ck_assert(bs_cgroup_under("/sys/fs/cgroup/", "/sys/fs/cgroup/a/b"));
	ck_assert(bs_cgroup_under("/", "/basalt"));
	/* A sibling that only shares the prefix is not under the mount. */
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "/sys/fs/cgroupX"));
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "/sys/fs/cgroupX/basalt"));
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "/sys/fs/cgroup"));
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "/sys/fs/cgroup/"));
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "/sys/fs/cgroup/../etc"));
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "/sys/fs"));
	ck_assert(!bs_cgroup_under("/sys/fs/cgroup", "basalt"));
}
END_TEST

START_TEST(test_parent)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *sibling = g_strconcat(mount_dir, "X/basalt", NULL);
	g_autofree char *dflt = g_build_filename(mount_dir, "basalt", NULL);
	g_autofree char *parent = NULL;
	g_autofree char *ctl = NULL;
	g_autofree char *root_ctl = NULL;

	parent = bs_cgroup_setup_parent(mount_dir, sibling, &err);
	ck_assert_ptr_null(parent);
	ck_assert(strstr(err->message, "is not a directory under") != NULL);
	g_clear_error(&err);
	/* The parent's control file exists once the kernel made the
	 * directory; a stand-in has to make both. */
	ck_assert_int_eq(g_mkdir(dflt, 0755), 0);
	put(dflt, "cgroup.subtree_control", "");
	parent = bs_cgroup_setup_parent(mount_dir, NULL, &err);
	ck_assert_ptr_nonnull(parent);
	ck_assert_str_eq(parent, dflt);
	ctl = get(parent, "cgroup.subtree_control");
	ck_assert_str_eq(ctl, "+memory");
	root_ctl = get(mount_dir, "cgroup.subtree_control");
	ck_assert_str_eq(root_ctl, "+memory");
}
END_TEST

START_TEST(test_no_memory_controller)
{
	g_autoptr(GError) err = NULL;
	char *parent;

	put(mount_dir, "cgroup.controllers", "cpu io pids\n");
	parent = bs_cgroup_setup_parent(mount_dir, NULL, &err);
	ck_assert_ptr_null(parent);
	ck_assert(strstr(err->message, "no memory controller") != NULL);
}
END_TEST

START_TEST(test_no_control_file)
{
	g_autoptr(GError) err = NULL;
	char *parent;

	/* Not a cgroup file system: the parent has no control file, and none
	 * is created as a regular file. */
	parent = bs_cgroup_setup_parent(mount_dir, NULL, &err);
	ck_assert_ptr_null(parent);
	ck_assert(strstr(err->message, "cannot enable the memory controller") != NULL);
}
END_TEST

START_TEST(test_job_limits)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *jobdir = g_build_filename(mount_dir, "42.0", NULL);
	g_autofree char *dir = NULL;
	g_autofree char *max = NULL, *swap = NULL, *unset = NULL;

	ck_assert_int_eq(g_mkdir(jobdir, 0755), 0);
	put(jobdir, "memory.max", "max");
	put(jobdir, "memory.swap.max", "max");
	dir = bs_cgroup_job_create(mount_dir, "42.0", 51200, 1024, &err);
	ck_assert_ptr_nonnull(dir);
	ck_assert_str_eq(dir, jobdir);
	max = get(dir, "memory.max");
	ck_assert_str_eq(max, "52428800");
	swap = get(dir, "memory.swap.max");
	ck_assert_str_eq(swap, "1048576");
	ck_assert(bs_cgroup_set_memory_max(dir, -1));
	unset = get(dir, "memory.max");
	ck_assert_str_eq(unset, "max");
	ck_assert_ptr_null(bs_cgroup_job_create(mount_dir, "../x", 1, -1, &err));
	g_clear_error(&err);
	/* No memory.max to write (not a cgroup): an error, and no directory
	 * left behind. */
	ck_assert_ptr_null(bs_cgroup_job_create(mount_dir, "43.0", 1, -1, &err));
	{
		g_autofree char *left = g_build_filename(mount_dir, "43.0", NULL);

		ck_assert(!g_file_test(left, G_FILE_TEST_EXISTS));
	}
}
END_TEST

START_TEST(test_oom)
{
	ck_assert(!bs_cgroup_oom_killed(mount_dir));   /* no memory.events */
	put(mount_dir, "memory.events",
	    "low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\noom_group_kill 1\n");
	ck_assert(!bs_cgroup_oom_killed(mount_dir));
	put(mount_dir, "memory.events",
	    "low 0\nhigh 0\nmax 12\noom 1\noom_kill 2\noom_group_kill 0\n");
	ck_assert(bs_cgroup_oom_killed(mount_dir));
	/* What sbatchd calls the end of a job the OOM killer acted in. */
	ck_assert_str_eq(sbd_limits_end_term(FALSE, -1, bs_cgroup_oom_killed(mount_dir)),
	    "TERM_MEMLIMIT");
	ck_assert_str_eq(sbd_limits_end_term(TRUE, 60, FALSE), "TERM_CPULIMIT");
	ck_assert_ptr_null(sbd_limits_end_term(TRUE, -1, FALSE));
	ck_assert_ptr_null(sbd_limits_end_term(FALSE, 60, FALSE));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_cgroup");
	TCase *tc = tcase_create("cgroup-mem");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_under);
	tcase_add_test(tc, test_parent);
	tcase_add_test(tc, test_no_memory_controller);
	tcase_add_test(tc, test_no_control_file);
	tcase_add_test(tc, test_job_limits);
	tcase_add_test(tc, test_oom);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
