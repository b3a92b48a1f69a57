/*
 * Reading processes from /proc: which processes form a job's process group,
 * what state they are in, and how much CPU and memory they use.
 *
 * The kernel offers no "list the members of process group G" call, so the
 * members are found by scanning /proc/<pid>/stat for the pgrp field.  This
 * serves the usage sampler (peak memory of running jobs), re-adoption after
 * an sbatchd restart, and the tests (is every member stopped?).
 */
#ifndef BS_SBD_PROCSCAN_H
#define BS_SBD_PROCSCAN_H

#include <glib.h>
#include <sys/types.h>

typedef struct {
	pid_t pid;
	pid_t ppid;
	pid_t pgrp;
	pid_t sid;
	char state;               /* R, S, D, T, t, Z, ... */
	guint64 utime_us;         /* this process */
	guint64 stime_us;
	guint64 cutime_us;        /* its children it has waited for */
	guint64 cstime_us;
	guint nthreads;           /* threads of this process (num_threads) */
	guint64 vsize_kb;         /* virtual memory: what LSF counts as SWAP */
	guint64 starttime;        /* clock ticks after boot: with pid, names
	                           * one process even after its pid is reused */
} BsProcStat;

/* Parse /proc/<pid>/stat; FALSE when the process is gone. */
gboolean bs_proc_read_stat(pid_t pid, BsProcStat *out);

/* VmRSS and VmHWM (peak RSS) of one process, in KiB; FALSE when gone. */
gboolean bs_proc_read_mem(pid_t pid, gint64 *rss_kb, gint64 *hwm_kb);

/* Every live process whose process group is pgid: a GArray of BsProcStat. */
GArray *bs_proc_group_members(pid_t pgid);

/* Call fn for every process on the host (one scan of /proc). */
typedef void (*BsProcFunc)(const BsProcStat *st, gpointer data);
void bs_proc_foreach(BsProcFunc fn, gpointer data);

/* TRUE while any process (zombies included) is in the group: kill(-pgid,0). */
gboolean bs_proc_group_alive(pid_t pgid);

#endif
