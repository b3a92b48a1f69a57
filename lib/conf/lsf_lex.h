/*
 * Lexer for LSF configuration files (lsb.*, lsf.shared, lsf.cluster.*,
 * lsf.conf).
 *
 * It knows the grammar and nothing about parameters: comments, `\`
 * continuation, `#if time(...)`/`#elif`/`#else`/`#endif` evaluated against a
 * caller-given `now`, `Begin X` ... `End X` with balance checks, and the two
 * section forms:
 *
 *   horizontal  `KEY = value` lines (a section whose first line looks like
 *               `NAME =`); duplicate keys are errors.
 *   vertical    a header row of column names, then one record per line;
 *               cells are words, "quoted strings" or `( ... )` groups; a row
 *               with more or fewer cells than the header is an error.
 *
 * Every record carries the line where its logical line started, so a
 * value continued over three lines is reported at its first line.  The
 * typed meaning of keys and cells is the schema's business (conf_schema.h).
 */
#ifndef BS_CONF_LSF_LEX_H
#define BS_CONF_LSF_LEX_H

#include <glib.h>

#include "conf/diag.h"

/* Limits, so a corrupt or hostile file cannot make us allocate without end. */
#define BS_LEX_MAX_LINE   4096     /* one physical line */
#define BS_LEX_MAX_VALUE  16384    /* one logical line after continuations */

typedef enum {
	BS_CELL_WORD,    /* a bare word; `-` means "default" */
	BS_CELL_QUOTED,  /* "text": text without the quotes */
	BS_CELL_GROUP,   /* ( ... ): the text between the parentheses, trimmed */
} BsCellKind;

typedef struct {
	BsCellKind kind;
	char *text;
} BsLexCell;

typedef struct {
	char *key;
	char *value;     /* trimmed, continuations joined by one blank */
	int line;
} BsLexPair;

typedef struct {
	GPtrArray *cells;  /* of BsLexCell*, as many as the header has columns */
	int line;
} BsLexRow;

typedef struct {
	char *name;        /* as written after Begin; NULL for lsf.conf lines */
	int line;          /* the Begin line */
	gboolean table;    /* vertical form */
	GPtrArray *pairs;  /* horizontal: BsLexPair*, file order */
	GPtrArray *columns;/* vertical: char* column names */
	int header_line;
	GPtrArray *rows;   /* vertical: BsLexRow* */
} BsLexSection;

typedef struct {
	char *name;        /* file name used in diagnostics */
	GPtrArray *sections; /* of BsLexSection*, file order */
} BsLexFile;

typedef enum {
	BS_LEX_SECTIONS = 0,  /* lsb.* and lsf.shared/cluster: only sections */
	BS_LEX_FLAT = 1,      /* lsf.conf: KEY=value lines, no sections */
} BsLexMode;

/* Lex `len` bytes of text.  Problems go to `diags` (as `name:line: ...`);
 * a best-effort result is always returned. */
BsLexFile *bs_lex_text(const char *name, const char *text, gsize len,
    BsLexMode mode, gint64 now, BsDiags *diags);
void bs_lex_file_free(BsLexFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsLexFile, bs_lex_file_free)
void bs_lex_section_free(BsLexSection *s);

/* TRUE for `-` and for the empty group `()`, which both mean "default". */
gboolean bs_lex_cell_is_default(const BsLexCell *c);
/* Index of a column by name (case-insensitive), or -1. */
int bs_lex_column(const BsLexSection *s, const char *name);

/* Evaluate a directive expression `time(window ... [TZ])` at `now`.
 * FALSE with a reason in `why` if it cannot be parsed. */
gboolean bs_lex_eval_time(const char *expr, gint64 now, gboolean *value, GString *why);

#endif
