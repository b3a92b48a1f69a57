/*
 * Running a command of the build's cmd/ folder as a child process, for the
 * suites that test the programs themselves (check_api, check_hist).
 */
#ifndef BS_TEST_CMD_RUN_H
#define BS_TEST_CMD_RUN_H

#include <sys/wait.h>

#include <check.h>
#include <glib.h>

typedef struct {
	int code;
	char *out;
	char *err;
	double secs;
} Run;

static inline void
run_clear(Run *r)
{
	g_free(r->out);
	g_free(r->err);
}

/*
 * Runs "cmd args..." (shell-quoted) from the build's cmd/ folder, in the
 * envdir, with LSF_ENVDIR and TZ=UTC set.  With shell, the line is given
 * to /bin/sh -c with cmd/ first on PATH (for pipes into bsub).
 */
static inline Run
run_full(const char *line, gboolean shell, const char *envdir)
{
	const char *top = g_getenv("top_builddir");
	g_autofree char *bindir = g_build_filename(top ? top : ".", "cmd", NULL);
	g_auto(GStrv) argv = NULL;
	g_auto(GStrv) env = g_get_environ();
	g_autofree char *path = NULL;
	GError *err = NULL;
	gint64 t0 = g_get_monotonic_time();
	Run r = { 0 };
	int status;

	path = g_strdup_printf("%s:%s", bindir, g_getenv("PATH"));
	env = g_environ_setenv(env, "LSF_ENVDIR", envdir, TRUE);
	env = g_environ_setenv(env, "TZ", "UTC", TRUE);
	env = g_environ_setenv(env, "PATH", path, TRUE);
	env = g_environ_setenv(env, "BASALT_TEST_VAR", "carried", TRUE);
	if (shell) {
		argv = g_new0(char *, 4);
		argv[0] = g_strdup("/bin/sh");
		argv[1] = g_strdup("-c");
		argv[2] = g_strdup(line);
	} else {
		ck_assert(g_shell_parse_argv(line, NULL, &argv, NULL));
		g_autofree char *prog = argv[0];
		argv[0] = g_build_filename(bindir, prog, NULL);
	}
	ck_assert_msg(g_spawn_sync(envdir, argv, env, G_SPAWN_STDIN_FROM_DEV_NULL, NULL,
	    NULL, &r.out, &r.err, &status, &err), "%s",
	    err != NULL ? err->message : "");
	r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r.secs = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
	return r;
}

#endif
