/*
 * Runs one Check suite with TAP on stdout, which automake's tap-driver turns
 * into one PASS/FAIL line per test.
 */
#ifndef BS_TEST_TAP_H
#define BS_TEST_TAP_H

#include <check.h>
#include <stdlib.h>

static inline int
bs_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
