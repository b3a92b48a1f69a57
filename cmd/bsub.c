/*
 * bsub: submit a job.  The options become a SubmitRequest in bsub-args.c;
 * this file gathers what parsing may not touch (environment, cwd, host
 * name, the script on stdin), sends it, and for -K waits for the job.
 *
 * -K polls bjobs' query with a growing interval (0.2 s up to 5 s) rather
 * than holding a stream open: mbatchd keeps no per-client state for
 * waiters, and a restart of mbatchd only delays the poll.
 *
 * A submission is never made twice: it carries a random token, and when
 * the connection breaks after the request may have reached mbatchd (the
 * reply was lost, mbatchd crashed), bsub sends it again with the same
 * token, up to LSB_NTRIES times, each time reconnecting for up to
 * LSB_API_CONNTIMEOUT seconds; mbatchd answers a token it has seen with
 * the job it already accepted.  When bsub gives up it says whether the
 * job may exist and how to look for it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "bsub-args.h"
#include "bsub-interactive.h"
#include "bsub-limits.h"
#include "cmd-main.h"
#include "cmd-util.h"
#include "jobctl-format.h"

extern char **environ;

#define POLL_FIRST_MS 200
#define POLL_MAX_MS 5000
/* How long -K keeps polling through an mbatchd that does not answer. */
#define POLL_DOWN_LIMIT_S 600
/* Sends of one submission whose reply is lost (LSB_NTRIES overrides). */
#define SUBMIT_TRIES 5
#define SUBMIT_RETRY_MS 500

/* 128 random bits in hex: unique to this submission. */
static char *
new_token(void)
{
	guint8 b[16];
	GString *s = g_string_new(NULL);

	if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
		for (gsize i = 0; i < sizeof b; i++)
			b[i] = (guint8)g_random_int();
	}
	for (gsize i = 0; i < sizeof b; i++)
		g_string_append_printf(s, "%02x", b[i]);
	return g_string_free(s, FALSE);
}

static guint
submit_tries(void)
{
	g_autofree char *envdir = lsb_envdir();
	g_autoptr(GHashTable) conf = lsb_read_lsf_conf(envdir, NULL);

	return lsb_conf_seconds(conf, "LSB_NTRIES", SUBMIT_TRIES);
}

/* Where the job may be found when bsub cannot tell whether it exists. */
static void
may_exist(const Basalt__JobSpec *spec, const char *token)
{
	fprintf(stderr, "bsub: The connection to mbatchd broke before its reply: "
	    "the job may have been accepted. Check with bjobs -a%s%s before "
	    "submitting it again (submission token %s).\n",
	    spec->job_name != NULL && *spec->job_name ? " -J " : "",
	    spec->job_name != NULL && *spec->job_name ? spec->job_name : "", token);
}

/* Send the submission, again with the same token while its reply is lost. */
static Basalt__SubmitReply *
submit(BsubArgs *a)
{
	g_autofree char *token = new_token();
	guint tries = submit_tries();
	gboolean told = FALSE;

	a->req->token = token;
	for (guint n = 1;; n++) {
		ProtobufCMessage *m = NULL;
		g_autoptr(GError) err = NULL;

		fflush(stdout);
		if (lsb_call(LSB_SUBMIT, &a->req->base, &m, &err)) {
			a->req->token = NULL;
			return (Basalt__SubmitReply *)m;
		}
		if (!lsb_call_was_sent() && n == 1) {
			/* mbatchd never saw it. */
			fprintf(stderr, "%s\nJob not submitted.\n", err->message);
			a->req->token = NULL;
			return NULL;
		}
		if (n >= tries) {
			fprintf(stderr, "%s\n", err->message);
			may_exist(a->req->spec, token);
			a->req->token = NULL;
			return NULL;
		}
		if (!told)
			fprintf(stderr, "%s ... (the reply to the submission was "
			    "lost; retrying with the same submission token, so the "
			    "job is not submitted twice)\n", LSB_MSG_DOWN);
		told = TRUE;
		g_usleep(SUBMIT_RETRY_MS * 1000);
	}
}

/* The script from stdin, with LSF's "bsub> " prompts on a terminal. */
static char *
read_script(void)
{
	GString *s = g_string_new(NULL);
	gboolean tty = isatty(STDIN_FILENO);
	char buf[4096];

	for (;;) {
		if (tty) {
			fputs("bsub> ", stdout);
			fflush(stdout);
		}
		if (fgets(buf, sizeof buf, stdin) == NULL)
			break;
		g_string_append(s, buf);
	}
	if (tty)
		fputc('\n', stdout);
	return g_string_free(s, FALSE);
}

static BsubArgs *
parse(int argc, char **argv, GError **err)
{
	char host[256] = "localhost";
	g_autofree char *cwd = g_get_current_dir();
	BsubContext ctx = { environ, cwd, host, (gint64)time(NULL) };
	BsubArgs *a;

	if (gethostname(host, sizeof host) != 0)
		g_strlcpy(host, "localhost", sizeof host);
	host[sizeof host - 1] = '\0';
	a = bsub_args_parse(argc, argv, &ctx, err);
	if (a != NULL && a->needs_script) {
		g_autofree char *script = read_script();

		if (!bsub_args_add_script(a, script, &ctx, err))
			g_clear_pointer(&a, bsub_args_free);
	}
	return a;
}

