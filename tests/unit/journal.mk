# The event journal (lib/journal): framing, group commit, recovery, salvage,
# checkpoints, full disk.
JOURNAL_TEST_LIBS = lib/journal/libbsjournal.a proto/libbsproto.a \
	lib/util/libbsutil.a $(TEST_LIBS)
noinst_HEADERS += %reldir%/journal-fixture.h

check_PROGRAMS += %reldir%/check_evlog
TESTS += %reldir%/check_evlog
%canon_reldir%_check_evlog_SOURCES = %reldir%/check_evlog.c \
	%reldir%/journal-fixture.c
%canon_reldir%_check_evlog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_evlog_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_evlog_LDADD = $(JOURNAL_TEST_LIBS)

check_PROGRAMS += %reldir%/check_checkpoint
TESTS += %reldir%/check_checkpoint
%canon_reldir%_check_checkpoint_SOURCES = %reldir%/check_checkpoint.c \
	%reldir%/journal-fixture.c
%canon_reldir%_check_checkpoint_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_checkpoint_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_checkpoint_LDADD = $(JOURNAL_TEST_LIBS)

check_PROGRAMS += %reldir%/check_journal_prealloc
TESTS += %reldir%/check_journal_prealloc
%canon_reldir%_check_journal_prealloc_SOURCES = \
	%reldir%/check_journal_prealloc.c %reldir%/journal-fixture.c
%canon_reldir%_check_journal_prealloc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_journal_prealloc_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_journal_prealloc_LDADD = $(JOURNAL_TEST_LIBS)

check_PROGRAMS += %reldir%/check_journal_skip
TESTS += %reldir%/check_journal_skip
%canon_reldir%_check_journal_skip_SOURCES = %reldir%/check_journal_skip.c \
	%reldir%/journal-fixture.c
%canon_reldir%_check_journal_skip_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_journal_skip_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_journal_skip_LDADD = $(JOURNAL_TEST_LIBS)
