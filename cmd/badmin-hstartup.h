/* badmin hstartup: start sbatchd locally or through LSF_RSH (badmin-hstartup.c). */
#ifndef BS_CMD_BADMIN_HSTARTUP_H
#define BS_CMD_BADMIN_HSTARTUP_H

#include <glib.h>

/* argv as badmin's (argv[1] is "hstartup"); admin: the caller may. */
int badmin_hstartup_main(int argc, char **argv, gboolean admin);

#endif
