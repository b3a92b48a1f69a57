/*
 * Job control over process groups (see jobctl.h).
 *
 * The escalation is a small state machine on a GLib timer rather than a
 * blocking loop, because sbatchd's main loop must keep reaping (a killed
 * job's zombies keep its group alive until the reaper collects them) and
 * serving mbatchd while a job takes its time to die.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "jobctl.h"
#include "procscan.h"
#include "util/error.h"

/* Ticks to keep looking after SIGKILL before reporting anyway (a process in
 * uninterruptible sleep dies only when its I/O returns). */
#define KILL_GRACE_TICKS 50

static const int escalation[] = { SIGINT, SIGTERM, SIGKILL };

struct BsTerminate {
	pid_t pgid;
	guint step;               /* next entry of escalation[] */
	int last_signal;
	guint ticks_after_kill;
	guint source;
	BsTerminateDone done;
	gpointer data;
};

static BsJobctlTreeHook tree_hook;
static gpointer tree_hook_data;

void
bs_jobctl_set_tree_hook(BsJobctlTreeHook hook, gpointer data)
{
	tree_hook = hook;
	tree_hook_data = data;
}

static int
group_kill(pid_t pgid, int signo)
{
	if (tree_hook != NULL && signo != 0)
		tree_hook(pgid, signo, tree_hook_data);
	return killpg(pgid, signo);
}

gboolean
bs_jobctl_signal(pid_t pgid, int signo, GError **error)
{
	if (pgid <= 1) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		            "refusing to signal process group %d", (int)pgid);
		return FALSE;
	}
	if (group_kill(pgid, signo) < 0) {
		int e = errno;

		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot send signal %d to job group %d: %s",
		            signo, (int)pgid,
		            e == ESRCH ? "no process left in the group" : g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

gboolean
bs_jobctl_suspend(pid_t pgid, int signo, GError **error)
{
	return bs_jobctl_signal(pgid, signo > 0 ? signo : SIGSTOP, error);
}

gboolean
bs_jobctl_resume(pid_t pgid, int signo, GError **error)
{
	return bs_jobctl_signal(pgid, signo > 0 ? signo : SIGCONT, error);
}

typedef struct {
	pid_t pgid;
	GArray *out;
} FindScan;

static void
find_member(const BsProcStat *st, gpointer data)
{
	FindScan *fs = data;

	if (st->pgrp == fs->pgid && st->sid == fs->pgid)
		g_array_append_val(fs->out, st->pid);
}

GArray *
bs_jobctl_find_members(pid_t pgid)
{
	FindScan fs = { .pgid = pgid, .out = g_array_new(FALSE, FALSE, sizeof(pid_t)) };

	if (pgid > 1)
		bs_proc_foreach(find_member, &fs);
	return fs.out;
}

/* Send the next signal of the escalation; FALSE when none is left. */
static gboolean
terminate_send_next(BsTerminate *t)
{
	int sig;

	if (t->step >= G_N_ELEMENTS(escalation))
		return FALSE;
	sig = escalation[t->step++];
	if (group_kill(t->pgid, sig) == 0) {
		t->last_signal = sig;
		/* A stopped group acts on INT/TERM only once continued. */
		if (sig != SIGKILL)
			(void)group_kill(t->pgid, SIGCONT);
	}
	return TRUE;
}

static gboolean
terminate_tick(gpointer data)
{
	BsTerminate *t = data;

	if (bs_proc_group_alive(t->pgid)) {
		if (terminate_send_next(t) || ++t->ticks_after_kill < KILL_GRACE_TICKS)
			return G_SOURCE_CONTINUE;
	}
	t->source = 0;
	if (t->done != NULL)
		t->done(t->pgid, t->last_signal, t->data);
	g_free(t);
	return G_SOURCE_REMOVE;
}

BsTerminate *
bs_jobctl_terminate(pid_t pgid, guint interval_ms, BsTerminateDone done, gpointer data)
{
	BsTerminate *t = g_new0(BsTerminate, 1);

	t->pgid = pgid;
	t->done = done;
	t->data = data;
	if (pgid > 1)
		(void)terminate_send_next(t);
	else
		t->step = G_N_ELEMENTS(escalation);
	t->source = g_timeout_add(interval_ms > 0 ? interval_ms : 1, terminate_tick, t);
	return t;
}

void
bs_jobctl_terminate_cancel(BsTerminate *t)
{
	if (t == NULL)
		return;
	if (t->source != 0)
		g_source_remove(t->source);
	g_free(t);
}
