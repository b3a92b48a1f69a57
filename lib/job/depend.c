/*
 * Job dependency conditions: a recursive-descent parser, the canonical
 * printer and the evaluator.  See depend.h for the language.
 *
 * Evaluation uses four truth values, not two, so that ! stays right about
 * the future: "false now, may turn true" (WAIT), "false for good" (NEVER),
 * and their mirrors "true now" and "true for good".  Ordered
 * NEVER < FALSE_NOW < TRUE_NOW < ALWAYS, && is the minimum, || the maximum
 * and ! the mirror image, so !done(1) is NEVER once job 1 is done and
 * SATISFIED once it has exited.  Finished states count as final (a
 * requeued job simply changes the answer on the next evaluation).
 *
 * A condition over several jobs (a name, a whole array) is the && of the
 * condition over each of them.  num* conditions count elements; counts of
 * finished elements only grow, so `numdone(a, <3)` is NEVER once three
 * are done, and any count is final once every element has finished.
 */
#include "config.h"

#include <string.h>

#include "job/depend.h"
#include "util/error.h"

typedef enum { NEVER, FALSE_NOW, TRUE_NOW, ALWAYS } Truth;

typedef enum {
	C_DONE, C_ENDED, C_EXIT, C_STARTED, C_POST_DONE, C_POST_ERR,
	C_NUMDONE, C_NUMENDED, C_NUMEXIT, C_NUMRUN, C_NUMSTART, C_NUMPEND,
	C_NUMHOLD,
} CondKind;

static const char *const cond_names[] = {
	"done", "ended", "exit", "started", "post_done", "post_err",
	"numdone", "numended", "numexit", "numrun", "numstart", "numpend",
	"numhold",
};

typedef enum { OP_EQ, OP_NE, OP_GT, OP_GE, OP_LT, OP_LE } CmpOp;

static const char *const op_names[] = { "==", "!=", ">", ">=", "<", "<=" };

typedef enum { N_AND, N_OR, N_NOT, N_COND } NodeKind;

typedef struct _Node Node;
struct _Node {
	NodeKind kind;
	Node *l, *r;          /* N_AND, N_OR; N_NOT uses l */
	CondKind cond;
	BsDependRef ref;      /* ref.name is owned */
	gboolean has_arg;     /* exit(j, op N), num*(j, op N | *) */
	gboolean all;         /* num*(j, *) */
	CmpOp op;
	guint64 value;
};

struct _BsDepend {
	Node *root;
};

/* ------------------------------------------------------------------ */
/* Lexer */

typedef enum {
	T_END, T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET, T_COMMA,
	T_AND, T_OR, T_NOT, T_CMP, T_WORD, T_STR, T_BAD,
} TokKind;

typedef struct {
	TokKind kind;
	CmpOp op;
	gsize start, end;
} Tok;

typedef struct {
	const char *text;
	gsize pos;
	int depth;
	GError **error;
} Parser;

