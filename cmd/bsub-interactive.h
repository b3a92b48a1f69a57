/*
 * bsub -I, -Ip, -Is: the submitting side of an interactive job.
 *
 * bsub_ia_listen() runs before the submission: it opens the socket the
 * job's relay will dial and fills the JobSpec's interactive fields
 * (address, nonce, window size).  bsub_ia_run() runs after it: it waits
 * for the relay, checks who it is, relays the terminal or the standard
 * streams, and returns bsub's exit code.  See bsub-interactive.c.
 */
#ifndef BS_CMD_BSUB_INTERACTIVE_H
#define BS_CMD_BSUB_INTERACTIVE_H

#include <glib.h>

#include "common.pb-c.h"

typedef struct BsubIa BsubIa;

BsubIa *bsub_ia_listen(Basalt__JobSpec *spec, GError **err);
int bsub_ia_run(BsubIa *ia, guint64 job_id);
/* Closes the socket and removes its directory (also after a refusal). */
void bsub_ia_free(BsubIa *ia);

#endif
