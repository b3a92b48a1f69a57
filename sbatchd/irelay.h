/*
 * The job side of an interactive job (bsub -I, -Ip, -Is), inside bs-jobwrap.
 *
 * sbatchd hands bs-jobwrap a setup pipe (bs-jobwrap -i FD ...) holding the
 * job's interactive mode, bsub's address, the nonce and, on a MUNGE
 * cluster, the credential sbatchd made as root for this job.  The relay
 * then runs entirely as the job's owner: it makes the pseudo-terminal (or
 * the pipes), gives the command its end, dials bsub, proves itself with
 * the credential, checks that bsub is the job's owner, and relays until
 * the command has ended and its output is drained.  sbatchd is never on
 * the data path, so neither a fast job nor a slow reader costs the daemon
 * anything; the relay itself holds one frame each way (iact-wire.h).
 *
 * When bsub goes away (connection lost or refused), the relay hangs up the
 * job as a closed terminal would: SIGHUP and SIGCONT to the command and the
 * terminal's foreground group, then SIGKILL after IA_LOST_GRACE_S seconds.
 * When sbatchd terminates the job (bkill, RUNLIMIT, preemption: SIGINT or
 * SIGTERM to the job's group, which bs-jobwrap otherwise ignores), the
 * relay passes the signal and a hangup on to the command's groups, which a
 * job-control shell has taken out of the leader's group.
 */
#ifndef BS_SBD_IRELAY_H
#define BS_SBD_IRELAY_H

#include <sys/resource.h>
#include <sys/types.h>

#define IA_LOST_GRACE_S 10

typedef struct IaRelay IaRelay;

/* Read the setup from fd (closed here) and make the terminal or pipes.
 * NULL with errno on failure. */
IaRelay *ia_relay_prepare(int setup_fd);
/* In the forked command, before exec: its standard streams and terminal. */
void ia_relay_child(IaRelay *r);
/* In bs-jobwrap after the fork: dial bsub, relay, wait for the command.
 * Fills the command's wait status and resource usage.  1 when the link to
 * bsub was lost (or never made) before the command ended, so the job's end
 * is the relay's hangup: bs-jobwrap's record says so, and sbatchd gives
 * the end that reason. */
int ia_relay_run(IaRelay *r, pid_t cmd, int *wstatus, struct rusage *ru);

#endif
