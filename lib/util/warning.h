/*
 * LSF's job warning action: a signal name (URG, SIGUSR1) or number, and
 * the warning time "[hour:]minute".  lib/util/warning.c.
 */
#ifndef BS_UTIL_WARNING_H
#define BS_UTIL_WARNING_H

#include <glib.h>

/* The signal, -1 when s is not one. */
int bs_warning_signal_parse(const char *s);
/* Seconds, -1 when malformed. */
int bs_warning_time_parse(const char *s);

#endif
