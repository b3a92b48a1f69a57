# Every test speaks TAP: Check suites through srunner_set_tap(), shell tests
# by hand (tests/lib.sh).  automake reports one PASS/FAIL line per test case.
TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	CK_DEFAULT_TIMEOUT=60; export CK_DEFAULT_TIMEOUT; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1; export ASAN_OPTIONS; \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1; export UBSAN_OPTIONS;

# Libraries the test programs link, in dependency order.
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(GIO_CFLAGS)
TEST_LIBS = $(CHECK_LIBS) $(GIO_LIBS) $(GLIB_LIBS) $(PROTOBUF_C_LIBS)

noinst_HEADERS += %reldir%/unit/tap.h
EXTRA_DIST += %reldir%/lib.sh

# Source checks: rules a grep can prove (issue 11: only the orders module
# talks to execution hosts).
LINT_TESTS = %reldir%/lint/orders-only.sh %reldir%/lint/man-markup.sh
TESTS += $(LINT_TESTS)
EXTRA_DIST += $(LINT_TESTS)
