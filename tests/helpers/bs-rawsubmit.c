/*
 * A test client that submits a job without bsub's checks: the job name and
 * command are sent as given, so a test can show that mbatchd refuses what
 * bsub would have refused (mbatchd must not trust bsub).
 *
 * Usage: bs-rawsubmit NAME COMMAND.  Prints "Job <id> is submitted." or
 * the refusal on stderr (exit 1).
 *
 * BS_RAW_IA_MODE, BS_RAW_IA_ADDRESS and BS_RAW_IA_NONCE in the environment
 * make it an interactive job (JobSpec.interactive*) whose bsub address is
 * whatever the test says: an impostor's listener, or a hostile value.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"

int
main(int argc, char **argv)
{
	Basalt__SubmitRequest req = BASALT__SUBMIT_REQUEST__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	g_autofree char *cwd = g_get_current_dir();
	ProtobufCMessage *m = NULL;
	Basalt__SubmitReply *r;
	g_autoptr(GError) err = NULL;
	int code = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: bs-rawsubmit NAME COMMAND\n");
		return 2;
	}
	spec.job_name = argv[1];
	spec.command = argv[2];
	spec.cwd = cwd;
	spec.stdout_path = (char *)"/dev/null";
	if (g_getenv("BS_RAW_IA_MODE") != NULL) {
		spec.interactive = (uint32_t)atoi(g_getenv("BS_RAW_IA_MODE"));
		spec.interactive_address = (char *)g_getenv("BS_RAW_IA_ADDRESS");
		spec.interactive_nonce = (char *)g_getenv("BS_RAW_IA_NONCE");
		spec.stdout_path = (char *)"";
	}
	req.spec = &spec;
	if (!lsb_call(LSB_SUBMIT, &req.base, &m, &err)) {
		fprintf(stderr, "%s\n", err->message);
		return 1;
	}
	r = (Basalt__SubmitReply *)m;
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		fprintf(stderr, "%s\n", r->error->message);
		code = 1;
	} else {
		printf("Job <%" G_GUINT64_FORMAT "> is submitted.\n", r->job_id);
	}
	protobuf_c_message_free_unpacked(m, NULL);
	return code;
}
