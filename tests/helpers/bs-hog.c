/*
 * bs-hog: a job that uses a resource on purpose, for the limit tests
 * (tests/integration/t0630-t0649).  One program instead of shell tricks so
 * every test asks for exactly what it means:
 *
 *   bs-hog mem MB SECS      touch MB of memory (resident), hold it SECS
 *   bs-hog vmem MB SECS     reserve MB of address space untouched, hold it
 *   bs-hog threads N SECS   run N threads (N-1 besides main) for SECS
 *   bs-hog write KB FILE    write KB to FILE; exits 0 only if all went
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *
idle(void *arg)
{
	sleep((unsigned)(size_t)arg);
	return NULL;
}

static int
usage(void)
{
	fprintf(stderr, "usage: bs-hog mem|vmem MB SECS | threads N SECS | "
	    "write KB FILE\n");
	return 2;
}

int
main(int argc, char **argv)
{
	long n;

	if (argc != 4)
		return usage();
	n = strtol(argv[2], NULL, 10);
	if (n <= 0)
		return usage();
	if (strcmp(argv[1], "mem") == 0 || strcmp(argv[1], "vmem") == 0) {
		size_t len = (size_t)n << 20;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED) {
			perror("bs-hog: mmap");
			return 1;
		}
		if (argv[1][0] == 'm')
			for (size_t i = 0; i < len; i += 4096)
				p[i] = 1;
		sleep((unsigned)atoi(argv[3]));
		return 0;
	}
	if (strcmp(argv[1], "threads") == 0) {
		size_t secs = (size_t)atoi(argv[3]);

		for (long i = 1; i < n; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL, idle, (void *)secs) != 0) {
				perror("bs-hog: pthread_create");
				return 1;
			}
		}
		sleep((unsigned)secs);
		return 0;
	}
	if (strcmp(argv[1], "write") == 0) {
		char buf[1024];
		int fd = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0) {
			perror("bs-hog: open");
			return 1;
		}
		memset(buf, 'x', sizeof buf);
		for (long i = 0; i < n; i++)
			if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
				perror("bs-hog: write");
				return 1;
			}
		return close(fd) == 0 ? 0 : 1;
	}
	return usage();
}