static gboolean
finished(Basalt__JobState s)
{
	return s == BASALT__JOB_STATE__JOB_STATE_DONE ||
	    s == BASALT__JOB_STATE__JOB_STATE_EXIT;
}

/* The exit code bsub -K returns for a finished job. */
static int
job_exit_code(const Basalt__JobInfo *j)
{
	if (j->state == BASALT__JOB_STATE__JOB_STATE_DONE)
		return 0;
	if (j->start_time == 0)
		return CMD_EXIT_KILLED_PENDING;
	if (j->term_signal > 0)
		return 128 + j->term_signal;
	return j->exit_status != 0 ? j->exit_status & 0xff : CMD_EXIT_FAIL;
}

/*
 * One look at the job (all its array elements).  Returns TRUE when every
 * element has finished, with *code the first non-zero exit code.
 */
static gboolean
check_job(const Basalt__JobList *l, gboolean *started, int *code)
{
	gboolean done = l->n_jobs > 0;

	*code = 0;
	for (size_t i = 0; i < l->n_jobs; i++) {
		const Basalt__JobInfo *j = l->jobs[i];

		if (!*started && j->n_exec_hosts > 0) {
			fprintf(stderr, "<<Starting on %s>>\n", j->exec_hosts[0]);
			*started = TRUE;
		}
		if (!finished(j->state))
			done = FALSE;
		else if (*code == 0)
			*code = job_exit_code(j);
	}
	return done;
}

static int
wait_for_job(guint64 job_id)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	uint64_t ids[1] = { job_id };
	uint32_t idx[1] = { 0 };
	guint delay = POLL_FIRST_MS;
	gint64 down_since = 0;
	gboolean started = FALSE;

	q.n_job_ids = q.n_array_indexes = 1;
	q.job_ids = ids;
	q.array_indexes = idx;
	q.all_states = TRUE;
	fprintf(stderr, "<<Waiting for dispatch ...>>\n");
	for (;;) {
		ProtobufCMessage *m = NULL;
		g_autoptr(GError) err = NULL;
		int code;

		g_usleep(delay * 1000);
		delay = MIN(delay * 2, POLL_MAX_MS);
		if (!lsb_call(LSB_JOBS, &q.base, &m, &err)) {
			gint64 now = g_get_monotonic_time();

			if (down_since == 0)
				down_since = now;
			if (now - down_since < POLL_DOWN_LIMIT_S * G_USEC_PER_SEC)
				continue;
			return cmd_main_fail(err);
		}
		down_since = 0;
		Basalt__JobList *l = (Basalt__JobList *)m;
		if (cmd_main_refused(NULL, l->error)) {
			protobuf_c_message_free_unpacked(m, NULL);
			return CMD_EXIT_FAIL;
		}
		if (l->n_jobs == 0) {
			/* Gone from mbatchd (cleaned, or lost): nothing to wait
			 * for any more. */
			fprintf(stderr, "Job <%" G_GUINT64_FORMAT "> is not found\n",
			    job_id);
			protobuf_c_message_free_unpacked(m, NULL);
			return CMD_EXIT_FAIL;
		}
		gboolean done = check_job(l, &started, &code);
		protobuf_c_message_free_unpacked(m, NULL);
		if (done) {
			fprintf(stderr, "<<Job is finished>>\n");
			return code;
		}
	}
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(BsubArgs) a = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	Basalt__SubmitReply *r;
	const Basalt__JobSpec *spec;
	BsubIa *ia = NULL;
	int code;

	if (cmd_main_hv(argc, argv, BSUB_USAGE, &code))
		return code;
	if (!cmd_main_mem_unit(&err))
		return cmd_main_fail(err);
	a = parse(argc, argv, &err);
	if (a == NULL)
		return cmd_main_fail(err);
	spec = a->req->spec;
	bsub_limits_umask(a->req->spec);
	/* bsub -I*: listen before submitting, the address goes in the job. */
	if (spec->interactive != 0 &&
	    (ia = bsub_ia_listen(a->req->spec, &err)) == NULL)
		return cmd_main_fail(err);
	r = submit(a);
	if (r == NULL) {
		bsub_ia_free(ia);
		return CMD_EXIT_FAIL;
	}
	if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		bsub_format_rejected(out, r->error,
		    spec->n_queues == 1 ? spec->queues[0] : NULL);
		cmd_main_err(out);
		basalt__submit_reply__free_unpacked(r, NULL);
		bsub_ia_free(ia);
		return CMD_EXIT_FAIL;
	}
	bsub_format_submitted(out, r);
	cmd_main_out(out);
	guint64 id = r->job_id;
	basalt__submit_reply__free_unpacked(r, NULL);
	if (ia != NULL) {
		fflush(stdout);
		code = bsub_ia_run(ia, id);
		bsub_ia_free(ia);
		return code;
	}
	return spec->interactive_wait ? wait_for_job(id) : CMD_EXIT_OK;
}
