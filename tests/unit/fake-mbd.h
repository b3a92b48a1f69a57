/*
 * A fake mbatchd for the command tests (check_api): a real bs_rpc_server
 * on a Unix socket in a temporary LSF_ENVDIR, served by a thread, whose
 * BatchService answers with canned replies and keeps the last request of
 * each method for the test to inspect.
 */
#ifndef BS_TEST_FAKE_MBD_H
#define BS_TEST_FAKE_MBD_H

#include <glib.h>

#include "api/api.h"
#include "pb.h"
#include "rpc/rpc.h"

#define T0 1669024920      /* Mon Nov 21 10:02:00 2022 UTC */
/* One slot per BatchService method; fake_start() checks the count. */
#define N_METHODS (LSB_JOB_GROUP_CONTROL + 1)

typedef struct {
	char *envdir;
	char *sock;
	GMainContext *ctx;
	GMainLoop *loop;
	GThread *thread;
	BsRpcServer *srv;
	GMutex lock;
	GBytes *last[N_METHODS];  /* packed request of each method */
	gint refuse;              /* reply with errors */
} Fake;

extern Fake fake;

/* The envdir (lsf.conf with LSB_SHAREDIR="share") and a serving thread. */
void fake_start(void);
/* Stops what runs and removes the envdir. */
void fake_stop(void);
/* The envdir alone: mbatchd is "down". */
void envdir_only(void);
/* The last request of a method, unpacked; free it with
 * protobuf_c_message_free_unpacked(). */
ProtobufCMessage *last_request(LsbMethod m, const ProtobufCMessageDescriptor *d);
/* The canned Jobs reply: 12 running on hostB, 13 pending. */
void canned_jobs(Basalt__JobList *l, Basalt__JobInfo *info,
    Basalt__JobInfo **ptrs);

#endif
