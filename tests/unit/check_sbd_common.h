/*
 * Shared fixture for the sbatchd process-control suites.
 *
 * Every test runs real processes.  Each test gets a temporary directory and
 * a reaper (poll 50 ms); every job started through sbd_start() is recorded
 * twice: in memory, for the checked teardown that kills and reaps it, and
 * in a registry file, for the unchecked teardown that runs in Check's
 * parent process and kills whatever a failed or timed-out test left behind
 * (a failing ck_assert _exit()s the test process, skipping the checked
 * teardown).  Waits are "run the main loop until a condition or a
 * deadline", never fixed sleeps.
 */
#ifndef BS_CHECK_SBD_COMMON_H
#define BS_CHECK_SBD_COMMON_H

#include <check.h>
#include <glib.h>
#include <sys/types.h>

#include "sbatchd/jobctl.h"
#include "sbatchd/launch.h"
#include "sbatchd/procscan.h"
#include "sbatchd/reaper.h"

/* What the reaper told us about one job. */
typedef struct {
	pid_t pgid;
	gboolean leader_done;
	int leader_status;
	gboolean finished;
	gboolean finished_after_leader;
	BsJobEnd end;
	guint stops;
	guint conts;
} TestJob;

extern BsReaper *sbd_reaper;
extern char *sbd_dir;             /* this test's temporary directory */

/* Unchecked (runner process): the registry.  Checked: dir and reaper. */
void sbd_guard_setup(void);
void sbd_guard_teardown(void);
void sbd_setup(void);
void sbd_teardown(void);

/* A spec that runs command as the current user in sbd_dir. */
void sbd_spec_init(BsLaunchSpec *spec, gint64 job_id, const char *command);
/* Launch and watch; fails the test when the launch fails. */
TestJob *sbd_start(const BsLaunchSpec *spec);
/* Register a group started some other way, for cleanup. */
void sbd_register(pid_t pgid);
void sbd_watch(TestJob *job, gboolean adopt, const char *status_path);

gboolean sbd_run_until(gboolean (*cond)(gpointer), gpointer data, guint timeout_ms);
gboolean sbd_wait_finished(TestJob *job, guint timeout_ms);
/* All members of the group in this state (and at least min of them). */
gboolean sbd_wait_group_state(pid_t pgid, char state, guint min, guint timeout_ms);

/* Until the file holds exactly text. */
gboolean sbd_wait_file(const char *path, const char *text, guint timeout_ms);

char *sbd_path(const char *name);
char *sbd_slurp(const char *path);
void sbd_write(const char *path, const char *text);

#endif
