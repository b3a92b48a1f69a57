# check suites for sbatchd's process control (real processes, real signals)
SBD_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) \
	-DBS_TEST_JOBWRAP='"$(abs_top_builddir)/sbatchd/bs-jobwrap"'
SBD_TEST_LIBS = sbatchd/libsbdexec.a lib/util/libbsutil.a $(TEST_LIBS)
noinst_HEADERS += %reldir%/check_sbd_common.h

check_PROGRAMS += %reldir%/check_sbd_launch %reldir%/check_sbd_jobctl
TESTS += %reldir%/check_sbd_launch %reldir%/check_sbd_jobctl

%canon_reldir%_check_sbd_launch_SOURCES = %reldir%/check_sbd_launch.c %reldir%/check_sbd_common.c
%canon_reldir%_check_sbd_launch_CPPFLAGS = $(SBD_TEST_CPPFLAGS)
%canon_reldir%_check_sbd_launch_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sbd_launch_LDADD = $(SBD_TEST_LIBS)

%canon_reldir%_check_sbd_jobctl_SOURCES = %reldir%/check_sbd_jobctl.c %reldir%/check_sbd_common.c
%canon_reldir%_check_sbd_jobctl_CPPFLAGS = $(SBD_TEST_CPPFLAGS)
%canon_reldir%_check_sbd_jobctl_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sbd_jobctl_LDADD = $(SBD_TEST_LIBS)

# bsub -L: the login shell, with and without bs-jobwrap.
check_PROGRAMS += %reldir%/check_sbd_login_shell
TESTS += %reldir%/check_sbd_login_shell
%canon_reldir%_check_sbd_login_shell_SOURCES = %reldir%/check_sbd_login_shell.c %reldir%/check_sbd_common.c
%canon_reldir%_check_sbd_login_shell_CPPFLAGS = $(SBD_TEST_CPPFLAGS)
%canon_reldir%_check_sbd_login_shell_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sbd_login_shell_LDADD = $(SBD_TEST_LIBS)

# The daemon itself, run from the build tree against a fake mbatchd.
check_PROGRAMS += %reldir%/check_sbd_daemon
TESTS += %reldir%/check_sbd_daemon
%canon_reldir%_check_sbd_daemon_SOURCES = %reldir%/check_sbd_daemon.c %reldir%/check_sbd_common.c \
	%reldir%/sbd-harness.c %reldir%/sbd-harness.h
%canon_reldir%_check_sbd_daemon_CPPFLAGS = $(SBD_TEST_CPPFLAGS) \
	-DBS_TEST_SBATCHD='"$(abs_top_builddir)/sbatchd/sbatchd"'
%canon_reldir%_check_sbd_daemon_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sbd_daemon_LDADD = sbatchd/libsbdexec.a $(BSRPC_LIBS) $(TEST_LIBS)
$(%canon_reldir%_check_sbd_daemon_OBJECTS): $(PROTO_GEN_H)

# Paths and the job report as the execution host makes them (pure).
check_PROGRAMS += %reldir%/check_sbd_jobenv
TESTS += %reldir%/check_sbd_jobenv
%canon_reldir%_check_sbd_jobenv_SOURCES = %reldir%/check_sbd_jobenv.c
%canon_reldir%_check_sbd_jobenv_CPPFLAGS = $(SBD_TEST_CPPFLAGS)
%canon_reldir%_check_sbd_jobenv_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sbd_jobenv_LDADD = $(SBD_TEST_LIBS)
# cgroup v2 memory files (sbatchd/cgroup-mem.c) against a stand-in mount.
check_PROGRAMS += %reldir%/check_sbd_cgroup
TESTS += %reldir%/check_sbd_cgroup
%canon_reldir%_check_sbd_cgroup_SOURCES = %reldir%/check_sbd_cgroup.c sbatchd/job-limits.c
%canon_reldir%_check_sbd_cgroup_CPPFLAGS = $(SBD_TEST_CPPFLAGS) -I$(top_srcdir)/sbatchd
%canon_reldir%_check_sbd_cgroup_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sbd_cgroup_LDADD = $(SBD_TEST_LIBS) $(BSRPC_LIBS)
$(%canon_reldir%_check_sbd_cgroup_OBJECTS): $(PROTO_GEN_H)
# The limit mapping of sbatchd/job-limits.c: pure functions, no daemon.
check_PROGRAMS += %reldir%/check_job_limits
TESTS += %reldir%/check_job_limits
%canon_reldir%_check_job_limits_SOURCES = %reldir%/check_job_limits.c sbatchd/job-limits.c
%canon_reldir%_check_job_limits_CPPFLAGS = $(SBD_TEST_CPPFLAGS) -I$(top_srcdir)/sbatchd
%canon_reldir%_check_job_limits_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_job_limits_LDADD = $(BSRPC_LIBS) $(TEST_LIBS)
$(%canon_reldir%_check_job_limits_OBJECTS): $(PROTO_GEN_H)
