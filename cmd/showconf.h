/* badmin showconf mbd, lsadmin showconf lim (showconf.c). */
#ifndef BS_CMD_SHOWCONF_H
#define BS_CMD_SHOWCONF_H

int showconf_mbd(void);
int showconf_lim(void);

#endif
