check_PROGRAMS += %reldir%/check_util
TESTS += %reldir%/check_util
%canon_reldir%_check_util_SOURCES = %reldir%/check_util.c
%canon_reldir%_check_util_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_util_LDADD = lib/util/libbsutil.a $(TEST_LIBS)
