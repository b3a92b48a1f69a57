/*
 * badmin mbdhist, hhist and qhist: the history of mbatchd, of host and of
 * queue controls, read from the journal (badmin-hist.c).
 */
#ifndef BS_CMD_BADMIN_HIST_H
#define BS_CMD_BADMIN_HIST_H

/* argv[1] is "mbdhist", "hhist" or "qhist"; returns the exit status. */
int badmin_hist_main(int argc, char **argv);

#endif