static gboolean fail(Parser *p, gsize col, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean
fail(Parser *p, gsize col, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (p->error == NULL || *p->error != NULL)
		return FALSE;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(p->error, BS_ERROR, BS_ERROR_FAILED,
	    "bad dependency condition \"%s\": %s at column %zu", p->text, msg, col);
	g_free(msg);
	return FALSE;
}

/* Characters that end an unquoted job name. */
static gboolean
is_word_char(char c)
{
	return (guchar)c > ' ' && c != 0x7f && strchr("()[],&|!\"'=<>", c) == NULL;
}

static gboolean
lex_cmp(const char *s, Tok *t)
{
	static const struct { const char *text; CmpOp op; } ops[] = {
		{ "==", OP_EQ }, { "!=", OP_NE }, { ">=", OP_GE }, { "<=", OP_LE },
		{ "=", OP_EQ }, { ">", OP_GT }, { "<", OP_LT },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(ops); i++) {
		gsize n = strlen(ops[i].text);

		if (strncmp(s + t->start, ops[i].text, n) == 0) {
			t->kind = T_CMP;
			t->op = ops[i].op;
			t->end = t->start + n;
			return TRUE;
		}
	}
	return FALSE;
}

static void
peek(const Parser *p, Tok *t)
{
	static const char singles[] = "()[],";
	static const TokKind kinds[] = { T_LPAREN, T_RPAREN, T_LBRACKET,
	    T_RBRACKET, T_COMMA };
	const char *s = p->text, *c;
	gsize i = p->pos;

	while (g_ascii_isspace(s[i]))
		i++;
	memset(t, 0, sizeof(*t));
	t->start = i;
	t->end = i + 1;
	if (s[i] == '\0') {
		t->kind = T_END;
		t->end = i;
	} else if ((c = strchr(singles, s[i])) != NULL) {
		t->kind = kinds[c - singles];
	} else if (strncmp(s + i, "&&", 2) == 0 || strncmp(s + i, "||", 2) == 0) {
		t->kind = s[i] == '&' ? T_AND : T_OR;
		t->end = i + 2;
	} else if (lex_cmp(s, t)) {
		/* done */
	} else if (s[i] == '!') {
		t->kind = T_NOT;
	} else if (s[i] == '"' || s[i] == '\'') {
		const char *close = strchr(s + i + 1, s[i]);

		t->kind = close ? T_STR : T_BAD;
		t->end = close ? (gsize)(close - s) + 1 : strlen(s);
	} else if (is_word_char(s[i])) {
		t->kind = T_WORD;
		for (t->end = i; is_word_char(s[t->end]);)
			t->end++;
	} else {
		t->kind = T_BAD;
	}
}

static gboolean
next(Parser *p, Tok *t)
{
	peek(p, t);
	p->pos = t->end;
	if (t->kind != T_BAD)
		return TRUE;
	if (p->text[t->start] == '"' || p->text[t->start] == '\'')
		return fail(p, t->start + 1, "unterminated string");
	if (!g_ascii_isprint(p->text[t->start]))
		return fail(p, t->start + 1, "unexpected byte 0x%02x",
		    (guchar)p->text[t->start]);
	return fail(p, t->start + 1, "unexpected '%c'", p->text[t->start]);
}

static gboolean
fail_unexpected(Parser *p, const Tok *t)
{
	Tok bad;

	if (t->kind == T_BAD)
		return next(p, &bad);
	if (t->kind == T_END)
		return fail(p, t->start + 1, "unexpected end of string");
	return fail(p, t->start + 1, "unexpected '%.*s'",
	    (int)(t->end - t->start), p->text + t->start);
}

/* A whole number in [min, max] from s[start, end); FALSE if not one. */
static gboolean
parse_uint(const char *s, gsize start, gsize end, guint64 max, guint64 *out)
{
	guint64 v = 0;

	if (start == end)
		return FALSE;
	for (gsize i = start; i < end; i++) {
		if (!g_ascii_isdigit(s[i]))
			return FALSE;
		v = v * 10 + (guint64)(s[i] - '0');
		if (v > max)
			return FALSE;
	}
	*out = v;
	return TRUE;
}

/* ------------------------------------------------------------------ */
/* Parser */

static void
node_free(Node *n)
{
	if (n == NULL)
		return;
	node_free(n->l);
	node_free(n->r);
	g_free((char *)n->ref.name);
	g_free(n);
}

static Node *
node_new(NodeKind kind, Node *l, Node *r)
{
	Node *n = g_new0(Node, 1);

	n->kind = kind;
	n->l = l;
	n->r = r;
	return n;
}

/* [N] after a job, if present: an array element. */
static gboolean
parse_index(Parser *p, BsDependRef *ref)
{
	Tok t, num;
	guint64 v;

	peek(p, &t);
	if (t.kind != T_LBRACKET)
		return TRUE;
	next(p, &t);
	if (!next(p, &num))
		return FALSE;
	if (num.kind != T_WORD || !parse_uint(p->text, num.start, num.end,
	    G_MAXINT32, &v) || v == 0)
		return fail(p, num.start + 1, "expected an array index (1 or more)");
	ref->index = (guint)v;
	if (!next(p, &t))
		return FALSE;
	if (t.kind != T_RBRACKET)
		return fail(p, t.start + 1, "missing ']' after the array index");
	return TRUE;
}

/* A job name from s[start, end): '*' only at its end. */
static gboolean
set_name(Parser *p, BsDependRef *ref, gsize start, gsize end)
{
	const char *star;

	if (start == end)
		return fail(p, start, "empty job name");
	star = memchr(p->text + start, '*', end - start);
	if (star != NULL && star != p->text + end - 1)
		return fail(p, (gsize)(star - p->text) + 1,
		    "'*' is allowed only at the end of a job name");
	ref->name = g_strndup(p->text + start, end - start);
	return TRUE;
}

/* A quoted name; "arr[3]" is element 3 of the jobs named arr. */
static gboolean
parse_quoted(Parser *p, BsDependRef *ref, const Tok *t)
{
	gsize start = t->start + 1, end = t->end - 1, open = end;
	guint64 v;

	if (end > start && p->text[end - 1] == ']') {
		while (open > start && p->text[open - 1] != '[')
			open--;
		if (open > start && parse_uint(p->text, open, end - 1, G_MAXINT32, &v)) {
			if (v == 0)
				return fail(p, open + 1, "expected an array index (1 or more)");
			ref->index = (guint)v;
			end = open - 1;
		}
	}
	return set_name(p, ref, start, end) && parse_index(p, ref);
}

static gboolean
all_digits(const char *s, gsize start, gsize end)
{
	for (gsize i = start; i < end; i++)
		if (!g_ascii_isdigit(s[i]))
			return FALSE;
	return TRUE;
}

static gboolean
parse_ref(Parser *p, BsDependRef *ref)
{
	Tok t;
	guint64 id;

	if (!next(p, &t))
		return FALSE;
	if (t.kind == T_STR)
		return parse_quoted(p, ref, &t);
	if (t.kind != T_WORD)
		return fail(p, t.start + 1, "expected a job ID or name");
	if (all_digits(p->text, t.start, t.end)) {
		if (!parse_uint(p->text, t.start, t.end, BS_JOB_ID_MAX, &id) || id == 0)
			return fail(p, t.start + 1, "job ID out of range");
		ref->job_id = id;
	} else if (!set_name(p, ref, t.start, t.end)) {
		return FALSE;
	}
	return parse_index(p, ref);
}

static gboolean
is_num_cond(CondKind c)
{
	return c >= C_NUMDONE;
}

/* `, [op] N` or, for num*, `, *`. */
static gboolean
parse_arg(Parser *p, Node *n, const Tok *comma)
{
	Tok t, op;
	guint64 max = is_num_cond(n->cond) ? G_MAXINT32 : 255;

	n->has_arg = TRUE;
	n->op = OP_EQ;
	if (!next(p, &t))
		return FALSE;
	if (t.kind == T_WORD && t.end - t.start == 1 && p->text[t.start] == '*' &&
	    is_num_cond(n->cond)) {
		n->all = TRUE;
		return TRUE;
	}
	if (t.kind == T_CMP) {
		n->op = t.op;
		op = t;
		comma = &op;
		if (!next(p, &t))
			return FALSE;
	}
	if (t.kind != T_WORD || !g_ascii_isdigit(p->text[t.start]))
		return fail(p, comma->start + 1, "expected %s after '%.*s'",
		    n->cond == C_EXIT ? "an exit code" : "a count",
		    (int)(comma->end - comma->start), p->text + comma->start);
	if (!parse_uint(p->text, t.start, t.end, max, &n->value))
		return fail(p, t.start + 1, "%s must be a number from 0 to %" G_GUINT64_FORMAT,
		    n->cond == C_EXIT ? "exit code" : "count", max);
	return TRUE;
}

/* name( job [, arg] ): the name has been read, '(' is next. */
static Node *
parse_cond(Parser *p, const Tok *name)
{
	Node *n = node_new(N_COND, NULL, NULL);
	Tok open, t;
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(cond_names); i++)
		if (strlen(cond_names[i]) == name->end - name->start &&
		    strncmp(cond_names[i], p->text + name->start,
		    name->end - name->start) == 0)
			break;
	if (i == G_N_ELEMENTS(cond_names)) {
		fail(p, name->start + 1, "unknown condition '%.*s'",
		    (int)(name->end - name->start), p->text + name->start);
		goto error;
	}
	n->cond = (CondKind)i;
	next(p, &open);
	if (!parse_ref(p, &n->ref))
		goto error;
	if (is_num_cond(n->cond) && n->ref.index != 0) {
		fail(p, name->start + 1, "%s() takes a whole job array, not an element",
		    cond_names[i]);
		goto error;
	}
	if (!next(p, &t))
		goto error;
	if (t.kind == T_COMMA && (n->cond == C_EXIT || is_num_cond(n->cond))) {
		if (!parse_arg(p, n, &t) || !next(p, &t))
			goto error;
	} else if (t.kind == T_COMMA) {
		fail(p, t.start + 1, "%s() takes one job", cond_names[i]);
		goto error;
	} else if (is_num_cond(n->cond)) {
		fail(p, t.start + 1, "%s() needs a count: %s(job, op N) or %s(job, *)",
		    cond_names[i], cond_names[i], cond_names[i]);
		goto error;
	}
	if (t.kind == T_RPAREN)
		return n;
	if (t.kind == T_END)
		fail(p, open.start + 1, "missing ')' for this '('");
	else
		fail_unexpected(p, &t);
error:
	node_free(n);
	return NULL;
}

