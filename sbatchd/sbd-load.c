/*
 * What the host is and how busy it is, for RegisterHost and Heartbeat.
 *
 * Straight from /proc and statvfs, no sampling daemon: the kernel already
 * averages the run queue.  LSF's r15s (a 15-second average) has no kernel
 * counterpart; the 1-minute figure stands in for it.  ut (CPU utilisation)
 * is the busy share of CPU time between two heartbeats, from /proc/stat.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sbd.h"

/* A field of /proc/meminfo in KiB, 0 when missing. */
static guint64
meminfo(const char *text, const char *key)
{
	gsize klen = strlen(key);

	for (const char *p = text; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == ':')
			return g_ascii_strtoull(p + klen + 1, NULL, 10);
	}
	return 0;
}

void
sbd_host_info(SbdHostInfo *info)
{
	g_autofree char *text = NULL;
	struct utsname u;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(info, 0, sizeof *info);
	info->ncpus = n > 0 ? (guint)n : 1;
	if (g_file_get_contents("/proc/meminfo", &text, NULL, NULL)) {
		info->mem_kb = meminfo(text, "MemTotal");
		info->swap_kb = meminfo(text, "SwapTotal");
	}
	info->type = g_strdup("LINUX");
	info->model = g_strdup(uname(&u) == 0 ? u.machine : "");
}

void
sbd_host_info_clear(SbdHostInfo *info)
{
	g_free(info->type);
	g_free(info->model);
}

/* Busy share of CPU time since the last call, 0..1. */
static double
cpu_busy(void)
{
	static guint64 last_busy, last_total;
	g_autofree char *text = NULL;
	guint64 v[8] = { 0 }, busy, total;
	double ut = 0;

	if (!g_file_get_contents("/proc/stat", &text, NULL, NULL) ||
	    sscanf(text, "cpu %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
	    " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
	    " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &v[0], &v[1], &v[2], &v[3],
	    &v[4], &v[5], &v[6], &v[7]) < 4)
		return 0;
	busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	total = busy + v[3] + v[4];
	if (total > last_total && last_total != 0)
		ut = (double)(busy - last_busy) / (double)(total - last_total);
	last_busy = busy;
	last_total = total;
	return CLAMP(ut, 0.0, 1.0);
}

void
sbd_load_read(Basalt__LoadIndices *load)
{
	g_autofree char *avg = NULL;
	g_autofree char *mem = NULL;
	struct statvfs vfs;
	double l1 = 0, l5 = 0, l15 = 0;

	basalt__load_indices__init(load);
	if (g_file_get_contents("/proc/loadavg", &avg, NULL, NULL))
		(void)sscanf(avg, "%lf %lf %lf", &l1, &l5, &l15);
	load->r15s = l1;
	load->r1m = l1;
	load->r15m = l15;
	load->ut = cpu_busy();
	if (g_file_get_contents("/proc/meminfo", &mem, NULL, NULL)) {
		load->mem_free_kb = meminfo(mem, "MemAvailable");
		if (load->mem_free_kb == 0)
			load->mem_free_kb = meminfo(mem, "MemFree");
		load->swap_free_kb = meminfo(mem, "SwapFree");
	}
	if (statvfs("/tmp", &vfs) == 0)
		load->tmp_free_kb = (guint64)vfs.f_bavail * vfs.f_frsize / 1024;
}
