# Check suites for the pure parsers: lib/resreq (bsub -R) and lib/job
# (bsub -w dependencies, bsub -J job arrays and job id ranges).
check_PROGRAMS += %reldir%/check_resreq %reldir%/check_depend %reldir%/check_array
TESTS += %reldir%/check_resreq %reldir%/check_depend %reldir%/check_array

%canon_reldir%_check_resreq_SOURCES = %reldir%/check_resreq.c
%canon_reldir%_check_resreq_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_resreq_LDADD = lib/resreq/libbsresreq.a \
	lib/util/libbsutil.a $(TEST_LIBS)

%canon_reldir%_check_depend_SOURCES = %reldir%/check_depend.c
%canon_reldir%_check_depend_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_depend_LDADD = lib/job/libbsjob.a \
	lib/util/libbsutil.a $(TEST_LIBS)

%canon_reldir%_check_array_SOURCES = %reldir%/check_array.c
%canon_reldir%_check_array_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_array_LDADD = lib/job/libbsjob.a \
	lib/util/libbsutil.a $(TEST_LIBS)
