/*
 * bpeek: the output a running job has produced so far.  Without a job id
 * the caller's most recent started job that matches -q, -m or -J is
 * looked up first.  -f follows the output: it asks again from the offset
 * the last reply gave, with a growing pause while nothing new comes,
 * until mbatchd says the job has finished.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "select-args.h"

#define BPEEK_USAGE \
	"bpeek [-h] [-V] [-f] [-q queue_name | -m host_name | " \
	"-J job_name | job_ID | \"job_ID[index_list]\"]"

#define FOLLOW_FIRST_MS 200
#define FOLLOW_MAX_MS 2000

static const CmdOpt bpeek_opts[] = { { "-f", FALSE }, { NULL, FALSE } };

/* The most recent started job matching the filters, via a Jobs query. */
static gboolean
find_job(SelectArgs *sa, guint64 *id, guint32 *idx)
{
	Basalt__JobList *l;
	const Basalt__JobInfo *best = NULL;

	sa->query->running = TRUE;
	sa->query->suspended = TRUE;
	l = (Basalt__JobList *)cmd_main_call(LSB_JOBS, &sa->query->base);
	if (l == NULL)
		return FALSE;
	for (size_t i = 0; i < l->n_jobs; i++)
		if (best == NULL || l->jobs[i]->submit_time > best->submit_time)
			best = l->jobs[i];
	if (best != NULL) {
		*id = best->job_id;
		*idx = best->array_index;
	} else if (!cmd_main_refused(NULL, l->error)) {
		fprintf(stderr, "No unfinished job found\n");
	}
	basalt__job_list__free_unpacked(l, NULL);
	return best != NULL;
}

static void
put(const ProtobufCBinaryData *d, FILE *f)
{
	if (d->len > 0) {
		fwrite(d->data, 1, d->len, f);
		fflush(f);
	}
}

/* One Peek; *done is set once the job finished (or on an error). */
static int
peek_once(Basalt__PeekRequest *req, gboolean first, gboolean *done)
{
	Basalt__PeekReply *r;

	r = (Basalt__PeekReply *)cmd_main_call(LSB_PEEK, &req->base);
	*done = TRUE;
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		g_autoptr(GString) s = g_string_new("Job <");

		cmd_jobid(s, req->job_id, req->array_index);
		g_string_append_printf(s, "> : %s\n", cmd_error_text(r->error));
		cmd_main_err(s);
		basalt__peek_reply__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	if (first)
		printf("<< output from stdout >>\n");
	put(&r->stdout_data, stdout);
	if (r->stderr_data.len > 0) {
		if (first)
			printf("\n<< output from stderr >>\n");
		put(&r->stderr_data, stdout);
	}
	req->offset = r->next_offset;
	*done = r->finished;
	basalt__peek_reply__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}

static int
follow(Basalt__PeekRequest *req)
{
	guint delay = FOLLOW_FIRST_MS;
	gboolean done;
	int code = peek_once(req, TRUE, &done);

	while (code == CMD_EXIT_OK) {
		guint64 before = req->offset;
		Basalt__PeekReply *r;

		g_usleep(delay * 1000);
		r = (Basalt__PeekReply *)cmd_main_call(LSB_PEEK, &req->base);
		if (r == NULL)
			return CMD_EXIT_FAIL;
		if (r->error != NULL &&
		    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
			/* The job went away between two looks: it finished. */
			basalt__peek_reply__free_unpacked(r, NULL);
			return CMD_EXIT_OK;
		}
		put(&r->stdout_data, stdout);
		put(&r->stderr_data, stdout);
		req->offset = r->next_offset;
		done = r->finished;
		basalt__peek_reply__free_unpacked(r, NULL);
		if (done)
			break;
		delay = req->offset != before ? FOLLOW_FIRST_MS :
		    MIN(delay * 2, FOLLOW_MAX_MS);
	}
	return code;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	Basalt__PeekRequest req = BASALT__PEEK_REQUEST__INIT;
	gboolean done;
	int code;

	if (cmd_main_hv(argc, argv, BPEEK_USAGE, &code))
		return code;
	sa = select_args_parse("bpeek", argc, argv, NULL, bpeek_opts,
	    BPEEK_USAGE, &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	if (sa->query->n_job_ids > 1 || sa->all_matching) {
		fprintf(stderr, "Usage: %s\n", BPEEK_USAGE);
		return CMD_EXIT_FAIL;
	}
	if (sa->query->n_job_ids == 1) {
		req.job_id = sa->query->job_ids[0];
		req.array_index = sa->query->array_indexes[0];
	} else if (!find_job(sa, &req.job_id, &req.array_index)) {
		return CMD_EXIT_FAIL;
	}
	if (select_args_has(sa, "-f"))
		return follow(&req);
	return peek_once(&req, TRUE, &done);
}
