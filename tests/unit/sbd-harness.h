/*
 * The fixture of check_sbd_daemon: a fake mbatchd in the test process and
 * the real sbatchd run from the build tree as virtual host HOST against it
 * (sbd-harness.c says how).  Tests start jobs through ExecService, wait on
 * the reports the fake master records, and restart either side.
 */
#ifndef BS_TEST_SBD_HARNESS_H
#define BS_TEST_SBD_HARNESS_H

#include <sys/types.h>

#include <glib.h>

#include "batch.pb-c.h"
#include "host.pb-c.h"
#include "rpc/rpc.h"

#define HOST "vhost1"
#define WAIT_MS 8000

typedef struct {
	guint64 seq;
	guint64 job_id;
	int state;
	int pgid;
	int exit_status;
	int term_signal;
	guint32 instance;
	char *reason;
	guint n_registered;       /* registrations seen before this report */
} Rep;

typedef struct {
	BsRpcServer *srv;
	guint16 port;
	BsRpcConn *conn;          /* the host's link */
	GPtrArray *registers;     /* Basalt__RegisterRequest* copies */
	guint heartbeats;
	Basalt__HeartbeatRequest *last_hb;
	GArray *reports;          /* Rep */
	GArray *forget;           /* guint64 */
} Master;

extern Master *M;
extern char *state_dir;
extern gboolean sbd_exited;
extern int sbd_wstatus;

void master_start(void);
void master_stop(void);
ProtobufCMessage *exec_call(const char *name, const ProtobufCMessage *req);
void start_req_init(Basalt__StartJobRequest *req, Basalt__JobSpec *spec, guint64 id,
    const char *command);
pid_t start_job_full(Basalt__StartJobRequest *req);
pid_t start_job(guint64 id, const char *command, guint64 runlimit_s);
char *signal_job(guint64 id, Basalt__ExecAction action);
const Rep *find_report(guint64 job_id, int state, guint nth);
Rep wait_report_nth(guint64 job_id, int state, guint nth);
Rep wait_report(guint64 job_id, int state);
gboolean n_registered(gpointer data);
Basalt__RegisterRequest *wait_registered(guint n);
gboolean n_heartbeats(gpointer data);
gboolean group_gone(gpointer data);
gboolean no_job_files(gpointer data);
void write_conf(gboolean allow_root);
void start_sbd(void);
void stop_sbd(void);
void daemon_setup(void);
void daemon_teardown(void);

#endif
