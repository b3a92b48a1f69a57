/*
 * The project's GError domain.  Functions with a user-facing failure take a
 * GError ** and set it in this domain; the message is what a person reads.
 */
#ifndef BS_ERROR_H
#define BS_ERROR_H

#include <glib.h>

#define BS_ERROR (bs_error_quark())
GQuark bs_error_quark(void);

typedef enum {
	BS_ERROR_FAILED,      /* anything without a better code */
	BS_ERROR_IO,          /* a system call failed; message has strerror */
	BS_ERROR_TIMEOUT,     /* a peer did not answer in time */
	BS_ERROR_PROTOCOL,    /* a peer broke the wire protocol */
	BS_ERROR_REFUSED,     /* a peer refused us (hello, permission) */
	BS_ERROR_CONFIG,      /* configuration is invalid */
} BsErrorCode;

#endif
