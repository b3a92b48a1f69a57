/*
 * lsadmin: of LSF's LIM and RES administration, what has a meaning in
 * Basalt, which runs no LIM or RES: `showconf lim`, the lsf.conf a LIM
 * on this host would run with.  Other subcommands say that plainly.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "showconf.h"

#define USAGE "lsadmin [-h] [-V] showconf lim [host_name ... | all]"

int
main(int argc, char **argv)
{
	char host[256];
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	if (argc < 3 || strcmp(argv[1], "showconf") != 0 ||
	    strcmp(argv[2], "lim") != 0) {
		if (argc >= 2 && strcmp(argv[1], "showconf") != 0)
			fprintf(stderr, "lsadmin: %s: Basalt runs no LIM or RES; "
			    "only showconf lim is available\n", argv[1]);
		fprintf(stderr, "Usage: %s\n", USAGE);
		return CMD_EXIT_FAIL;
	}
	if (gethostname(host, sizeof host) != 0)
		host[0] = '\0';
	for (int i = 3; i < argc; i++)
		if (strcmp(argv[i], "all") != 0 && strcmp(argv[i], host) != 0 &&
		    strcmp(argv[i], "localhost") != 0) {
			fprintf(stderr, "lsadmin: %s: only this host's lsf.conf can "
			    "be shown here; run lsadmin showconf lim on %s\n",
			    argv[i], argv[i]);
			return CMD_EXIT_FAIL;
		}
	return showconf_lim();
}
