# Check suites for cmd/: option parsing and golden output of the formatters.
CMD_TEST_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/cmd
CMD_TEST_LIBS = $(BSCMD_LIBS) $(TEST_LIBS)
CMD_TESTS = %reldir%/check_cmd_util %reldir%/check_cmd_bsub \
	%reldir%/check_cmd_select %reldir%/check_cmd_bjobs \
	%reldir%/check_cmd_bjobs_fields \
	%reldir%/check_cmd_tables %reldir%/check_cmd_statfields \
	%reldir%/check_cmd_bsub_subopts %reldir%/check_consumers_preview
check_PROGRAMS += $(CMD_TESTS)
TESTS += $(CMD_TESTS)

%canon_reldir%_check_cmd_util_SOURCES = %reldir%/check_cmd_util.c
%canon_reldir%_check_cmd_util_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_util_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_bsub_SOURCES = %reldir%/check_cmd_bsub.c
%canon_reldir%_check_cmd_bsub_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_bsub_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_bsub_subopts_SOURCES = %reldir%/check_cmd_bsub_subopts.c
%canon_reldir%_check_cmd_bsub_subopts_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_bsub_subopts_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_select_SOURCES = %reldir%/check_cmd_select.c
%canon_reldir%_check_cmd_select_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_select_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_bjobs_SOURCES = %reldir%/check_cmd_bjobs.c
%canon_reldir%_check_cmd_bjobs_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_bjobs_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_bjobs_fields_SOURCES = %reldir%/check_cmd_bjobs_fields.c
%canon_reldir%_check_cmd_bjobs_fields_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_bjobs_fields_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_consumers_preview_SOURCES = %reldir%/check_consumers_preview.c
%canon_reldir%_check_consumers_preview_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_consumers_preview_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_tables_SOURCES = %reldir%/check_cmd_tables.c
%canon_reldir%_check_cmd_tables_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_tables_LDADD = $(CMD_TEST_LIBS)

%canon_reldir%_check_cmd_statfields_SOURCES = %reldir%/check_cmd_statfields.c
%canon_reldir%_check_cmd_statfields_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_statfields_LDADD = $(CMD_TEST_LIBS)

# The cluster information commands' layouts (lshosts, lsload, showconf, lsinfo).
CMD_LS_TESTS = %reldir%/check_cmd_ls
check_PROGRAMS += $(CMD_LS_TESTS)
TESTS += $(CMD_LS_TESTS)
%canon_reldir%_check_cmd_ls_SOURCES = %reldir%/check_cmd_ls.c
%canon_reldir%_check_cmd_ls_CFLAGS = $(CMD_TEST_CFLAGS)
%canon_reldir%_check_cmd_ls_LDADD = $(CMD_TEST_LIBS)
