/*
 * The select[] expression: lexer, recursive-descent parser and printer
 * (the evaluator is in resreq-eval.c).
 *
 * Precedence, loosest first: ||, &&, comparisons (== = != > >= < <=, not
 * chainable), + -, * /, unary ! and -.  `=` is read as `==`, as LSF does.
 *
 * LSF writes string constants without quotes: `type==LINUX86`,
 * `hname==node-01`.  So the right-hand side of a comparison that starts
 * with an identifier is read as a bare word (letters, digits, _ . -) and
 * taken as a string constant, unless the identifier is one of the built-in
 * numeric indices (`mem>maxmem/2` still compares two resources).  A site
 * resource on the right-hand side must be parenthesised: `a==(b)`.  The
 * printer follows the same rule, so printed text parses back to the same
 * tree.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "resreq/resreq-int.h"
#include "util/error.h"
#include "util/memunit.h"

/* Built-in indices whose value is a number: never read as a bare word. */
static const char *const numeric_names[] = {
	"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp",
	"mem", "ncpus", "maxmem", "maxswp", "maxtmp", "ndisks", NULL,
};

static gboolean
is_numeric_name(const char *s, gsize len)
{
	for (int i = 0; numeric_names[i]; i++)
		if (strlen(numeric_names[i]) == len &&
		    strncmp(numeric_names[i], s, len) == 0)
			return TRUE;
	return FALSE;
}

gboolean
rr_fail(RrParser *p, gsize col, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (p->error == NULL || *p->error != NULL)
		return FALSE;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(p->error, BS_ERROR, BS_ERROR_FAILED,
	    "bad resource requirement \"%s\": %s at column %zu",
	    p->text, msg, col);
	g_free(msg);
	return FALSE;
}

/* ------------------------------------------------------------------ */
/* Lexer */

static const struct {
	const char *text;
	RrOp op;
} op_table[] = {
	/* two-character operators first, so they win over their prefixes */
	{ "&&", RR_OP_AND }, { "||", RR_OP_OR }, { "==", RR_OP_EQ },
	{ "!=", RR_OP_NE }, { ">=", RR_OP_GE }, { "<=", RR_OP_LE },
	{ "=", RR_OP_EQ }, { ">", RR_OP_GT }, { "<", RR_OP_LT },
	{ "+", RR_OP_ADD }, { "-", RR_OP_SUB }, { "*", RR_OP_MUL },
	{ "/", RR_OP_DIV }, { "!", RR_OP_NOT },
};

const char *
rr_op_text(RrOp op)
{
	/* "==" comes before "=" in the table, so it is what we print. */
	for (gsize i = 0; i < G_N_ELEMENTS(op_table); i++)
		if (op_table[i].op == op)
			return op_table[i].text;
	g_assert_not_reached();
}

