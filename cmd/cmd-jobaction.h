/*
 * The whole of bstop and bresume, which differ only in the action they
 * ask: one main() body (cmd-jobaction.c), built into those two programs.
 */
#ifndef BS_CMD_JOBACTION_H
#define BS_CMD_JOBACTION_H

#include "batch.pb-c.h"

/* The job selection (-a, -d, the filters, -g with its subgroups), then
 * `action` asked of mbatchd for every selected job; the exit status. */
int cmd_main_job_action(int argc, char **argv, const char *prog,
    const char *usage, Basalt__JobAction action);

#endif
