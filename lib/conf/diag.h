/*
 * Configuration diagnostics.
 *
 * The configuration reader never logs and never stops at the first problem:
 * every error and warning is collected here as {severity, file, line,
 * message}, so `badmin ckconfig` and `mbatchd -n` can print all of them in
 * one run, in the `file:line: message` form LSF administrators know.  The
 * caller decides where they go (stderr, the daemon log, an RPC reply).
 */
#ifndef BS_CONF_DIAG_H
#define BS_CONF_DIAG_H

#include <glib.h>

typedef enum {
	BS_DIAG_ERROR,
	BS_DIAG_WARNING,
} BsDiagSeverity;

typedef struct {
	BsDiagSeverity severity;
	char *file;     /* as printed: the basename for lsb.* files */
	int line;       /* 1-based; 0 when the problem is about the whole file */
	char *message;  /* without file, line or "warning:" prefix */
} BsDiag;

typedef struct {
	GPtrArray *items;   /* of BsDiag*, in the order they were reported */
	guint n_errors;
	guint n_warnings;
} BsDiags;

BsDiags *bs_diags_new(void);
void bs_diags_free(BsDiags *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsDiags, bs_diags_free)

void bs_diag_add(BsDiags *d, BsDiagSeverity sev, const char *file, int line,
    const char *fmt, ...) G_GNUC_PRINTF(5, 6);
#define bs_diag_error(d, f, l, ...) bs_diag_add((d), BS_DIAG_ERROR, (f), (l), __VA_ARGS__)
#define bs_diag_warning(d, f, l, ...) bs_diag_add((d), BS_DIAG_WARNING, (f), (l), __VA_ARGS__)

/* "file:line: message" or "file:line: warning: message" (no line: "file: ..."). */
char *bs_diag_format(const BsDiag *diag);
/* Every diagnostic formatted, one per line, each ending in '\n'. */
char *bs_diags_to_string(const BsDiags *d);
/* Stable-sort the diagnostics from index `mark` on by file (in the order of
 * `file_order`, NULL-terminated; files not listed go last; NULL = ignore
 * files) and then line, so the lexer's, the schema's and the cross-file
 * findings come out in file/line order. */
void bs_diags_sort_from(BsDiags *d, guint mark, const char *const *file_order);

#endif