static gsize
scan_number(const char *s, gsize i)
{
	while (g_ascii_isdigit(s[i]))
		i++;
	if (s[i] == '.')
		for (i++; g_ascii_isdigit(s[i]); i++)
			;
	if ((s[i] == 'e' || s[i] == 'E')) {
		gsize j = i + 1;

		if (s[j] == '+' || s[j] == '-')
			j++;
		if (g_ascii_isdigit(s[j])) {
			while (g_ascii_isdigit(s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

static void
lex_at(const RrParser *p, gsize i, RrTok *t)
{
	const char *s = p->text;

	memset(t, 0, sizeof(*t));
	t->start = i;
	t->end = i + 1;
	if (s[i] == '\0') {
		t->kind = RR_T_END;
		t->end = i;
	} else if (g_ascii_isdigit(s[i]) ||
	    (s[i] == '.' && g_ascii_isdigit(s[i + 1]))) {
		char *lexeme;

		t->kind = RR_T_NUM;
		t->end = scan_number(s, i);
		lexeme = g_strndup(s + i, t->end - i);
		t->num = g_ascii_strtod(lexeme, NULL);
		g_free(lexeme);
	} else if (g_ascii_isalpha(s[i]) || s[i] == '_') {
		t->kind = RR_T_IDENT;
		for (t->end = i; g_ascii_isalnum(s[t->end]) || s[t->end] == '_';)
			t->end++;
	} else if (s[i] == '"' || s[i] == '\'') {
		const char *close = strchr(s + i + 1, s[i]);

		/* An unterminated string is RR_T_BAD spanning the rest. */
		t->kind = close ? RR_T_STR : RR_T_BAD;
		t->end = close ? (gsize)(close - s) + 1 : strlen(s);
	} else {
		static const char singles[] = "()[]:,";
		static const RrTokKind kinds[] = { RR_T_LPAREN, RR_T_RPAREN,
		    RR_T_LBRACKET, RR_T_RBRACKET, RR_T_COLON, RR_T_COMMA };
		const char *c = strchr(singles, s[i]);

		t->kind = RR_T_BAD;
		if (c != NULL) {
			t->kind = kinds[c - singles];
			return;
		}
		for (gsize k = 0; k < G_N_ELEMENTS(op_table); k++) {
			gsize n = strlen(op_table[k].text);

			if (strncmp(s + i, op_table[k].text, n) == 0) {
				t->kind = RR_T_OP;
				t->op = op_table[k].op;
				t->end = i + n;
				return;
			}
		}
	}
}

void
rr_peek(RrParser *p, RrTok *t)
{
	gsize i = p->pos;

	while (g_ascii_isspace(p->text[i]))
		i++;
	lex_at(p, i, t);
}

/* Reads the next token and moves past it; FALSE (and an error) if it is
 * not a token at all. */
gboolean
rr_next(RrParser *p, RrTok *t)
{
	rr_peek(p, t);
	p->pos = t->end;
	if (t->kind != RR_T_BAD)
		return TRUE;
	if (p->text[t->start] == '"' || p->text[t->start] == '\'')
		return rr_fail(p, t->start + 1, "unterminated string");
	if ((guchar)p->text[t->start] >= 0x80 ||
	    !g_ascii_isprint(p->text[t->start]))
		return rr_fail(p, t->start + 1, "unexpected byte 0x%02x",
		    (guchar)p->text[t->start]);
	return rr_fail(p, t->start + 1, "unexpected '%c'", p->text[t->start]);
}

char *
rr_tok_text(const RrParser *p, const RrTok *t)
{
	if (t->kind == RR_T_END)
		return g_strdup("end of string");
	return g_strdup_printf("'%.*s'", (int)(t->end - t->start),
	    p->text + t->start);
}

gboolean
rr_tok_is(const RrParser *p, const RrTok *t, const char *word)
{
	gsize n = strlen(word);

	return t->kind == RR_T_IDENT && t->end - t->start == n &&
	    strncmp(p->text + t->start, word, n) == 0;
}

static gboolean
fail_unexpected(RrParser *p, const RrTok *t)
{
	char *what = rr_tok_text(p, t);

	rr_fail(p, t->start + 1, "unexpected %s", what);
	g_free(what);
	return FALSE;
}

/* ------------------------------------------------------------------ */
/* Parser */

static RrExpr *
expr_new(RrExprKind kind)
{
	RrExpr *e = g_new0(RrExpr, 1);

	e->kind = kind;
	return e;
}

static RrExpr *
expr_bin(RrOp op, RrExpr *l, RrExpr *r)
{
	RrExpr *e = expr_new(RR_E_BIN);

	e->op = op;
	e->l = l;
	e->r = r;
	return e;
}

RrExpr *
rr_expr_and(RrExpr *l, RrExpr *r)
{
	return expr_bin(RR_OP_AND, l, r);
}

void
rr_expr_free(RrExpr *e)
{
	if (e == NULL)
		return;
	rr_expr_free(e->l);
	rr_expr_free(e->r);
	g_free(e->str);
	g_free(e);
}

static RrExpr *parse_or(RrParser *p);

/* A token that cannot start a value: say what it followed, if anything. */
static RrExpr *
fail_value(RrParser *p, const RrTok *t, const char *after, gsize after_col)
{
	RrTok bad;

	if (t->kind == RR_T_BAD)
		rr_next(p, &bad);
	else if (after != NULL)
		rr_fail(p, after_col, "expected a value after '%s'", after);
	else
		fail_unexpected(p, t);
	return NULL;
}

static gboolean
enter(RrParser *p, gsize col)
{
	if (++p->depth > BS_RESREQ_MAX_DEPTH)
		return rr_fail(p, col, "expression nested too deeply (more than %d levels)",
		    BS_RESREQ_MAX_DEPTH);
	return TRUE;
}

/* defined(name): the identifier has already been read. */
static RrExpr *
parse_defined(RrParser *p)
{
	RrTok t, name;
	RrExpr *e;

	rr_next(p, &t); /* ( */
	if (!rr_next(p, &name))
		return NULL;
	if (name.kind != RR_T_IDENT) {
		rr_fail(p, name.start + 1, "expected a resource name in defined()");
		return NULL;
	}
	if (!rr_next(p, &t))
		return NULL;
	if (t.kind != RR_T_RPAREN) {
		rr_fail(p, t.start + 1, "expected ')' after defined(%.*s",
		    (int)(name.end - name.start), p->text + name.start);
		return NULL;
	}
	e = expr_new(RR_E_DEFINED);
	e->str = g_strndup(p->text + name.start, name.end - name.start);
	return e;
}

static RrExpr *
parse_paren(RrParser *p, const RrTok *open)
{
	RrTok t;
	RrExpr *e;
	/* A comparison's right side already counted a level for these
	 * parentheses (parse_rhs), which the printer adds around any
	 * arithmetic there: they must not count twice, or an expression
	 * accepted at the limit would print as one that is refused. */
	gboolean counted = p->rhs_paren;

	p->rhs_paren = FALSE;
	if (!counted && !enter(p, open->start + 1))
		return NULL;
	if ((e = parse_or(p)) == NULL)
		return NULL;
	if (!counted)
		p->depth--;
	rr_peek(p, &t);
	if (t.kind != RR_T_RPAREN) {
		rr_expr_free(e);
		if (t.kind == RR_T_END || t.kind == RR_T_RBRACKET)
			rr_fail(p, open->start + 1, "missing ')' for this '('");
		else
			fail_unexpected(p, &t);
		return NULL;
	}
	rr_next(p, &t);
	return e;
}

gsize
rr_mem_unit_at(const char *text, gsize at, double *mb)
{
	gsize n = 0;
	BsMemUnit u;

	while (g_ascii_isalpha(text[at + n]))
		n++;
	if (!bs_mem_unit_parse(text + at, n, &u))
		return 0;
	*mb = (double)bs_mem_unit_kb(u) / 1024.0;
	return n;
}

static RrExpr *
parse_primary(RrParser *p, const char *after, gsize after_col)
{
	RrTok t, la;
	RrExpr *e;
	gsize n;
	double mb;

	rr_peek(p, &t);
	switch (t.kind) {
	case RR_T_NUM:
		rr_next(p, &t);
		if (!isfinite(t.num)) {
			rr_fail(p, t.start + 1, "number out of range");
			return NULL;
		}
		e = expr_new(RR_E_NUM);
		e->num = t.num;
		/* mem>=2048MB: the unit makes it a size, held in MB. */
		if ((n = rr_mem_unit_at(p->text, t.end, &mb)) > 0) {
			p->pos = t.end + n;
			e->num *= mb;
			e->size = TRUE;
			if (!isfinite(e->num)) {
				rr_expr_free(e);
				rr_fail(p, t.start + 1, "number out of range");
				return NULL;
			}
		}
		return e;
	case RR_T_STR:
		rr_next(p, &t);
		e = expr_new(RR_E_STR);
		e->str = g_strndup(p->text + t.start + 1, t.end - t.start - 2);
		return e;
	case RR_T_IDENT:
		rr_next(p, &t);
		rr_peek(p, &la);
		if (rr_tok_is(p, &t, "defined") && la.kind == RR_T_LPAREN)
			return parse_defined(p);
		e = expr_new(RR_E_NAME);
		e->str = g_strndup(p->text + t.start, t.end - t.start);
		return e;
	case RR_T_LPAREN:
		rr_next(p, &t);
		return parse_paren(p, &t);
	default:
		return fail_value(p, &t, after, after_col);
	}
}

static RrExpr *
parse_unary(RrParser *p, const char *after, gsize after_col)
{
	RrTok t;
	RrExpr *e, *operand;

	rr_peek(p, &t);
	if (t.kind != RR_T_OP || (t.op != RR_OP_NOT && t.op != RR_OP_SUB))
		return parse_primary(p, after, after_col);
	rr_next(p, &t);
	if (!enter(p, t.start + 1))
		return NULL;
	operand = parse_unary(p, rr_op_text(t.op), t.start + 1);
	p->depth--;
	if (operand == NULL)
		return NULL;
	e = expr_new(t.op == RR_OP_NOT ? RR_E_NOT : RR_E_NEG);
	e->l = operand;
	return e;
}

/*
 * One level of left-associative binary operators: ops[] lists the
 * operators of this level, next parses the tighter level.
 */
typedef RrExpr *(*LevelFn)(RrParser *p, const char *after, gsize after_col);

static RrExpr *
parse_level(RrParser *p, const RrOp *ops, gsize n_ops, LevelFn next,
    const char *after, gsize after_col)
{
	RrExpr *l = next(p, after, after_col);
	RrTok t;

	while (l != NULL) {
		gboolean match = FALSE;
		RrExpr *r;

		rr_peek(p, &t);
		for (gsize i = 0; t.kind == RR_T_OP && i < n_ops; i++)
			match = match || t.op == ops[i];
		if (!match)
			break;
		rr_next(p, &t);
		if ((r = next(p, rr_op_text(t.op), t.start + 1)) == NULL) {
			rr_expr_free(l);
			return NULL;
		}
		l = expr_bin(t.op, l, r);
	}
	return l;
}

static RrExpr *
parse_product(RrParser *p, const char *after, gsize after_col)
{
	static const RrOp ops[] = { RR_OP_MUL, RR_OP_DIV };

	return parse_level(p, ops, G_N_ELEMENTS(ops), parse_unary, after,
	    after_col);
}

static RrExpr *
parse_sum(RrParser *p, const char *after, gsize after_col)
{
	static const RrOp ops[] = { RR_OP_ADD, RR_OP_SUB };

	return parse_level(p, ops, G_N_ELEMENTS(ops), parse_product, after,
	    after_col);
}

gboolean
rr_op_is_comparison(RrOp op)
{
	return op >= RR_OP_EQ && op <= RR_OP_LE;
}

static gboolean
is_word_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '-';
}

/* The right-hand side of a comparison; see the note at the top. */
static RrExpr *
parse_rhs_value(RrParser *p, const RrTok *op)
{
	RrTok t;
	RrExpr *e;
	gsize end;

	rr_peek(p, &t);
	if (t.kind != RR_T_IDENT ||
	    is_numeric_name(p->text + t.start, t.end - t.start))
		return parse_sum(p, rr_op_text(op->op), op->start + 1);
	if (rr_tok_is(p, &t, "defined")) {
		RrTok la;

		p->pos = t.end;
		rr_peek(p, &la);
		p->pos = t.start;
		if (la.kind == RR_T_LPAREN)
			return parse_sum(p, rr_op_text(op->op), op->start + 1);
	}
	for (end = t.start; is_word_char(p->text[end]); end++)
		;
	p->pos = end;
	e = expr_new(RR_E_STR);
	e->str = g_strndup(p->text + t.start, end - t.start);
	return e;
}

/*
 * A comparison's right side counts one nesting level, whether or not it
 * is in parentheses: the printer writes arithmetic there as "x>(a-b)",
 * and the reprint must nest no deeper than what was parsed.
 */
static RrExpr *
parse_rhs(RrParser *p, const RrTok *op)
{
	RrTok t;
	RrExpr *e;

	if (!enter(p, op->start + 1))
		return NULL;
	rr_peek(p, &t);
	p->rhs_paren = t.kind == RR_T_LPAREN;
	e = parse_rhs_value(p, op);
	p->rhs_paren = FALSE;
	p->depth--;
	return e;
}

static gboolean
is_size_name(const char *s)
{
	static const char *const names[] = {
		"mem", "swp", "tmp", "maxmem", "maxswp", "maxtmp",
	};

	for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
		if (strcmp(s, names[i]) == 0)
			return TRUE;
	return FALSE;
}

/* mem>2 where LSF_UNIT_FOR_LIMITS=GB: the bare 2 is 2 GB, held in MB. */
static void
scale_bare_size(const RrParser *p, const RrExpr *name, RrExpr *num)
{
	if (name->kind != RR_E_NAME || !is_size_name(name->str) ||
	    num->kind != RR_E_NUM || num->size || p->mem_scale == 1)
		return;
	num->num *= p->mem_scale;
	num->size = TRUE;
}

static RrExpr *
parse_comparison(RrParser *p, const char *after, gsize after_col)
{
	RrExpr *l = parse_sum(p, after, after_col), *r;
	RrTok op, t;

	if (l == NULL)
		return NULL;
	rr_peek(p, &op);
	if (op.kind != RR_T_OP || !rr_op_is_comparison(op.op))
		return l;
	rr_next(p, &op);
	if ((r = parse_rhs(p, &op)) == NULL) {
		rr_expr_free(l);
		return NULL;
	}
	rr_peek(p, &t);
	if (t.kind == RR_T_OP && rr_op_is_comparison(t.op)) {
		rr_expr_free(l);
		rr_expr_free(r);
		rr_fail(p, t.start + 1, "comparisons cannot be chained");
		return NULL;
	}
	scale_bare_size(p, l, r);
	scale_bare_size(p, r, l);
	return expr_bin(op.op, l, r);
}

static RrExpr *
parse_and(RrParser *p, const char *after, gsize after_col)
{
	static const RrOp ops[] = { RR_OP_AND };

	return parse_level(p, ops, 1, parse_comparison, after, after_col);
}

static RrExpr *
parse_or(RrParser *p)
{
	static const RrOp ops[] = { RR_OP_OR };

	return parse_level(p, ops, 1, parse_and, NULL, 0);
}

/* Parses one expression and stops before the first token that cannot
 * continue it; the caller decides whether that token is acceptable. */
RrExpr *
rr_expr_parse(RrParser *p)
{
	return parse_or(p);
}

/* ------------------------------------------------------------------ */
/* Printer */

static int
prec(const RrExpr *e)
{
	switch (e->kind) {
	case RR_E_BIN:
		switch (e->op) {
		case RR_OP_OR: return 1;
		case RR_OP_AND: return 2;
		case RR_OP_ADD: case RR_OP_SUB: return 4;
		case RR_OP_MUL: case RR_OP_DIV: return 5;
		default: return 3;
		}
	case RR_E_NOT:
	case RR_E_NEG:
		return 6;
	default:
		return 7;
	}
}

/* Would s read back as the same bare word after a comparison? */
static gboolean
is_bare_word(const char *s)
{
	gsize ident = 0;

	if (!g_ascii_isalpha(s[0]) && s[0] != '_')
		return FALSE;
	for (const char *c = s; *c; c++)
		if (!is_word_char(*c))
			return FALSE;
	while (g_ascii_isalnum(s[ident]) || s[ident] == '_')
		ident++;
	return !is_numeric_name(s, ident) && strcmp(s, "defined") != 0;
}

static void print_at(const RrExpr *e, int min_prec, gboolean rhs,
    gboolean suffix, GString *out);

/*
 * Would e, printed at min_prec, begin with a resource name?  Right of a
 * comparison parse_rhs() reads a leading word as a bare string ("mem>a-b"
 * is the string "a-b"), so such an expression needs parentheses there.
 */
static gboolean
starts_with_name(const RrExpr *e, int min_prec)
{
	while (e->kind == RR_E_BIN && prec(e) >= min_prec) {
		min_prec = prec(e) == 3 ? 4 : prec(e);
		e = e->l;
	}
	return prec(e) >= min_prec && e->kind == RR_E_NAME &&
	    !is_numeric_name(e->str, strlen(e->str));
}

static void
print_leaf(const RrExpr *e, gboolean rhs, gboolean suffix, GString *out)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	switch (e->kind) {
	case RR_E_NUM:
		g_string_append(out, rr_format_number(buf, sizeof(buf), e->num));
		if (suffix && e->size)
			g_string_append(out, "MB");
		break;
	case RR_E_STR:
		if (rhs && is_bare_word(e->str))
			g_string_append(out, e->str);
		else if (strchr(e->str, '"') == NULL)
			g_string_append_printf(out, "\"%s\"", e->str);
		else
			g_string_append_printf(out, "'%s'", e->str);
		break;
	case RR_E_NAME:
		/* A site resource right of == would read back as a word. */
		if (rhs && !is_numeric_name(e->str, strlen(e->str)))
			g_string_append_printf(out, "(%s)", e->str);
		else
			g_string_append(out, e->str);
		break;
	case RR_E_DEFINED:
		g_string_append_printf(out, "defined(%s)", e->str);
		break;
	default:
		g_assert_not_reached();
	}
}

static void
print_at(const RrExpr *e, int min_prec, gboolean rhs, gboolean suffix,
    GString *out)
{
	int p = prec(e);

	if (p < min_prec || (rhs && e->kind == RR_E_BIN && starts_with_name(e, min_prec))) {
		g_string_append_c(out, '(');
		print_at(e, 0, FALSE, suffix, out);
		g_string_append_c(out, ')');
		return;
	}
	switch (e->kind) {
	case RR_E_NOT:
	case RR_E_NEG:
		g_string_append_c(out, e->kind == RR_E_NOT ? '!' : '-');
		print_at(e->l, p, FALSE, suffix, out);
		break;
	case RR_E_BIN:
		/* Comparisons do not chain: both sides bind tighter. */
		print_at(e->l, p == 3 ? p + 1 : p, FALSE, suffix, out);
		if (e->op == RR_OP_AND || e->op == RR_OP_OR)
			g_string_append_printf(out, " %s ", rr_op_text(e->op));
		else
			g_string_append(out, rr_op_text(e->op));
		print_at(e->r, p + 1, p == 3, suffix, out);
		break;
	default:
		print_leaf(e, rhs, suffix, out);
	}
}

void
rr_expr_print(const RrExpr *e, gboolean size_suffix, GString *out)
{
	print_at(e, 0, FALSE, size_suffix, out);
}

