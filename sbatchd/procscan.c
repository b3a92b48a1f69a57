/*
 * /proc readers for job process groups (see procscan.h).
 *
 * /proc/<pid>/stat is parsed from the last ')' on, because the command name
 * in parentheses may itself contain blanks and parentheses.  Times come in
 * clock ticks and are turned into microseconds here so callers never see
 * ticks.  Every reader tolerates a process vanishing mid-read: that is the
 * normal case for a job that is finishing.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procscan.h"

static guint64
ticks_to_us(unsigned long long ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	return (guint64)ticks * (G_USEC_PER_SEC / (guint64)hz);
}

static gboolean
parse_stat(const char *text, BsProcStat *out)
{
	const char *p = strrchr(text, ')');
	unsigned long long ut, st, cut, cst, start = 0, vsize = 0;
	long nthreads = 1;
	int ppid, pgrp, sid;
	char state;

	if (p == NULL)
		return FALSE;
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt
	 * cmajflt utime stime cutime cstime priority nice num_threads
	 * itrealvalue starttime vsize (the last two for accounting: a
	 * kernel without them still gives the first eight) */
	if (sscanf(p + 1, " %c %d %d %d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu"
	           " %*d %*d %ld %*d %llu %llu",
	           &state, &ppid, &pgrp, &sid, &ut, &st, &cut, &cst, &nthreads,
	           &start, &vsize) < 8)
		return FALSE;
	out->nthreads = nthreads > 0 ? (guint)nthreads : 1;
	out->vsize_kb = vsize / 1024;
	out->starttime = start;
	out->state = state;
	out->ppid = ppid;
	out->pgrp = pgrp;
	out->sid = sid;
	out->utime_us = ticks_to_us(ut);
	out->stime_us = ticks_to_us(st);
	out->cutime_us = ticks_to_us(cut);
	out->cstime_us = ticks_to_us(cst);
	return TRUE;
}

gboolean
bs_proc_read_stat(pid_t pid, BsProcStat *out)
{
	char path[64];
	char buf[1024];
	FILE *f;
	size_t n;

	g_snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return FALSE;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	out->pid = pid;
	return n > 0 && parse_stat(buf, out);
}

gboolean
bs_proc_read_mem(pid_t pid, gint64 *rss_kb, gint64 *hwm_kb)
{
	char path[64];
	char line[256];
	FILE *f;
	long long v;

	*rss_kb = 0;
	*hwm_kb = 0;
	g_snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return FALSE;
	/* Zombies and kernel threads have no Vm lines: zero is right then. */
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "VmRSS: %lld kB", &v) == 1)
			*rss_kb = v;
		else if (sscanf(line, "VmHWM: %lld kB", &v) == 1)
			*hwm_kb = v;
	}
	fclose(f);
	return TRUE;
}

void
bs_proc_foreach(BsProcFunc fn, gpointer data)
{
	GDir *dir = g_dir_open("/proc", 0, NULL);
	const char *name;

	if (dir == NULL)
		return;
	while ((name = g_dir_read_name(dir)) != NULL) {
		BsProcStat st;
		char *end;
		long pid = strtol(name, &end, 10);

		if (*end != '\0' || pid <= 0)
			continue;
		if (bs_proc_read_stat((pid_t)pid, &st))
			fn(&st, data);
	}
	g_dir_close(dir);
}

typedef struct {
	pid_t pgid;
	GArray *out;
} GroupScan;

static void
collect_member(const BsProcStat *st, gpointer data)
{
	GroupScan *gs = data;

	if (st->pgrp == gs->pgid)
		g_array_append_val(gs->out, *st);
}

GArray *
bs_proc_group_members(pid_t pgid)
{
	GroupScan gs = { .pgid = pgid, .out = g_array_new(FALSE, FALSE, sizeof(BsProcStat)) };

	bs_proc_foreach(collect_member, &gs);
	return gs.out;
}

gboolean
bs_proc_group_alive(pid_t pgid)
{
	if (pgid <= 1)
		return FALSE;
	/* EPERM means members exist that we may not signal: still alive. */
	return kill(-pgid, 0) == 0 || errno != ESRCH;
}
