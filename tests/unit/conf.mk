# Check suites for lib/conf.  Data files are read through $top_srcdir.
check_PROGRAMS += %reldir%/check_conf_lex %reldir%/check_conf_load %reldir%/check_conf_apps \
	%reldir%/check_conf_limits %reldir%/check_consumers_conf %reldir%/check_conf_export
TESTS += %reldir%/check_conf_lex %reldir%/check_conf_load %reldir%/check_conf_apps \
	%reldir%/check_conf_limits %reldir%/check_consumers_conf %reldir%/check_conf_export
%canon_reldir%_check_conf_lex_SOURCES = %reldir%/check_conf_lex.c
%canon_reldir%_check_conf_lex_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_conf_lex_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
%canon_reldir%_check_conf_load_SOURCES = %reldir%/check_conf_load.c %reldir%/conf_test.h
%canon_reldir%_check_conf_load_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_conf_load_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
%canon_reldir%_check_conf_apps_SOURCES = %reldir%/check_conf_apps.c %reldir%/conf_test.h
%canon_reldir%_check_conf_apps_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_conf_apps_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
%canon_reldir%_check_conf_limits_SOURCES = %reldir%/check_conf_limits.c %reldir%/conf_test.h
%canon_reldir%_check_conf_limits_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_conf_limits_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
%canon_reldir%_check_consumers_conf_SOURCES = %reldir%/check_consumers_conf.c %reldir%/conf_test.h
%canon_reldir%_check_consumers_conf_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_consumers_conf_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
%canon_reldir%_check_conf_export_SOURCES = %reldir%/check_conf_export.c %reldir%/conf_test.h
%canon_reldir%_check_conf_export_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_conf_export_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
EXTRA_DIST += %reldir%/conf-data
# lsb.queues CONSUMER against lsb.consumers (lib/conf/conf_consumers_check.c).
check_PROGRAMS += %reldir%/check_conf_consumers_check
TESTS += %reldir%/check_conf_consumers_check
%canon_reldir%_check_conf_consumers_check_SOURCES = %reldir%/check_conf_consumers_check.c %reldir%/conf_test.h
%canon_reldir%_check_conf_consumers_check_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_conf_consumers_check_LDADD = lib/conf/libbsconf.a lib/util/libbsutil.a $(TEST_LIBS)
