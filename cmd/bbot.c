/*
 * bbot: move a pending job to position N (default 1) counted from the last
 * job of its queue; cmd_main_move() has the whole program.
 */
#include "config.h"

#include "cmd-main.h"

int
main(int argc, char **argv)
{
	return cmd_main_move(argc, argv,
	    "bbot [-h] [-V] job_ID | \"job_ID[index]\" [position]", TRUE);
}
