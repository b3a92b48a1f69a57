/*
 * sbatchd as a program: the real daemon against a fake mbatchd in this
 * process (sbd-harness.h): registration and heartbeats, job life and
 * control, restarts of either side, instances, and what sbatchd refuses
 * (identity from its own password database, bpeek through a link or a
 * FIFO).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "batch.pb-c.h"
#include "host.pb-c.h"
#include "rpc/rpc.h"
#include "util/log.h"

#include "check_sbd_common.h"
#include "sbd-harness.h"
#include "tap.h"

/* ---- tests ---- */

START_TEST(test_register_and_heartbeat)
{
	Basalt__RegisterRequest *reg;

	start_sbd();
	reg = wait_registered(1);
	ck_assert_str_eq(reg->host_name, HOST);
	ck_assert_uint_eq(reg->ncpus, (guint)sysconf(_SC_NPROCESSORS_ONLN));
	ck_assert_uint_gt(reg->mem_kb, 0);
	ck_assert_int_gt(reg->boot_time, 0);
	ck_assert_uint_eq(reg->n_jobs, 0);
	ck_assert_msg(sbd_run_until(n_heartbeats, GUINT_TO_POINTER(2), WAIT_MS),
	    "only %u heartbeats", M->heartbeats);
	ck_assert_uint_ge(M->heartbeats, 2);
	ck_assert_str_eq(M->last_hb->host_name, HOST);
	ck_assert_ptr_nonnull(M->last_hb->load);
	ck_assert_uint_gt(M->last_hb->load->mem_free_kb, 0);
}
END_TEST

START_TEST(test_exit_code_and_output)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	Rep run, end;
	pid_t pgid;
	g_autofree char *out = sbd_path("out.101");
	g_autofree char *text = NULL;

	start_sbd();
	start_req_init(&req, &spec, 101, "echo hi; exit 3");
	spec.stdout_path = (char *)"out.%J";
	pgid = start_job_full(&req);
	run = wait_report(101, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_int_eq(run.pgid, pgid);
	end = wait_report(101, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_int_eq(end.exit_status, 3);
	ck_assert_int_eq(end.term_signal, 0);
	ck_assert_uint_gt(end.seq, run.seq);
	text = sbd_slurp(out);
	/* The output, then LSF's job report (sbd-report.h). */
	ck_assert_msg(g_str_has_prefix(text, "hi\n"), "output: %s", text);
	ck_assert_msg(strstr(text, "\nExited with exit code 3.\n") != NULL,
	    "no job report: %s", text);
	/* Acknowledged: the job's state file goes. */
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_peek_default_output)
{
	Basalt__PeekJobRequest req = BASALT__PEEK_JOB_REQUEST__INIT;
	Basalt__PeekReply *r;
	g_autofree char *spool = NULL;
	pid_t pgid;

	start_sbd();
	pgid = start_job(102, "echo hello; exec sleep 100", 0);
	spool = g_build_filename(state_dir, "output", "102.0.out", NULL);
	ck_assert_msg(sbd_wait_file(spool, "hello\n", WAIT_MS), "no spooled output");
	req.job_id = 102;
	r = (Basalt__PeekReply *)exec_call("PeekJob", &req.base);
	ck_assert_ptr_null(r->error);
	ck_assert_uint_eq(r->stdout_data.len, 6);
	ck_assert(memcmp(r->stdout_data.data, "hello\n", 6) == 0);
	ck_assert_uint_eq(r->next_offset, 6);
	ck_assert(!r->finished);
	basalt__peek_reply__free_unpacked(r, NULL);
	req.offset = 6;
	r = (Basalt__PeekReply *)exec_call("PeekJob", &req.base);
	ck_assert_uint_eq(r->stdout_data.len, 0);
	basalt__peek_reply__free_unpacked(r, NULL);
	ck_assert_ptr_null(signal_job(102, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE));
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
}
END_TEST

START_TEST(test_suspend_resume_terminate)
{
	Rep end;
	pid_t pgid;

	start_sbd();
	pgid = start_job(201, "sleep 100 & sleep 100; wait", 0);
	wait_report(201, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert(sbd_wait_group_state(pgid, 'S', 3, WAIT_MS));
	ck_assert_ptr_null(signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND));
	ck_assert_msg(sbd_wait_group_state(pgid, 'T', 3, WAIT_MS), "not stopped");
	wait_report(201, BASALT__JOB_STATE__JOB_STATE_USUSP);
	ck_assert_ptr_null(signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_RESUME));
	ck_assert_msg(sbd_wait_group_state(pgid, 'S', 3, WAIT_MS), "not resumed");
	wait_report_nth(201, BASALT__JOB_STATE__JOB_STATE_RUN, 1);
	ck_assert_ptr_null(signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE));
	end = wait_report(201, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_msg(end.term_signal == SIGINT || end.exit_status == 128 + SIGINT,
	    "exit %d signal %d", end.exit_status, end.term_signal);
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
	/* A job that is gone is no longer known. */
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
	g_autofree char *msg = signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND);
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "not found") != NULL, "%s", msg);
}
END_TEST

