/*
 * A private munged for the unit tests that need real MUNGE credentials
 * (check_auth, check_mc_links): its own socket, key and files in a fresh
 * temporary directory, origin 127.0.0.1, so the tests neither need nor
 * touch the host's munged.
 */
#ifndef BS_TEST_MUNGED_FIXTURE_H
#define BS_TEST_MUNGED_FIXTURE_H

#include <glib.h>

typedef struct {
	char *dir;                /* the temporary directory, owned */
	char *sock;               /* its socket, in dir, owned */
	GPid pid;                 /* 0: not started */
} BsMungedFixture;

/* Start it in a directory made from tmpl ("check-x-XXXXXX") and wait up
 * to 10 s until it answers; FALSE when munged is not installed or did not
 * come up (the test then skips).  Call bs_munged_stop() either way. */
gboolean bs_munged_start(BsMungedFixture *f, const char *tmpl);
/* Stop it (SIGTERM, reaped) and remove its directory. */
void bs_munged_stop(BsMungedFixture *f);

#endif