static Node *parse_or(Parser *p);

static gboolean
enter(Parser *p, const Tok *t)
{
	if (++p->depth > BS_DEPEND_MAX_DEPTH)
		return fail(p, t->start + 1, "nested too deeply (more than %d levels)",
		    BS_DEPEND_MAX_DEPTH);
	return TRUE;
}

static Node *
parse_group(Parser *p, const Tok *open)
{
	Node *n = parse_or(p);
	Tok t;

	if (n == NULL)
		return NULL;
	peek(p, &t);
	if (t.kind == T_RPAREN) {
		next(p, &t);
		return n;
	}
	if (t.kind == T_END)
		fail(p, open->start + 1, "missing ')' for this '('");
	else
		fail_unexpected(p, &t);
	node_free(n);
	return NULL;
}

/* ! unary | ( or ) | cond(...) | job.  after: the operator before, if any. */
static Node *
parse_unary(Parser *p, const Tok *after)
{
	Tok t, la;
	Node *n = NULL;

	peek(p, &t);
	if (t.kind == T_NOT || t.kind == T_LPAREN) {
		next(p, &t);
		if (!enter(p, &t))
			return NULL;
		n = t.kind == T_LPAREN ? parse_group(p, &t) : parse_unary(p, &t);
		p->depth--;
		return n == NULL || t.kind == T_LPAREN ? n : node_new(N_NOT, n, NULL);
	}
	if (t.kind == T_WORD) {
		p->pos = t.end;
		peek(p, &la);
		if (la.kind == T_LPAREN)
			return parse_cond(p, &t);
		p->pos = t.start;
	}
	if (t.kind == T_WORD || t.kind == T_STR) {
		/* A job alone means done(job). */
		n = node_new(N_COND, NULL, NULL);
		n->cond = C_DONE;
		if (parse_ref(p, &n->ref))
			return n;
		node_free(n);
		return NULL;
	}
	if (t.kind == T_BAD)
		fail_unexpected(p, &t);
	else if (after != NULL)
		fail(p, after->start + 1, "expected a condition after '%.*s'",
		    (int)(after->end - after->start), p->text + after->start);
	else
		fail(p, t.start + 1, "expected a condition or a job");
	return NULL;
}

