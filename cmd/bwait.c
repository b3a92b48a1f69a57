/*
 * bwait -w cond [-t minutes] [-r minutes]: returns when a dependency
 * condition in bsub -w's syntax holds.  mbatchd evaluates the condition
 * (BatchService Wait) with the evaluator the scheduler uses for -w; this
 * program asks again after a pause that grows from 0.2 s to 5 s, so a
 * long wait costs mbatchd one small request every few seconds, and a
 * short one returns promptly.  -r (LSF's re-registration interval for its
 * server-side wait) is checked and has nothing to do here.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"

#define USAGE "bwait -w \"wait_condition\" [-t timeout] [-r rereg_interval]\n" \
	"       bwait -h | -V"
#define MAX_MINUTES 525600
#define FIRST_PAUSE_US (200 * 1000)
#define MAX_PAUSE_US (5 * G_USEC_PER_SEC)

static int
usage_fail(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "bwait: %s\n", why);
	fprintf(stderr, "Usage: %s\n", USAGE);
	return CMD_EXIT_FAIL;
}

static gboolean
minutes(const char *s, guint64 *v)
{
	return cmd_parse_uint(s, v) && *v >= 1 && *v <= MAX_MINUTES;
}

int
main(int argc, char **argv)
{
	const char *cond = NULL;
	guint64 timeout_min = 0, rereg = 0;
	gint64 deadline = 0, pause = FIRST_PAUSE_US;
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
			cond = argv[++i];
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
			if (!minutes(argv[++i], &timeout_min))
				return usage_fail("-t: the timeout is a number of "
				    "minutes from 1 to 525600");
		} else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			if (!minutes(argv[++i], &rereg))
				return usage_fail("-r: the interval is a number of "
				    "minutes from 1 to 525600");
		} else
			return usage_fail(NULL);
	}
	if (cond == NULL)
		return usage_fail("-w is required");
	if (timeout_min > 0)
		deadline = g_get_monotonic_time() +
		    (gint64)timeout_min * 60 * G_USEC_PER_SEC;
	for (;;) {
		Basalt__WaitRequest q = BASALT__WAIT_REQUEST__INIT;
		Basalt__WaitReply *r;
		Basalt__WaitState st;
		gint64 now;

		q.condition = (char *)cond;
		r = (Basalt__WaitReply *)cmd_main_call(LSB_WAIT, &q.base);
		if (r == NULL)
			return CMD_EXIT_FAIL;
		if (cmd_main_refused("bwait", r->error)) {
			basalt__wait_reply__free_unpacked(r, NULL);
			return CMD_EXIT_FAIL;
		}
		st = r->state;
		basalt__wait_reply__free_unpacked(r, NULL);
		if (st == BASALT__WAIT_STATE__WAIT_STATE_SATISFIED)
			return CMD_EXIT_OK;
		if (st == BASALT__WAIT_STATE__WAIT_STATE_NEVER) {
			fprintf(stderr, "bwait: Wait condition is never satisfied\n");
			return CMD_EXIT_FAIL;
		}
		now = g_get_monotonic_time();
		if (deadline > 0 && now >= deadline) {
			fprintf(stderr, "bwait: Wait condition timed out\n");
			return CMD_EXIT_FAIL;
		}
		if (deadline > 0 && now + pause > deadline)
			pause = deadline - now;
		g_usleep((gulong)pause);
		pause = MIN(pause * 2, MAX_PAUSE_US);
	}
}
