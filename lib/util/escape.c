/*
 * Control characters escaped for logs and listings; escape.h says which
 * and why.
 */
#include "config.h"

#include <string.h>

#include "escape.h"

/* Bytes of the character at p that need escaping, 0 when it is printable
 * as it is; *len is the character's length in bytes. */
static gboolean
needs_escape(const char *p, const char *end, gsize *len)
{
	guchar c = (guchar)*p;
	gunichar u;

	*len = 1;
	if (c < 0x20 || c == 0x7f)
		return TRUE;
	if (c < 0x80)
		return FALSE;
	u = g_utf8_get_char_validated(p, end - p);
	if (u == (gunichar)-1 || u == (gunichar)-2)
		return TRUE;          /* not UTF-8: one byte as \xNN */
	*len = (gsize)(g_utf8_next_char(p) - p);
	return u >= 0x80 && u <= 0x9f;
}

gboolean
bs_escape_clean(const char *s)
{
	const char *end;
	gsize len;

	if (s == NULL)
		return TRUE;
	/* Plain ASCII in one pass: a reply holds hundreds of thousands of
	 * names, nearly all of them plain.  Anything else (a control byte or
	 * the first byte of a multibyte character) is judged from there. */
	while ((guchar)*s >= 0x20 && (guchar)*s < 0x7f)
		s++;
	if (*s == '\0')
		return TRUE;
	end = s + strlen(s);
	for (const char *p = s; p < end; p += len)
		if (needs_escape(p, end, &len))
			return FALSE;
	return TRUE;
}

void
bs_escape_append(GString *out, const char *s)
{
	const char *end;
	gsize len;

	if (s == NULL)
		return;
	end = s + strlen(s);
	for (const char *p = s; p < end; p += len) {
		guchar c = (guchar)*p;

		if (!needs_escape(p, end, &len)) {
			g_string_append_len(out, p, (gssize)len);
		} else if (c == '\n') {
			g_string_append(out, "\\n");
		} else if (c == '\r') {
			g_string_append(out, "\\r");
		} else if (c == '\t') {
			g_string_append(out, "\\t");
		} else if (len == 2) {
			g_string_append_printf(out, "\\u%04x",
			    (unsigned)g_utf8_get_char(p));
		} else {
			g_string_append_printf(out, "\\x%02x", (unsigned)c);
		}
	}
}

char *
bs_escape(const char *s)
{
	GString *out;

	if (bs_escape_clean(s))
		return g_strdup(s != NULL ? s : "");
	out = g_string_new(NULL);
	bs_escape_append(out, s);
	return g_string_free(out, FALSE);
}
