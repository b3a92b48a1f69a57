# sbatchd: the process-control core (launch, reap, job control) as a
# library, and the daemon program (sbatchd) that drives it over the network.
noinst_LIBRARIES += %reldir%/libsbdexec.a
%canon_reldir%_libsbdexec_a_CPPFLAGS = $(AM_CPPFLAGS) -DBS_LIBEXECDIR='"$(libexecdir)"'
%canon_reldir%_libsbdexec_a_SOURCES = \
	%reldir%/launch.c %reldir%/launch.h \
	%reldir%/launch-child.c %reldir%/launch-child.h \
	%reldir%/launch-report.h \
	%reldir%/procscan.c %reldir%/procscan.h \
	%reldir%/cgroup-mem.c %reldir%/cgroup-mem.h \
	%reldir%/reaper.c %reldir%/reaper.h \
	%reldir%/jobctl.c %reldir%/jobctl.h \
	%reldir%/job-paths.c %reldir%/job-paths.h \
	%reldir%/job-report-format.c %reldir%/job-report-format.h

# The leader of a job that keeps a status record (see jobwrap.c).  Plain C,
# no GLib, so the commands it forks inherit as little memory as possible.
libexec_PROGRAMS = %reldir%/bs-jobwrap
%canon_reldir%_bs_jobwrap_SOURCES = %reldir%/jobwrap.c %reldir%/launch-report.h \
	%reldir%/irelay.c %reldir%/irelay.h
%canon_reldir%_bs_jobwrap_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/lib/iact
%canon_reldir%_bs_jobwrap_LDADD = $(BSIACT_LIBS)
$(%canon_reldir%_bs_jobwrap_OBJECTS): $(PROTO_GEN_H)

# The daemon: the link to mbatchd, the job table, the report spool.
sbin_PROGRAMS += %reldir%/sbatchd
%canon_reldir%_sbatchd_CPPFLAGS = $(AM_CPPFLAGS) -DBS_LIBEXECDIR='"$(libexecdir)"' \
	-DBS_BINDIR='"$(bindir)"' -DBS_LIBDIR='"$(libdir)"' -DBS_SBINDIR='"$(sbindir)"'
%canon_reldir%_sbatchd_SOURCES = \
	%reldir%/sbd.c %reldir%/sbd.h \
	%reldir%/sbd-link.c %reldir%/sbd-exec.c %reldir%/sbd-peek.c \
	%reldir%/sbd-job.c %reldir%/sbd-start.c %reldir%/job-prepost.c \
	%reldir%/sbd-warning.c \
	%reldir%/job-modify.c \
	%reldir%/start-refusal.c \
	%reldir%/sbd-store.c %reldir%/sbd-fresh.c %reldir%/sbd-spool.c %reldir%/sbd-load.c \
	%reldir%/sbd-auth.c %reldir%/sbd-tasks.c %reldir%/sbd-interactive.c \
	%reldir%/sbd-jobenv.c %reldir%/sbd-jobenv.h \
	%reldir%/sbd-report.c %reldir%/sbd-report.h \
	%reldir%/job-limits.c %reldir%/job-limits.h \
	%reldir%/job-usage.c \
	%reldir%/job-cgroup.c
%canon_reldir%_sbatchd_LDADD = %reldir%/libsbdexec.a lib/conf/libbsconf.a \
	lib/auth/libbsauth.a lib/iact/libbsiact.a $(BSRPC_LIBS) $(MUNGE_LIBS)
$(%canon_reldir%_sbatchd_OBJECTS): $(PROTO_GEN_H)
