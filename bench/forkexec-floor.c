/*
 * forkexec-floor: how fast sbatchd's own launch path can start `true`.
 *
 *   forkexec-floor [-n RUNS] [-p PARALLEL] [-w BS-JOBWRAP] [-d DIR]
 *
 * Starts RUNS jobs whose command is `true`, keeping PARALLEL of them alive
 * at once (the drain figure's slots), through bs_launch() from
 * sbatchd/launch.c: the same preparation, fork, child setup and exec that
 * sbatchd uses, with a status record so the leader is bs-jobwrap, which
 * forks the job's shell (`/bin/sh -c true`) and records its end, exactly
 * as for a real job.  It reaps with a blocking waitpid(), the cheapest
 * possible reaper, so the rate printed (runs/s, on stdout) is a ceiling
 * for any drain: what remains of a job's cost in the drain figure is the
 * batch system's own work (submission, scheduling, journal, messages).
 */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"

extern char **environ;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
usage(void)
{
	fputs("usage: forkexec-floor [-n RUNS] [-p PARALLEL] [-w BS-JOBWRAP] "
	    "[-d DIR]\n", stderr);
	exit(2);
}

/* One launch of `true`, as sbatchd launches a job with a status record. */
static gboolean
start_one(BsLaunchSpec *spec, long i, const char *dir)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *status = g_strdup_printf("%s/%ld.status", dir, i);
	pid_t pgid;

	spec->job_id = i + 1;
	spec->status_path = status;
	if (!bs_launch(spec, &pgid, &err)) {
		fprintf(stderr, "forkexec-floor: %s\n", err->message);
		return FALSE;
	}
	return TRUE;
}

/* Waits for one leader; FALSE if it did not exit with status 0. */
static gboolean
reap_one(void)
{
	int ws;
	pid_t pid;

	do {
		pid = waitpid(-1, &ws, 0);
	} while (pid < 0 && errno == EINTR);
	if (pid < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		fprintf(stderr, "forkexec-floor: a run of true failed\n");
		return FALSE;
	}
	return TRUE;
}

int
main(int argc, char **argv)
{
	long runs = 10000, parallel = 32, started = 0, done = 0;
	const char *wrapper = NULL, *dir = NULL;
	BsLaunchSpec spec = { 0 };
	struct passwd *pw;
	double t0, t1;
	int c;

	while ((c = getopt(argc, argv, "n:p:w:d:")) != -1) {
		switch (c) {
		case 'n': runs = atol(optarg); break;
		case 'p': parallel = atol(optarg); break;
		case 'w': wrapper = optarg; break;
		case 'd': dir = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || runs < 1 || parallel < 1)
		usage();
	if (dir == NULL)
		dir = g_get_tmp_dir();
	pw = getpwuid(geteuid());
	/* The job is ours, as sbatchd's jobs are their owners'. */
	spec.uid = geteuid();
	spec.gid = getegid();
	spec.user = pw != NULL ? pw->pw_name : NULL;
	spec.allow_root = TRUE;
	spec.command = "true";
	spec.cwd = dir;
	spec.env = environ;
	spec.wrapper = wrapper;

	t0 = now_s();
	while (done < runs) {
		while (started < runs && started - done < parallel) {
			if (!start_one(&spec, started, dir))
				return 1;
			started++;
		}
		if (!reap_one())
			return 1;
		done++;
	}
	t1 = now_s();
	for (long i = 0; i < runs; i++) {
		g_autofree char *status = g_strdup_printf("%s/%ld.status", dir, i);

		(void)unlink(status);
	}
	printf("%.1f\n", (double)runs / (t1 - t0));
	return 0;
}