typedef Node *(*SubFn)(Parser *p, const Tok *after);

/* Left-associative op over sub; after: the operator before, if any. */
static Node *
parse_binary(Parser *p, TokKind op, SubFn sub, const Tok *after)
{
	Node *l = sub(p, after), *r;
	Tok t;

	while (l != NULL) {
		peek(p, &t);
		if (t.kind != op)
			break;
		next(p, &t);
		if ((r = sub(p, &t)) == NULL) {
			node_free(l);
			return NULL;
		}
		l = node_new(op == T_AND ? N_AND : N_OR, l, r);
	}
	return l;
}

static Node *
parse_and(Parser *p, const Tok *after)
{
	return parse_binary(p, T_AND, parse_unary, after);
}

static Node *
parse_or(Parser *p)
{
	return parse_binary(p, T_OR, parse_and, NULL);
}

BsDepend *
bs_depend_parse(const char *text, GError **error)
{
	Parser p = { text, 0, 0, error };
	BsDepend *dep;
	Node *root;
	Tok t;

	g_return_val_if_fail(text != NULL, NULL);
	if (strlen(text) > BS_DEPEND_MAX_LEN) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "dependency condition too long (%zu bytes, at most %d)",
		    strlen(text), BS_DEPEND_MAX_LEN);
		return NULL;
	}
	if ((root = parse_or(&p)) == NULL)
		return NULL;
	peek(&p, &t);
	if (t.kind != T_END) {
		fail_unexpected(&p, &t);
		node_free(root);
		return NULL;
	}
	dep = g_new0(BsDepend, 1);
	dep->root = root;
	return dep;
}

