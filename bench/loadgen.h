/*
 * loadgen: many execution hosts and many users in one process, so mbatchd
 * can be measured at a scale this machine cannot hold as real processes.
 *
 *   loadgen.c          options, lsf.conf, the main loop and its tick
 *   loadgen-hosts.c    emulated sbatchd: register, heartbeat, ExecService,
 *                      job reports kept until acknowledged
 *   loadgen-clients.c  emulated users: BatchService.Submit (and Jobs) over
 *                      the Unix socket, as bsub and bjobs send them
 *
 * Both halves speak only the wire protocol through lib/rpc, with the same
 * hello, role and messages as sbatchd and the commands: mbatchd has no way
 * (and no code) to tell them from the real ones.
 */
#ifndef BS_BENCH_LOADGEN_H
#define BS_BENCH_LOADGEN_H

#include <glib.h>

#include "batch.pb-c.h"
#include "host.pb-c.h"
#include "rpc/rpc.h"

typedef struct LgHost LgHost;
typedef struct LgClient LgClient;

typedef struct {
	/* options */
	guint n_hosts;
	guint first;              /* hosts are numbered first+1 .. first+n_hosts */
	guint digits;             /* width of the number, zero-padded */
	const char *prefix;
	guint ncpus;
	guint64 mem_kb;
	double run_s;             /* how long each job "runs" */
	int exit_code;            /* what each job exits with */
	guint max_dialing;        /* hosts connecting at once */
	guint n_clients;
	guint64 n_jobs;
	double rate;              /* submissions per second, 0: as fast as possible */
	guint query_every;        /* one Jobs query after this many submissions */
	double duration;          /* stop after this many seconds, 0: never */
	gboolean verbose;

	/* where mbatchd is */
	char *mbd_address;        /* numeric, for the hosts (TCP) */
	guint16 mbd_port;
	gboolean munge;           /* LSF_AUTH=munge: hosts dial TCP with a
	                           * credential, else the Unix socket */
	char *munge_socket;       /* LSF_MUNGE_SOCKET, NULL: munge's default */
	char *sock_path;          /* for the users (Unix socket) */

	GMainLoop *loop;
	gint64 start_us;
	gboolean stopping;
	int status;               /* exit status */

	/* hosts (loadgen-hosts.c) */
	LgHost *hosts;
	guint next_dial;          /* hosts[next_dial..] not dialed yet */
	guint n_dialing;
	guint n_registered;
	gboolean all_registered_said;
	GQueue heartbeats;        /* LgHost*, by next heartbeat (all the same interval) */
	GQueue running;           /* LgJob*, by end time (all the same run time) */
	guint64 jobs_started, jobs_finished, reports_acked;
	gint next_pgid;

	/* users (loadgen-clients.c) */
	LgClient *clients;
	Basalt__SubmitRequest *submit;   /* built once, as bsub builds it */
	char **bsub_argv;
	guint64 submits_sent, submits_ok, submits_failed;
	guint64 queries, query_us;
	double tokens;
	gint64 last_refill_us;
	guint n_clients_open;
	gboolean clients_done;
	gint64 first_submit_us, last_reply_us;
} Lg;

guint lg_method(const ProtobufCServiceDescriptor *d, const char *name);
/* Called when one half has nothing left to do: quits when both are done. */
void lg_maybe_finish(Lg *lg);

/* loadgen-hosts.c */
char *lg_host_name(const Lg *lg, guint i);
void lg_print_hosts(const Lg *lg);
void lg_hosts_start(Lg *lg);
void lg_hosts_tick(Lg *lg, gint64 now);
void lg_hosts_stop(Lg *lg);
void lg_hosts_summary(const Lg *lg);

/* loadgen-clients.c */
gboolean lg_clients_start(Lg *lg, GError **err);
void lg_clients_tick(Lg *lg, gint64 now);
void lg_clients_stop(Lg *lg);
void lg_clients_summary(const Lg *lg);

#endif
