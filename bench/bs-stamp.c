/*
 * bs-stamp: write the time now, then run a program.
 *
 *   bs-stamp FILE [PROGRAM ARGS...]
 *
 * Writes CLOCK_REALTIME in nanoseconds, one line, to FILE, and then execs
 * PROGRAM if one is given.  The latency figure (bench/fig/latency.sh) uses
 * it on both ends: "bs-stamp t0 bsub ..." stamps the moment just before
 * bsub starts, and the job's command "bs-stamp t1" stamps the job's first
 * action.  A program of its own rather than `date +%s%N`, because a shell
 * running date forks and execs once more than the job itself and that
 * would count as latency.  Plain C, no GLib: it must start fast.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	char line[32];
	int fd, n;

	if (argc < 2) {
		fputs("usage: bs-stamp FILE [PROGRAM ARGS...]\n", stderr);
		return 2;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	n = snprintf(line, sizeof line, "%lld%09ld\n", (long long)ts.tv_sec,
	    ts.tv_nsec);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, (size_t)n) != n || close(fd) != 0) {
		perror(argv[1]);
		return 1;
	}
	if (argc == 2)
		return 0;
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