void
bs_depend_free(BsDepend *dep)
{
	if (dep == NULL)
		return;
	node_free(dep->root);
	g_free(dep);
}

/* ------------------------------------------------------------------ */
/* Printing */

/* Would the name read back unquoted as the same name? */
static gboolean
name_is_bare(const char *name)
{
	gboolean digits = TRUE;

	for (const char *c = name; *c; c++) {
		if (!is_word_char(*c))
			return FALSE;
		digits = digits && g_ascii_isdigit(*c);
	}
	return !digits;
}

char *
bs_depend_ref_to_string(const BsDependRef *ref)
{
	GString *s = g_string_new(NULL);

	if (ref->name == NULL)
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, ref->job_id);
	else
		g_string_append(s, ref->name);
	if (ref->index != 0)
		g_string_append_printf(s, "[%u]", ref->index);
	return g_string_free(s, FALSE);
}

static void
print_ref(const BsDependRef *ref, GString *out)
{
	char *s = bs_depend_ref_to_string(ref);

	if (ref->name == NULL || name_is_bare(ref->name))
		g_string_append(out, s);
	else
		g_string_append_printf(out, strchr(s, '"') ? "'%s'" : "\"%s\"", s);
	g_free(s);
}

static int
prec(const Node *n)
{
	return n->kind == N_OR ? 1 : n->kind == N_AND ? 2 : 3;
}

static void
print_node(const Node *n, int min_prec, GString *out)
{
	if (prec(n) < min_prec) {
		g_string_append_c(out, '(');
		print_node(n, 0, out);
		g_string_append_c(out, ')');
		return;
	}
	switch (n->kind) {
	case N_AND:
	case N_OR:
		print_node(n->l, prec(n), out);
		g_string_append(out, n->kind == N_AND ? " && " : " || ");
		print_node(n->r, prec(n) + 1, out);
		break;
	case N_NOT:
		g_string_append_c(out, '!');
		print_node(n->l, 3, out);
		break;
	case N_COND:
		g_string_append_printf(out, "%s(", cond_names[n->cond]);
		print_ref(&n->ref, out);
		if (n->all)
			g_string_append(out, ",*");
		else if (n->has_arg)
			g_string_append_printf(out, ",%s%" G_GUINT64_FORMAT,
			    op_names[n->op], n->value);
		g_string_append_c(out, ')');
		break;
	}
}

