/*
 * Escaping control characters in names that came from outside (hello
 * names, user names, job names, paths) before they reach a log line or a
 * command's table output, so that a value with a newline, a carriage
 * return or a terminal escape can neither forge a log line nor a listing
 * row.
 *
 * C0 controls and DEL become \n, \r, \t or \xNN; the C1 controls
 * U+0080..U+009F (two bytes in UTF-8) become \u00NN; bytes that are not
 * valid UTF-8 become \xNN.  Everything else, backslashes included, is left
 * as it is, so ordinary names print unchanged.
 */
#ifndef BS_ESCAPE_H
#define BS_ESCAPE_H

#include <glib.h>

/* TRUE when s (NULL counts as empty) holds nothing bs_escape would change. */
gboolean bs_escape_clean(const char *s);
/* s with its control characters escaped; never NULL (g_free it). */
char *bs_escape(const char *s);
/* Append s escaped to out. */
void bs_escape_append(GString *out, const char *s);

#endif