START_TEST(test_runlimit)
{
	Rep end;
	pid_t pgid;

	start_sbd();
	pgid = start_job(301, "sleep 100", 1);
	end = wait_report(301, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_str_eq(end.reason, "RUNLIMIT was reached;");
	ck_assert_int_ne(end.exit_status, 0);
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
}
END_TEST

#define WAIT_GO(code) "while [ ! -e go ]; do sleep 0.05; done; " code

START_TEST(test_master_restart)
{
	Basalt__RegisterRequest *reg;
	Rep a, b;
	pid_t pa, pb;
	g_autofree char *go = sbd_path("go");

	start_sbd();
	pa = start_job(401, WAIT_GO("exit 4"), 0);
	pb = start_job(402, WAIT_GO("exit 5"), 0);
	wait_report(401, BASALT__JOB_STATE__JOB_STATE_RUN);
	wait_report(402, BASALT__JOB_STATE__JOB_STATE_RUN);
	master_stop();
	ck_assert(bs_proc_group_alive(pa) && bs_proc_group_alive(pb));
	sbd_write(go, "");
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pa), WAIT_MS));
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pb), WAIT_MS));
	master_start();
	reg = wait_registered(1);
	ck_assert_uint_eq(reg->n_jobs, 2);
	for (size_t i = 0; i < reg->n_jobs; i++)
		ck_assert_int_eq(reg->jobs[i]->state, BASALT__JOB_STATE__JOB_STATE_EXIT);
	a = wait_report(401, BASALT__JOB_STATE__JOB_STATE_EXIT);
	b = wait_report(402, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_int_eq(a.exit_status, 4);
	ck_assert_int_eq(b.exit_status, 5);
	ck_assert_uint_eq(a.n_registered, 1);
	ck_assert_uint_eq(b.n_registered, 1);
	/* The spool came in seq order.  A RUN report whose ack the old master
	 * never sent (it closed with the reply queued) comes again first. */
	for (guint i = 1; i < M->reports->len; i++)
		ck_assert_uint_lt(g_array_index(M->reports, Rep, i - 1).seq,
		    g_array_index(M->reports, Rep, i).seq);
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_sbatchd_restart)
{
	Basalt__RegisterRequest *reg;
	Rep end;
	pid_t pgid;
	g_autofree char *go = sbd_path("go");
	g_autofree char *count = sbd_path("count");
	g_autofree char *text = NULL;

	start_sbd();
	pgid = start_job(501, WAIT_GO("echo ran >> count; exit 6"), 0);
	wait_report(501, BASALT__JOB_STATE__JOB_STATE_RUN);
	stop_sbd();
	ck_assert(sbd_exited);
	ck_assert_msg(WIFEXITED(sbd_wstatus) && WEXITSTATUS(sbd_wstatus) == 0,
	    "sbatchd status %d", sbd_wstatus);
	ck_assert_msg(bs_proc_group_alive(pgid), "the job died with sbatchd");
	start_sbd();
	reg = wait_registered(2);
	ck_assert_uint_eq(reg->n_jobs, 1);
	ck_assert_uint_eq(reg->jobs[0]->job_id, 501);
	ck_assert_int_eq(reg->jobs[0]->state, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_int_eq(reg->jobs[0]->pgid, pgid);
	sbd_write(go, "");
	end = wait_report(501, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_int_eq(end.exit_status, 6);
	text = sbd_slurp(count);
	ck_assert_str_eq(text, "ran\n");
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_forget_kills)
{
	guint64 id = 601;
	pid_t pgid;

	start_sbd();
	pgid = start_job(id, "sleep 100", 0);
	wait_report(id, BASALT__JOB_STATE__JOB_STATE_RUN);
	g_array_append_val(M->forget, id);
	bs_rpc_conn_close(M->conn, "test: master forgets job 601");
	wait_registered(2);
	ck_assert_msg(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS),
	    "the forgotten job still runs");
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
	ck_assert_ptr_null(find_report(id, BASALT__JOB_STATE__JOB_STATE_EXIT, 0));
}
END_TEST

/* SignalJob for one run (instance) of a job; the error message or NULL. */
static char *
signal_run(guint64 id, guint32 instance, Basalt__ExecAction action)
{
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	Basalt__SignalJobReply *r;
	char *msg = NULL;

	req.job_id = id;
	req.instance = instance;
	req.action = action;
	r = (Basalt__SignalJobReply *)exec_call("SignalJob", &req.base);
	if (r->error != NULL && r->error->code != 0)
		msg = g_strdup(r->error->message);
	basalt__signal_job_reply__free_unpacked(r, NULL);
	return msg;
}

/*
 * Runs of one job are kept apart by their instance (issue 11, the ghost):
 * a repeated start order gets the same run; a new instance starts a new
 * run even while the old one, forgotten, is still being killed; the old
 * run's death is never reported, the new run's end is, with its instance.
 */
START_TEST(test_instances_kept_apart)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	guint64 id = 901;
	pid_t old_pgid, again, new_pgid;
	Rep run, done;
	g_autofree char *err = NULL;

	start_sbd();
	/* The old run shrugs off SIGINT and SIGTERM: it dies only at the
	 * end of the TERMINATE sequence (2 s with the 1 s interval). */
	start_req_init(&req, &spec, id, "trap '' INT TERM; sleep 100; sleep 100");
	req.instance = 1;
	old_pgid = start_job_full(&req);
	run = wait_report(id, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_uint_eq(run.instance, 1);
	again = start_job_full(&req);
	ck_assert_int_eq(again, old_pgid);
	ck_assert_uint_eq(M->reports->len, 1);

	/* mbatchd forgot run 1 and starts run 2 of the same job at once. */
	ck_assert_ptr_null(signal_run(id, 1, BASALT__EXEC_ACTION__EXEC_ACTION_FORGET));
	start_req_init(&req, &spec, id, "exit 0");
	req.instance = 2;
	new_pgid = start_job_full(&req);
	ck_assert_int_ne(new_pgid, old_pgid);
	ck_assert_msg(bs_proc_group_alive(old_pgid), "the old run died too soon "
	    "for this test to mean anything");
	done = wait_report(id, BASALT__JOB_STATE__JOB_STATE_DONE);
	ck_assert_uint_eq(done.instance, 2);
	ck_assert_int_eq(done.pgid, new_pgid);
	/* An order for the old run does not reach the new one, and back. */
	err = signal_run(id, 3, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(sbd_run_until(group_gone, GINT_TO_POINTER(old_pgid), WAIT_MS),
	    "the forgotten run still runs");
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
	/* Run 1 said only that it ran; everything after is run 2's. */
	for (guint i = 1; i < M->reports->len; i++)
		ck_assert_uint_eq(g_array_index(M->reports, Rep, i).instance, 2);
}
END_TEST

/* The seq counter survives an empty spool; a torn last record is cut. */
START_TEST(test_seq_persists_torn_spool_cut)
{
	g_autofree char *seq = g_build_filename(state_dir, "seq", NULL);
	g_autofree char *spool = g_build_filename(state_dir, "reports", NULL);
	Rep run;

	ck_assert_int_eq(g_mkdir(state_dir, 0711), 0);
	sbd_write(seq, "41\n");
	ck_assert(g_file_set_contents(spool, "\0\0\0\x09torn", 8, NULL));
	start_sbd();
	wait_registered(1);
	start_job(801, "true", 0);
	run = wait_report(801, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_uint_eq(run.seq, 42);
	wait_report(801, BASALT__JOB_STATE__JOB_STATE_DONE);
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_refusals)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	Basalt__StartJobReply *r;

	write_conf(FALSE);
	start_sbd();
	start_req_init(&req, &spec, 701, "true");
	req.user = (char *)"root";
	req.uid = 0;
	req.gid = 0;
	r = (Basalt__StartJobReply *)exec_call("StartJob", &req.base);
	ck_assert_ptr_nonnull(r->error);
	ck_assert_int_eq(r->error->code, BASALT__ERROR_CODE__ERROR_CODE_PERMISSION);
	ck_assert_msg(strstr(r->error->message, "root jobs are not allowed on host "
	    HOST) != NULL, "%s", r->error->message);
	basalt__start_job_reply__free_unpacked(r, NULL);
	if (getuid() != 0) {
		start_req_init(&req, &spec, 702, "true");
		spec.cwd = (char *)"/nonexistent/dir";
		r = (Basalt__StartJobReply *)exec_call("StartJob", &req.base);
		ck_assert_ptr_nonnull(r->error);
		ck_assert_msg(strstr(r->error->message, "/nonexistent/dir") != NULL, "%s",
		    r->error->message);
		basalt__start_job_reply__free_unpacked(r, NULL);
	}
	ck_assert_uint_eq(M->reports->len, 0);
}
END_TEST

/* A start order names a user; everything else about the identity is this
 * host's: a gid or uid in the order cannot change what the job runs as. */
static char *
start_refused(Basalt__StartJobRequest *req)
{
	Basalt__StartJobReply *r = (Basalt__StartJobReply *)exec_call("StartJob", &req->base);
	char *msg;

	ck_assert_msg(r->error != NULL, "job %" G_GUINT64_FORMAT " was started",
	    req->job_id);
	ck_assert_int_eq(r->error->code, BASALT__ERROR_CODE__ERROR_CODE_PERMISSION);
	msg = g_strdup(r->error->message);
	basalt__start_job_reply__free_unpacked(r, NULL);
	return msg;
}

START_TEST(test_identity_from_passwd)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	struct passwd *pw = getpwnam("nobody");
	g_autofree char *dir = sbd_path("ids");
	g_autofree char *out = sbd_path("ids/out");
	g_autofree char *text = NULL;
	g_autofree char *want = NULL;
	g_autofree char *msg = NULL;
	uid_t nobody;
	gid_t nobody_gid;

	if (getuid() != 0 || pw == NULL)
		return;               /* needs root and a user nobody */
	nobody = pw->pw_uid;
	nobody_gid = pw->pw_gid;
	ck_assert_int_eq(chmod(sbd_dir, 0711), 0);
	ck_assert_int_eq(g_mkdir(dir, 0777), 0);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	start_sbd();

	/* gid 42 (shadow on Debian) in the order: the job gets nobody's gid
	 * and groups from this host, and 42 in neither. */
	start_req_init(&req, &spec, 901, "id -u; id -g; id -G; echo end");
	req.user = (char *)"nobody";
	req.uid = nobody;
	req.gid = 42;
	spec.cwd = dir;
	spec.stdout_path = out;
	start_job_full(&req);
	wait_report(901, BASALT__JOB_STATE__JOB_STATE_DONE);
	text = sbd_slurp(out);
	want = g_strdup_printf("%u\n%u\n", (unsigned)nobody, (unsigned)nobody_gid);
	ck_assert_msg(g_str_has_prefix(text, want), "job ran as: %s", text);
	ck_assert_msg(strstr(text, " 42 ") == NULL && strstr(text, "\n42\n") == NULL &&
	    strstr(text, " 42\n") == NULL && strstr(text, "\n42 ") == NULL,
	    "gid 42 reached the job: %s", text);

	/* A uid that is not the user's here: refused, nothing runs. */
	start_req_init(&req, &spec, 902, "touch ran");
	req.user = (char *)"nobody";
	req.uid = nobody - 1;
	msg = start_refused(&req);
	ck_assert_msg(strstr(msg, "User account <nobody> has uid") != NULL, "%s", msg);
	g_free(msg);

	/* Root's uid under another name: refused too. */
	start_req_init(&req, &spec, 903, "touch ran");
	req.user = (char *)"nobody";
	req.uid = 0;
	req.gid = 0;
	msg = start_refused(&req);
	ck_assert_msg(strstr(msg, "has uid") != NULL, "%s", msg);
	g_free(msg);

	/* A user this host does not know, and a name with a newline (which
	 * must not reach the log as a second line). */
	start_req_init(&req, &spec, 904, "touch ran");
	req.user = (char *)"nosuchuser\nforged: line";
	msg = start_refused(&req);
	ck_assert_msg(strstr(msg, "User account <nosuchuser\\nforged: line> does not "
	    "exist on execution host " HOST) != NULL, "%s", msg);
	g_free(msg);
	msg = sbd_path("ran");
	ck_assert(!g_file_test(msg, G_FILE_TEST_EXISTS));
}
END_TEST

/* bpeek reads what the job's user could, from a regular file, without
 * blocking the daemon: a symlink put where the output was is refused, and
 * a FIFO there neither blocks sbatchd nor answers. */
static Basalt__PeekReply *
peek(guint64 id)
{
	Basalt__PeekJobRequest req = BASALT__PEEK_JOB_REQUEST__INIT;

	req.job_id = id;
	return (Basalt__PeekReply *)exec_call("PeekJob", &req.base);
}

START_TEST(test_peek_symlink_fifo)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	Basalt__PeekReply *r;
	g_autofree char *out = sbd_path("p905");
	g_autofree char *secret = sbd_path("secret");
	pid_t pgid;

	start_sbd();
	sbd_write(secret, "root:SECRET-HASH\n");
	start_req_init(&req, &spec, 905, "echo hello; exec sleep 100");
	spec.stdout_path = out;
	pgid = start_job_full(&req);
	ck_assert_msg(sbd_wait_file(out, "hello\n", WAIT_MS), "no output");
	r = peek(905);
	ck_assert_ptr_null(r->error);
	ck_assert_uint_eq(r->stdout_data.len, 6);
	basalt__peek_reply__free_unpacked(r, NULL);

	ck_assert_int_eq(g_unlink(out), 0);
	ck_assert_int_eq(symlink(secret, out), 0);
	r = peek(905);
	ck_assert_msg(r->error != NULL, "a symlink was followed: %.*s",
	    (int)r->stdout_data.len, (char *)r->stdout_data.data);
	ck_assert_msg(strstr(r->error->message, "symbolic link") != NULL, "%s",
	    r->error->message);
	basalt__peek_reply__free_unpacked(r, NULL);

	ck_assert_int_eq(g_unlink(out), 0);
	ck_assert_int_eq(mkfifo(out, 0600), 0);
	r = peek(905);
	ck_assert_ptr_nonnull(r->error);
	ck_assert_msg(strstr(r->error->message, "not a regular file") != NULL, "%s",
	    r->error->message);
	basalt__peek_reply__free_unpacked(r, NULL);
	/* The daemon still answers. */
	ck_assert_ptr_null(signal_job(905, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE));
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_daemon");
	TCase *tc = tcase_create("daemon");

	tcase_add_unchecked_fixture(tc, sbd_guard_setup, sbd_guard_teardown);
	tcase_add_checked_fixture(tc, daemon_setup, daemon_teardown);
	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, test_register_and_heartbeat);
	tcase_add_test(tc, test_exit_code_and_output);
	tcase_add_test(tc, test_peek_default_output);
	tcase_add_test(tc, test_suspend_resume_terminate);
	tcase_add_test(tc, test_runlimit);
	tcase_add_test(tc, test_master_restart);
	tcase_add_test(tc, test_sbatchd_restart);
	tcase_add_test(tc, test_forget_kills);
	tcase_add_test(tc, test_instances_kept_apart);
	tcase_add_test(tc, test_seq_persists_torn_spool_cut);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_identity_from_passwd);
	tcase_add_test(tc, test_peek_symlink_fifo);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