char *
bs_depend_to_string(const BsDepend *dep)
{
	GString *out = g_string_new(NULL);

	print_node(dep->root, 0, out);
	return g_string_free(out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Evaluation */

static gboolean
started(BsDependJobState s)
{
	return s != BS_DEPEND_JOB_PEND && s != BS_DEPEND_JOB_HELD;
}

static gboolean
finished(BsDependJobState s)
{
	return s == BS_DEPEND_JOB_DONE || s == BS_DEPEND_JOB_EXIT;
}

static gboolean
compare(CmpOp op, guint64 a, guint64 b)
{
	switch (op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_LT: return a < b;
	default: return a <= b;
	}
}

/* A condition on one job: true or false now, and whether that is final. */
static Truth
job_truth(const Node *n, const BsDependJob *j)
{
	gboolean fin = finished(j->state), yes;

	switch (n->cond) {
	case C_DONE:
		yes = j->state == BS_DEPEND_JOB_DONE;
		break;
	case C_EXIT:
		yes = j->state == BS_DEPEND_JOB_EXIT &&
		    (!n->has_arg || compare(n->op, (guint64)j->exit_code, n->value));
		break;
	case C_ENDED:
		yes = fin;
		break;
	case C_STARTED:
		/* once started, always started */
		return started(j->state) ? ALWAYS : FALSE_NOW;
	case C_POST_DONE:
	case C_POST_ERR:
		if (j->post == BS_DEPEND_POST_NONE)
			return FALSE_NOW;
		yes = j->post == (n->cond == C_POST_DONE ?
		    BS_DEPEND_POST_DONE : BS_DEPEND_POST_ERR);
		return yes ? ALWAYS : NEVER;
	default:
		g_assert_not_reached();
	}
	if (fin)
		return yes ? ALWAYS : NEVER;
	return FALSE_NOW;
}

static gboolean
counts(CondKind c, BsDependJobState s)
{
	switch (c) {
	case C_NUMDONE: return s == BS_DEPEND_JOB_DONE;
	case C_NUMEXIT: return s == BS_DEPEND_JOB_EXIT;
	case C_NUMENDED: return finished(s);
	case C_NUMRUN: return s == BS_DEPEND_JOB_RUN;
	case C_NUMSTART: return started(s) && !finished(s);
	case C_NUMPEND: return !started(s);
	default: return s == BS_DEPEND_JOB_HELD;
	}
}

/* Does some (all, when every) count in [lo, hi] satisfy `op n`? */
static gboolean
range_test(CmpOp op, guint64 n, guint64 lo, guint64 hi, gboolean every)
{
	switch (op) {
	case OP_EQ: return every ? lo == n && hi == n : lo <= n && n <= hi;
	case OP_NE: return every ? n < lo || n > hi : !(lo == n && hi == n);
	case OP_GT: return every ? lo > n : hi > n;
	case OP_GE: return every ? lo >= n : hi >= n;
	case OP_LT: return every ? hi < n : lo < n;
	default: return every ? hi <= n : lo <= n;
	}
}

static Truth
count_truth(const Node *n, const GArray *jobs)
{
	guint64 c = 0, open = 0, lo, hi, target;
	CmpOp op = n->all ? OP_EQ : n->op;
	gboolean grows = n->cond == C_NUMDONE || n->cond == C_NUMEXIT ||
	    n->cond == C_NUMENDED;

	for (guint i = 0; i < jobs->len; i++) {
		BsDependJobState s = g_array_index(jobs, BsDependJob, i).state;

		c += counts(n->cond, s);
		open += !finished(s);
	}
	target = n->all ? jobs->len : n->value;
	/* The counts this can still reach: only growing ones move up, and
	 * every count is final once all elements have finished. */
	lo = c;
	hi = grows ? c + open : c;
	if (!grows && open > 0)
		return compare(op, c, target) ? TRUE_NOW : FALSE_NOW;
	if (compare(op, c, target))
		return range_test(op, target, lo, hi, TRUE) ? ALWAYS : TRUE_NOW;
	return range_test(op, target, lo, hi, FALSE) ? FALSE_NOW : NEVER;
}

typedef struct {
	BsDependLookup lookup;
	void *data;
	GArray *jobs;
} EvalCtx;

static Truth
cond_truth(const Node *n, EvalCtx *c)
{
	Truth t = ALWAYS;

	g_array_set_size(c->jobs, 0);
	c->lookup(&n->ref, c->jobs, c->data);
	if (c->jobs->len == 0)
		return NEVER;
	if (is_num_cond(n->cond))
		return count_truth(n, c->jobs);
	for (guint i = 0; i < c->jobs->len; i++)
		t = MIN(t, job_truth(n, &g_array_index(c->jobs, BsDependJob, i)));
	return t;
}

static Truth
eval_node(const Node *n, EvalCtx *c)
{
	Truth l;

	switch (n->kind) {
	case N_NOT:
		return (Truth)(ALWAYS - eval_node(n->l, c));
	case N_AND:
		l = eval_node(n->l, c);
		return l == NEVER ? NEVER : MIN(l, eval_node(n->r, c));
	case N_OR:
		l = eval_node(n->l, c);
		return l == ALWAYS ? ALWAYS : MAX(l, eval_node(n->r, c));
	default:
		return cond_truth(n, c);
	}
}

BsDependResult
bs_depend_eval(const BsDepend *dep, BsDependLookup lookup, void *data)
{
	EvalCtx c = { lookup, data, g_array_new(FALSE, FALSE, sizeof(BsDependJob)) };
	Truth t = eval_node(dep->root, &c);

	g_array_free(c.jobs, TRUE);
	if (t >= TRUE_NOW)
		return BS_DEPEND_SATISFIED;
	return t == NEVER ? BS_DEPEND_NEVER : BS_DEPEND_WAIT;
}

/* ------------------------------------------------------------------ */
/* References */

static void
collect(const Node *n, GPtrArray *refs)
{
	if (n == NULL)
		return;
	if (n->kind == N_COND)
		g_ptr_array_add(refs, (gpointer)&n->ref);
	collect(n->l, refs);
	collect(n->r, refs);
}

GPtrArray *
bs_depend_collect_refs(const BsDepend *dep)
{
	GPtrArray *refs = g_ptr_array_new();

	collect(dep->root, refs);
	return refs;
}

gboolean
bs_depend_check_refs(const BsDepend *dep, BsDependLookup lookup, void *data,
    GError **error)
{
	GPtrArray *refs = bs_depend_collect_refs(dep);
	GArray *jobs = g_array_new(FALSE, FALSE, sizeof(BsDependJob));
	gboolean ok = TRUE;

	for (guint i = 0; ok && i < refs->len; i++) {
		const BsDependRef *ref = g_ptr_array_index(refs, i);

		g_array_set_size(jobs, 0);
		lookup(ref, jobs, data);
		if (jobs->len == 0) {
			char *s = bs_depend_ref_to_string(ref);

			g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
			    "Job <%s> is not found", s);
			g_free(s);
			ok = FALSE;
		}
	}
	g_array_free(jobs, TRUE);
	g_ptr_array_free(refs, TRUE);
	return ok;
}

gboolean
bs_depend_name_matches(const char *pattern, const char *job_name)
{
	gsize n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, job_name, n - 1) == 0;
	return strcmp(pattern, job_name) == 0;
}
