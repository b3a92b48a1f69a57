/*
 * Internals shared by resreq.c (sections), resreq-expr.c (the lexer and
 * the select[] expression) and resreq-eval.c.  Not for use outside lib/resreq.
 *
 * The lexer works on demand: rr_peek() reads the token at the current
 * position without moving, so a caller can look at what comes next and
 * choose a different reading (a section keyword, a bare word after ==).
 */
#ifndef BS_RESREQ_INT_H
#define BS_RESREQ_INT_H

#include <glib.h>

#include "resreq/resreq.h"

typedef enum {
	RR_T_END,
	RR_T_NUM,
	RR_T_STR,
	RR_T_IDENT,
	RR_T_OP,
	RR_T_LPAREN,
	RR_T_RPAREN,
	RR_T_LBRACKET,
	RR_T_RBRACKET,
	RR_T_COLON,
	RR_T_COMMA,
	RR_T_BAD,
} RrTokKind;

/* Operators, in no particular order; rr_op_prec() ranks them. */
typedef enum {
	RR_OP_OR, RR_OP_AND,
	RR_OP_EQ, RR_OP_NE, RR_OP_GT, RR_OP_GE, RR_OP_LT, RR_OP_LE,
	RR_OP_ADD, RR_OP_SUB, RR_OP_MUL, RR_OP_DIV,
	RR_OP_NOT,
} RrOp;

typedef struct {
	RrTokKind kind;
	RrOp op;      /* RR_T_OP */
	gsize start;  /* byte offsets into the text */
	gsize end;
	double num;   /* RR_T_NUM */
} RrTok;

typedef struct {
	const char *text;
	gsize pos;
	int depth;
	gboolean rhs_paren;  /* the next '(' opens a comparison's right side */
	/* MB in one bare unit of mem, swp, tmp (LSF_UNIT_FOR_LIMITS): a bare
	 * number compared with or reserved for them is scaled by this. */
	double mem_scale;
	GError **error;
} RrParser;

typedef enum {
	RR_E_NUM,
	RR_E_STR,
	RR_E_NAME,
	RR_E_DEFINED,
	RR_E_NOT,
	RR_E_NEG,
	RR_E_BIN,
} RrExprKind;

typedef struct _RrExpr RrExpr;
struct _RrExpr {
	RrExprKind kind;
	RrOp op;        /* RR_E_BIN */
	double num;     /* RR_E_NUM; a size is in MB */
	gboolean size;  /* RR_E_NUM: a memory size (a unit was written, or a
	                 * bare number was scaled by mem_scale) */
	char *str;      /* RR_E_STR, RR_E_NAME, RR_E_DEFINED */
	RrExpr *l;      /* RR_E_NOT, RR_E_NEG: the operand */
	RrExpr *r;
};

/* Sets the error (once) and returns FALSE; col is 1-based. */
gboolean rr_fail(RrParser *p, gsize col, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

void rr_peek(RrParser *p, RrTok *t);
gboolean rr_next(RrParser *p, RrTok *t);
char *rr_tok_text(const RrParser *p, const RrTok *t);
gboolean rr_tok_is(const RrParser *p, const RrTok *t, const char *word);
const char *rr_op_text(RrOp op);
gboolean rr_op_is_comparison(RrOp op);

RrExpr *rr_expr_parse(RrParser *p);
/* The length of a memory unit glued to a number at text[at] (0 if none),
 * and its size in MB. */
gsize rr_mem_unit_at(const char *text, gsize at, double *mb);
RrExpr *rr_expr_and(RrExpr *l, RrExpr *r);
void rr_expr_free(RrExpr *e);
/* size_suffix: write sizes with "MB", for a reader whose bare unit is
 * not MB (see bs_resreq_to_string). */
void rr_expr_print(const RrExpr *e, gboolean size_suffix, GString *out);
gboolean rr_expr_truth(const RrExpr *e, BsResLookup lookup, void *host_data,
    gboolean *result, GError **error);

/* LSF 10.1's alternative and compound forms (resreq-forms.c). */
typedef struct {
	GPtrArray *parts;      /* char *: each {...}'s text; NULL if no braces */
	gboolean alternative;  /* {...} || {...} (or one bare {...}) */
	gboolean multiplied;   /* some part had n*{...} */
	int slots;             /* compound: the sum of n (1 without n*) */
} RrForms;

gboolean rr_forms_split(const char *text, RrForms *out, GError **error);
void rr_forms_clear(RrForms *f);

/* A number as the printers write it, so that the parser reads back the
 * same double: the short form when it is exact, else 17 digits. */
static inline const char *
rr_format_number(char *buf, gsize len, double v)
{
	g_ascii_formatd(buf, (gint)len, "%.15g", v);
	if (g_ascii_strtod(buf, NULL) != v)
		g_ascii_formatd(buf, (gint)len, "%.17g", v);
	return buf;
}

#endif
