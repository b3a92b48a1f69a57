/* A private munged for unit tests (munged-fixture.h). */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "auth/auth.h"
#include "munged-fixture.h"

gboolean
bs_munged_start(BsMungedFixture *f, const char *tmpl)
{
	g_autofree char *key = NULL, *pid = NULL, *log = NULL, *seed = NULL;
	g_autofree char *munged = g_find_program_in_path("munged");
	guint8 k[1024];
	GError *err = NULL;
	gint64 deadline;

	if (munged == NULL && g_file_test("/usr/sbin/munged", G_FILE_TEST_IS_EXECUTABLE))
		munged = g_strdup("/usr/sbin/munged");
	if (munged == NULL)
		return FALSE;
	f->dir = g_dir_make_tmp(tmpl, NULL);
	g_assert(f->dir != NULL);
	chmod(f->dir, 0755);
	f->sock = g_build_filename(f->dir, "munge.sock", NULL);
	key = g_build_filename(f->dir, "key", NULL);
	pid = g_build_filename(f->dir, "pid", NULL);
	log = g_build_filename(f->dir, "log", NULL);
	seed = g_build_filename(f->dir, "seed", NULL);
	for (gsize i = 0; i < sizeof k; i++)
		k[i] = (guint8)g_random_int();
	g_assert(g_file_set_contents(key, (char *)k, sizeof k, NULL));
	chmod(key, 0600);
	{
		char *argv[] = { munged, (char *)"-F", (char *)"-f", (char *)"-S",
		    f->sock, (char *)"--key-file", key, (char *)"--pid-file", pid,
		    (char *)"--log-file", log, (char *)"--seed-file", seed,
		    (char *)"--origin=127.0.0.1", NULL };

		if (!g_spawn_async(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
		    G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
		    NULL, NULL, &f->pid, &err)) {
			fprintf(stderr, "munged: %s\n", err->message);
			g_error_free(err);
			return FALSE;
		}
	}
	deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
	while (g_get_monotonic_time() < deadline) {
		GBytes *b = bs_auth_hello_credential(f->sock, 1, "probe", NULL, NULL);

		if (b != NULL) {
			g_bytes_unref(b);
			return TRUE;
		}
		g_usleep(20000);
	}
	return FALSE;
}

void
bs_munged_stop(BsMungedFixture *f)
{
	if (f->pid > 0) {
		kill(f->pid, SIGTERM);
		waitpid(f->pid, NULL, 0);
		f->pid = 0;
	}
	if (f->dir != NULL) {
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", f->dir);

		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", f->dir);
	}
	g_clear_pointer(&f->dir, g_free);
	g_clear_pointer(&f->sock, g_free);
}
