check_PROGRAMS += %reldir%/check_sched
TESTS += %reldir%/check_sched
%canon_reldir%_check_sched_SOURCES = %reldir%/check_sched.c
%canon_reldir%_check_sched_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_sched_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sched_LDADD = mbatchd/libbssched.a $(TEST_LIBS) -lm

check_PROGRAMS += %reldir%/check_state
TESTS += %reldir%/check_state
%canon_reldir%_check_state_SOURCES = %reldir%/check_state.c
%canon_reldir%_check_state_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_state_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_state_LDADD = mbatchd/libbsstate.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a \
	lib/util/libbsutil.a $(TEST_LIBS)
