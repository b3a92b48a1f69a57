# bhist, bacct and `badmin journal`: the history model, the layouts, and
# the programs run on a journal written by the test (they are bin_PROGRAMS,
# built by `all` before `check` runs this).
check_PROGRAMS += %reldir%/check_hist
TESTS += %reldir%/check_hist
%canon_reldir%_check_hist_SOURCES = %reldir%/check_hist.c %reldir%/cmd-run.h \
	%reldir%/journal-fixture.c
%canon_reldir%_check_hist_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_hist_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/cmd
%canon_reldir%_check_hist_LDADD = cmd/libbshist.a cmd/libbscmd.a lib/job/libbsjob.a lib/resreq/libbsresreq.a \
	lib/journal/libbsjournal.a proto/libbsproto.a lib/util/libbsutil.a \
	$(TEST_LIBS)
