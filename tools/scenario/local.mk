# Policy scenarios (basalt-scenario(5)): the library that reads a scenario
# file into a snapshot and compares plans with its expectations, and the
# bscenario tool built on it.  The runner is in tests/sched/local.mk.
noinst_LIBRARIES += %reldir%/libbsscn.a
%canon_reldir%_libbsscn_a_SOURCES = \
	%reldir%/scenario.h %reldir%/scn-internal.h \
	%reldir%/scn-load.c %reldir%/scn-parse.c %reldir%/scn-values.c \
	%reldir%/scn-config.c %reldir%/scn-jobs.c %reldir%/scn-expect.c \
	%reldir%/scn-plan.c %reldir%/scn-check.c %reldir%/scn-lease.c \
	%reldir%/scn-reclaim.c %reldir%/scn-reclaim-time.c
%canon_reldir%_libbsscn_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)

SCN_LIBS = %reldir%/libbsscn.a mbatchd/libbsschedin.a mbatchd/libbssched.a \
	lib/conf/libbsconf.a lib/resreq/libbsresreq.a lib/util/libbsutil.a \
	$(GLIB_LIBS) -lm

bin_PROGRAMS += %reldir%/bscenario
%canon_reldir%_bscenario_SOURCES = %reldir%/bscenario.c
%canon_reldir%_bscenario_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_bscenario_LDADD = $(SCN_LIBS)
