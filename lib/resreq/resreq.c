/*
 * Resource requirement strings: the sections around the select[]
 * expression (order, rusage, span, same), the accessors, and the
 * canonical printer.  See resreq.h for the grammar.
 *
 * rusage[] keeps its block structure: `mem=500:swp=100:duration=10` is one
 * block whose duration applies to both resources; a comma starts another
 * block with its own duration and decay, as in LSF.  LSF's alternative
 * (`||`) and compound (`n*{...}`) forms keep their first part (see
 * resreq-forms.c); the multi-phase form (`mem=(500 300)`) is refused with
 * a clear message rather than half understood.  A resource
 * may be reserved only once in one string.
 *
 * Several strings (bsub -R given more than once) merge into one BsResReq
 * by parsing each into the same object (bs_resreq_parse_many): the rules
 * for a section seen in an earlier string are in merge_* below.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "resreq/resreq-int.h"
#include "util/error.h"
#include "util/memunit.h"

typedef struct {
	char *name;
	gboolean descending;
} OrderKey;

typedef struct {
	char *name;
	double value;    /* MB for a size */
	gboolean size;   /* a memory size: printed with "MB" when needed */
} RusageItem;

typedef struct {
	GArray *items;   /* RusageItem */
	int duration;    /* minutes; -1 = not given */
	int decay;       /* -1 = not given, else 0 or 1 */
} RusageBlock;

enum {
	SEC_ORDER = 1 << 0,
	SEC_RUSAGE = 1 << 1,
	SEC_SPAN = 1 << 2,
	SEC_SAME = 1 << 3,
	SEC_CU = 1 << 4,
	SEC_AFFINITY = 1 << 5,
};

struct _BsResReq {
	gint ref;           /* bs_resreq_ref / bs_resreq_free */
	RrExpr *select;
	GArray *order;      /* OrderKey; NULL if no order[] */
	GPtrArray *rusage;  /* RusageBlock *; empty if no rusage[] */
	int span_hosts;
	int span_ptile;
	int span_block;
	char **same;
	char *cu;           /* cu[] and affinity[]: kept as written, unused */
	char *affinity;
	guint seen;         /* SEC_* given so far, in any string */
	gboolean size_suffix; /* print sizes with "MB" (bare unit is not MB) */
	/* While one string of several is parsed: */
	guint seen_text;    /* SEC_* given in this string */
	guint blocks0;      /* rusage blocks from earlier strings */
	int compound_slots; /* n*{...} + m*{...}: n + m; 0 if not compound */
	int alternatives;   /* {...} || {...}: how many; 0 if not that form */
};

/* The default LSF uses without order[]. */
static const BsResOrderKey default_order[] = {
	{ "r15s", FALSE }, { "pg", FALSE },
};

static void
rusage_block_free(gpointer data)
{
	RusageBlock *b = data;

	for (guint i = 0; i < b->items->len; i++)
		g_free(g_array_index(b->items, RusageItem, i).name);
	g_array_free(b->items, TRUE);
	g_free(b);
}

void
bs_resreq_free(BsResReq *rr)
{
	if (rr == NULL || !g_atomic_int_dec_and_test(&rr->ref))
		return;
	rr_expr_free(rr->select);
	if (rr->order != NULL) {
		for (guint i = 0; i < rr->order->len; i++)
			g_free(g_array_index(rr->order, OrderKey, i).name);
		g_array_free(rr->order, TRUE);
	}
	g_ptr_array_free(rr->rusage, TRUE);
	g_strfreev(rr->same);
	g_free(rr->cu);
	g_free(rr->affinity);
	g_free(rr);
}

BsResReq *
bs_resreq_ref(BsResReq *rr)
{
	g_atomic_int_inc(&rr->ref);
	return rr;
}

/* ------------------------------------------------------------------ */
/* Section parsers: each starts after '[' and stops before ']'. */

static char *
ident_dup(const RrParser *p, const RrTok *t)
{
	return g_strndup(p->text + t->start, t->end - t->start);
}

static gboolean
expect_ident(RrParser *p, RrTok *t, const char *what)
{
	if (!rr_next(p, t))
		return FALSE;
	if (t->kind != RR_T_IDENT)
		return rr_fail(p, t->start + 1, "expected %s", what);
	return TRUE;
}

static gboolean
parse_order(RrParser *p, BsResReq *rr)
{
	RrTok t;

	/* An order[] of a later string adds its keys after the earlier
	 * ones: the earlier string's keys sort first. */
	if (rr->order == NULL)
		rr->order = g_array_new(FALSE, FALSE, sizeof(OrderKey));
	do {
		OrderKey k = { NULL, FALSE };
		gboolean dup = FALSE;

		rr_peek(p, &t);
		if (t.kind == RR_T_OP && t.op == RR_OP_SUB) {
			k.descending = TRUE;
			rr_next(p, &t);
		}
		if (!expect_ident(p, &t, "a load index name in order[]"))
			return FALSE;
		k.name = ident_dup(p, &t);
		for (guint i = 0; i < rr->order->len; i++)
			dup = dup || strcmp(g_array_index(rr->order, OrderKey,
			    i).name, k.name) == 0;
		if (dup)
			g_free(k.name);
		else
			g_array_append_val(rr->order, k);
		rr_peek(p, &t);
	} while (t.kind == RR_T_COLON && rr_next(p, &t));
	return TRUE;
}

static gboolean
parse_same(RrParser *p, BsResReq *rr)
{
	GPtrArray *names = g_ptr_array_new();
	RrTok t;
	gboolean ok = TRUE;

	/* A later string's same[] adds its names: all must be the same. */
	for (char **n = rr->same; n != NULL && *n != NULL; n++)
		g_ptr_array_add(names, *n);
	g_free(rr->same);
	rr->same = NULL;
	do {
		char *name;

		if (!(ok = expect_ident(p, &t, "a resource name in same[]")))
			break;
		name = ident_dup(p, &t);
		for (guint i = 0; name != NULL && i < names->len; i++)
			if (strcmp(names->pdata[i], name) == 0)
				g_clear_pointer(&name, g_free);
		if (name != NULL)
			g_ptr_array_add(names, name);
		rr_peek(p, &t);
	} while (t.kind == RR_T_COLON && rr_next(p, &t));
	g_ptr_array_add(names, NULL);
	rr->same = (char **)g_ptr_array_free(names, FALSE);
	return ok;
}

/* A positive integer, or -1 when allow_minus_one (span[hosts=-1]). */
static gboolean
parse_span_int(RrParser *p, int *out, gboolean allow_minus_one)
{
	RrTok t;
	gboolean neg = FALSE;

	rr_next(p, &t);
	if (t.kind == RR_T_OP && t.op == RR_OP_SUB && allow_minus_one) {
		neg = TRUE;
		rr_next(p, &t);
	}
	if (t.kind != RR_T_NUM || t.num != floor(t.num) || t.num < 1 ||
	    t.num > G_MAXINT || (neg && t.num != 1))
		return rr_fail(p, t.start + 1, "expected a positive whole number in span[]");
	*out = neg ? -1 : (int)t.num;
	return TRUE;
}

static gboolean
parse_span_value(RrParser *p, const RrTok *key, int *hosts, int *ptile,
    int *block)
{
	RrTok t;

	if (!rr_next(p, &t))
		return FALSE;
	if (t.kind != RR_T_OP || t.op != RR_OP_EQ || p->text[t.start + 1] == '=')
		return rr_fail(p, t.start + 1, "expected '=' after '%.*s'",
		    (int)(key->end - key->start), p->text + key->start);
	if (rr_tok_is(p, key, "hosts"))
		return parse_span_int(p, hosts, TRUE);
	if (rr_tok_is(p, key, "block"))
		return parse_span_int(p, block, FALSE);
	rr_peek(p, &t);
	/* ptile=! or, quoted against the shell, ptile='!' */
	if ((t.kind == RR_T_OP && t.op == RR_OP_NOT) ||
	    (t.kind == RR_T_STR && t.end - t.start == 3 &&
	    p->text[t.start + 1] == '!')) {
		rr_next(p, &t);
		*ptile = BS_RESREQ_PTILE_ALL;
		return TRUE;
	}
	return parse_span_int(p, ptile, FALSE);
}

/* A span[] of a later string must say what the earlier one said: two
 * different spans cannot both hold. */
static gboolean
parse_span(RrParser *p, BsResReq *rr)
{
	RrTok key;
	int hosts = 0, ptile = 0, block = 0;
	gsize col = p->pos + 1;

	if (!expect_ident(p, &key, "hosts=, ptile= or block= in span[]"))
		return FALSE;
	if (!rr_tok_is(p, &key, "hosts") && !rr_tok_is(p, &key, "ptile") &&
	    !rr_tok_is(p, &key, "block"))
		return rr_fail(p, key.start + 1,
		    "span[] takes hosts=, ptile= or block=, not '%.*s'",
		    (int)(key.end - key.start), p->text + key.start);
	if (!parse_span_value(p, &key, &hosts, &ptile, &block))
		return FALSE;
	if ((rr->seen & SEC_SPAN) && (hosts != rr->span_hosts ||
	    ptile != rr->span_ptile || block != rr->span_block))
		return rr_fail(p, col, "span[] conflicts with the span[] of an "
		    "earlier -R string; a job has one span");
	rr->span_hosts = hosts;
	rr->span_ptile = ptile;
	rr->span_block = block;
	return TRUE;
}

/* cu[] and affinity[]: accepted for LSF scripts, kept as written, and not
 * acted on (see bsub(1)).  The text runs to the closing ']'. */
static gboolean
parse_kept(RrParser *p, char **field, const char *name)
{
	gsize start = p->pos, end = start;
	char *text;

	while (p->text[end] != '\0' && p->text[end] != ']' &&
	    p->text[end] != '[')
		end++;
	if (p->text[end] != ']')
		return rr_fail(p, end + 1, p->text[end] == '[' ?
		    "unexpected '[' in %s[]" : "missing ']' in %s[]", name);
	text = g_strstrip(g_strndup(p->text + start, end - start));
	for (const char *c = text; *c; c++)
		if (!g_ascii_isprint(*c)) {
			g_free(text);
			return rr_fail(p, start + 1, "unexpected byte in %s[]", name);
		}
	if (*field != NULL && strcmp(*field, text) != 0) {
		g_free(text);
		return rr_fail(p, start + 1, "%s[] conflicts with the %s[] of "
		    "an earlier -R string", name, name);
	}
	g_free(*field);
	*field = text;
	p->pos = end;
	return TRUE;
}

static gboolean
parse_cu(RrParser *p, BsResReq *rr)
{
	return parse_kept(p, &rr->cu, "cu");
}

static gboolean
parse_affinity(RrParser *p, BsResReq *rr)
{
	return parse_kept(p, &rr->affinity, "affinity");
}

/* The multiplier that turns a duration's unit into minutes. */
static gboolean
minutes_factor(const char *u, gsize len, double *f)
{
	static const struct { const char *u; double f; } minutes[] = {
		{ "m", 1 }, { "h", 60 }, { "s", 1.0 / 60 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(minutes); i++)
		if (strlen(minutes[i].u) == len &&
		    g_ascii_strncasecmp(minutes[i].u, u, len) == 0) {
			*f = minutes[i].f;
			return TRUE;
		}
	return FALSE;
}

static gboolean
is_size_resource(const RrParser *p, const RrTok *key)
{
	return rr_tok_is(p, key, "mem") || rr_tok_is(p, key, "swp") ||
	    rr_tok_is(p, key, "tmp");
}

/* name=value with an optional unit glued to the number: a memory unit
 * makes it a size in MB; mem, swp and tmp are sizes with no unit too. */
static gboolean
parse_rusage_value(RrParser *p, const RrTok *key, double *value,
    gboolean *size)
{
	RrTok t;
	gboolean duration = rr_tok_is(p, key, "duration");
	double f = 1;
	gsize u;

	if (!rr_next(p, &t))
		return FALSE;
	if (t.kind == RR_T_LPAREN)
		return rr_fail(p, t.start + 1,
		    "multi-phase rusage[] values are not supported");
	if (t.kind != RR_T_NUM || !isfinite(t.num) || t.num > 1e15)
		return rr_fail(p, t.start + 1, "expected a number after '%.*s='",
		    (int)(key->end - key->start), p->text + key->start);
	for (u = t.end; g_ascii_isalpha(p->text[u]); u++)
		;
	*size = FALSE;
	if (u > t.end && (duration ?
	    !minutes_factor(p->text + t.end, u - t.end, &f) :
	    rr_mem_unit_at(p->text, t.end, &f) != u - t.end))
		return rr_fail(p, t.end + 1, "unknown unit '%.*s'",
		    (int)(u - t.end), p->text + t.end);
	if (!duration && (u > t.end || is_size_resource(p, key))) {
		*size = TRUE;
		if (u == t.end)
			f = p->mem_scale;
	}
	/* The bound holds for the value as stored (a size in MB), so the
	 * string printed back from it parses again. */
	if (t.num * f > 1e15)
		return rr_fail(p, t.start + 1, "'%.*s=' value out of range",
		    (int)(key->end - key->start), p->text + key->start);
	p->pos = u;
	*value = t.num * f;
	return TRUE;
}

static gboolean
rusage_reserved(const BsResReq *rr, const RusageBlock *cur, const char *name)
{
	for (guint b = rr->blocks0; b <= rr->rusage->len; b++) {
		const RusageBlock *blk = b < rr->rusage->len ?
		    g_ptr_array_index(rr->rusage, b) : cur;

		for (guint i = 0; i < blk->items->len; i++)
			if (strcmp(g_array_index(blk->items, RusageItem, i).name, name) == 0)
				return TRUE;
	}
	return FALSE;
}

/* A resource an earlier -R string reserved is reserved as the later one
 * says: its item leaves the earlier block (and an emptied block goes). */
static void
rusage_forget(BsResReq *rr, const char *name)
{
	for (guint b = 0; b < rr->blocks0; b++) {
		RusageBlock *blk = g_ptr_array_index(rr->rusage, b);

		for (guint i = 0; i < blk->items->len; i++) {
			RusageItem *it = &g_array_index(blk->items, RusageItem, i);

			if (strcmp(it->name, name) != 0)
				continue;
			g_free(it->name);
			g_array_remove_index(blk->items, i);
			if (blk->items->len == 0) {
				g_ptr_array_remove_index(rr->rusage, b);
				rr->blocks0--;
			}
			return;
		}
	}
}

/* One item of a block: resource=value, duration=N or decay=0|1. */
static gboolean
parse_rusage_item(RrParser *p, BsResReq *rr, RusageBlock *blk)
{
	RrTok key, t;
	RusageItem it;
	double v = 0;
	gboolean is_duration, is_decay;

	if (!expect_ident(p, &key, "a resource name in rusage[]"))
		return FALSE;
	is_duration = rr_tok_is(p, &key, "duration");
	is_decay = rr_tok_is(p, &key, "decay");
	if (!rr_next(p, &t))
		return FALSE;
	if (t.kind != RR_T_OP || t.op != RR_OP_EQ || p->text[t.start + 1] == '=')
		return rr_fail(p, t.start + 1, "expected '=' after '%.*s'",
		    (int)(key.end - key.start), p->text + key.start);
	if (!parse_rusage_value(p, &key, &v, &it.size))
		return FALSE;
	if ((is_duration || is_decay) && blk->items->len == 0)
		return rr_fail(p, key.start + 1, "%s= must follow a resource",
		    is_duration ? "duration" : "decay");
	if ((is_duration && blk->duration >= 0) || (is_decay && blk->decay >= 0))
		return rr_fail(p, key.start + 1, "%s= given twice in one block",
		    is_duration ? "duration" : "decay");
	if (is_duration) {
		if (v > G_MAXINT)
			return rr_fail(p, key.start + 1, "duration= is too long");
		blk->duration = (int)ceil(v);
		return TRUE;
	}
	if (is_decay) {
		if (v != 0 && v != 1)
			return rr_fail(p, key.start + 1, "decay= must be 0 or 1");
		blk->decay = (int)v;
		return TRUE;
	}
	it.name = ident_dup(p, &key);
	if (rusage_reserved(rr, blk, it.name)) {
		rr_fail(p, key.start + 1, "'%s' is reserved twice in rusage[]", it.name);
		g_free(it.name);
		return FALSE;
	}
	rusage_forget(rr, it.name);
	it.value = v;
	g_array_append_val(blk->items, it);
	return TRUE;
}

static gboolean
parse_rusage(RrParser *p, BsResReq *rr)
{
	RrTok t;

	do {
		RusageBlock *blk = g_new0(RusageBlock, 1);

		blk->items = g_array_new(FALSE, FALSE, sizeof(RusageItem));
		blk->duration = blk->decay = -1;
		do {
			if (!parse_rusage_item(p, rr, blk)) {
				rusage_block_free(blk);
				return FALSE;
			}
			rr_peek(p, &t);
		} while (t.kind == RR_T_COLON && rr_next(p, &t));
		g_ptr_array_add(rr->rusage, blk);
		if (t.kind == RR_T_OP && t.op == RR_OP_OR)
			return rr_fail(p, t.start + 1,
			    "alternative rusage[] requirements (||) are not supported");
	} while (t.kind == RR_T_COMMA && rr_next(p, &t));
	return TRUE;
}

/* ------------------------------------------------------------------ */
/* The string as a whole */

static gboolean
parse_select(RrParser *p, BsResReq *rr, const RrTok *open)
{
	RrExpr *e;
	RrTok t;

	rr_peek(p, &t);
	if (open != NULL && t.kind == RR_T_RBRACKET)
		return rr_fail(p, open->start + 1, "expected a value after '['");
	if ((e = rr_expr_parse(p)) == NULL)
		return FALSE;
	rr->select = rr->select ? rr_expr_and(rr->select, e) : e;
	return TRUE;
}

typedef gboolean (*SectionFn)(RrParser *p, BsResReq *rr);

static const struct {
	const char *name;
	guint bit;
	SectionFn parse;
} sections[] = {
	{ "order", SEC_ORDER, parse_order },
	{ "rusage", SEC_RUSAGE, parse_rusage },
	{ "span", SEC_SPAN, parse_span },
	{ "same", SEC_SAME, parse_same },
	{ "cu", SEC_CU, parse_cu },
	{ "affinity", SEC_AFFINITY, parse_affinity },
};

/* name[ ... ]: the name token has been read, and '[' follows. */
static gboolean
parse_section(RrParser *p, BsResReq *rr, const RrTok *name)
{
	RrTok open, close;
	gsize i;
	gboolean ok;

	rr_next(p, &open);
	if (rr_tok_is(p, name, "select")) {
		ok = parse_select(p, rr, &open);
	} else {
		for (i = 0; i < G_N_ELEMENTS(sections); i++)
			if (rr_tok_is(p, name, sections[i].name))
				break;
		if (i == G_N_ELEMENTS(sections))
			return rr_fail(p, name->start + 1, "unknown section '%.*s[]'",
			    (int)(name->end - name->start), p->text + name->start);
		if (rr->seen_text & sections[i].bit)
			return rr_fail(p, name->start + 1, "%s[] given twice",
			    sections[i].name);
		rr->seen_text |= sections[i].bit;
		ok = sections[i].parse(p, rr);
		rr->seen |= sections[i].bit;
	}
	if (!ok)
		return FALSE;
	rr_peek(p, &close);
	if (close.kind == RR_T_END)
		return rr_fail(p, open.start + 1, "missing ']' for this '['");
	if (close.kind != RR_T_RBRACKET) {
		char *what = rr_tok_text(p, &close);

		if (rr_next(p, &close))
			rr_fail(p, close.start + 1, "unexpected %s in %.*s[]", what,
			    (int)(name->end - name->start), p->text + name->start);
		g_free(what);
		return FALSE;
	}
	rr_next(p, &close);
	return TRUE;
}

static gboolean
parse_all(RrParser *p, BsResReq *rr)
{
	RrTok t, la;
	gboolean first = TRUE;

	for (;; first = FALSE) {
		rr_peek(p, &t);
		if (t.kind == RR_T_END)
			return TRUE;
		if (t.kind == RR_T_IDENT) {
			p->pos = t.end;
			rr_peek(p, &la);
			if (la.kind == RR_T_LBRACKET) {
				if (!parse_section(p, rr, &t))
					return FALSE;
				continue;
			}
			p->pos = t.start;
		}
		if (!first) {
			char *what = rr_tok_text(p, &t);

			if (rr_next(p, &t))
				rr_fail(p, t.start + 1, "unexpected %s", what);
			g_free(what);
			return FALSE;
		}
		/* A leading expression is the select[] section. */
		if (!parse_select(p, rr, NULL))
			return FALSE;
	}
}

static gboolean
parse_into(BsResReq *rr, const char *text, double mem_scale, GError **error)
{
	RrParser p = { .text = text, .mem_scale = mem_scale, .error = error };
	gsize len;

	g_return_val_if_fail(text != NULL, FALSE);
	len = strlen(text);
	if (len > BS_RESREQ_MAX_LEN) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "Resource requirement string too long (%zu bytes, at most %d)",
		    len, BS_RESREQ_MAX_LEN);
		return FALSE;
	}
	rr->seen_text = 0;
	rr->blocks0 = rr->rusage->len;
	return parse_all(&p, rr);
}

/*
 * A string in LSF 10.1's alternative or compound form: every part must
 * parse on its own; the first is parsed into rr (see resreq-forms.c).
 */
static gboolean
parse_text(BsResReq *rr, const char *text, double scale, GError **error)
{
	RrForms f;
	gboolean ok = TRUE;

	if (strlen(text) > BS_RESREQ_MAX_LEN)
		return parse_into(rr, text, scale, error);
	if (!rr_forms_split(text, &f, error))
		return FALSE;
	if (f.parts == NULL)
		return parse_into(rr, text, scale, error);
	for (guint i = 1; ok && i < f.parts->len; i++) {
		BsResReq *alt = g_new0(BsResReq, 1);

		alt->ref = 1;
		alt->rusage = g_ptr_array_new_with_free_func(rusage_block_free);
		ok = parse_into(alt, f.parts->pdata[i], scale, error);
		bs_resreq_free(alt);
	}
	ok = ok && parse_into(rr, f.parts->pdata[0], scale, error);
	if (ok && f.slots > 0) {
		if (rr->compound_slots > 0 && rr->compound_slots != f.slots) {
			g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
			    "bad resource requirement \"%s\": compound "
			    "requirements for %d and %d slots", text,
			    rr->compound_slots, f.slots);
			ok = FALSE;
		}
		rr->compound_slots = f.slots;
	}
	if (ok && f.alternative)
		rr->alternatives = MAX(rr->alternatives, (int)f.parts->len);
	rr_forms_clear(&f);
	return ok;
}

static BsResReq *
resreq_new(BsMemUnit unit)
{
	BsResReq *rr = g_new0(BsResReq, 1);

	rr->ref = 1;
	rr->rusage = g_ptr_array_new_with_free_func(rusage_block_free);
	rr->size_suffix = bs_mem_unit_for_resources(unit) != BS_MEM_MB;
	return rr;
}

static double
mem_scale(BsMemUnit unit)
{
	return (double)bs_mem_unit_kb(bs_mem_unit_for_resources(unit)) / 1024.0;
}

BsResReq *
bs_resreq_parse(const char *text, GError **error)
{
	return bs_resreq_parse_many(&text, 1, BS_MEM_MB, error);
}

BsResReq *
bs_resreq_parse_units(const char *text, BsMemUnit unit, GError **error)
{
	return bs_resreq_parse_many(&text, 1, unit, error);
}

BsResReq *
bs_resreq_parse_many(const char *const *texts, guint n, BsMemUnit unit,
    GError **error)
{
	BsResReq *rr = resreq_new(unit);

	for (guint i = 0; i < n; i++)
		if (!parse_text(rr, texts[i], mem_scale(unit), error)) {
			bs_resreq_free(rr);
			return NULL;
		}
	return rr;
}

/* ------------------------------------------------------------------ */
/* Printing */

static void
append_number(GString *out, double v, gboolean suffix)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(out, rr_format_number(buf, sizeof(buf), v));
	if (suffix)
		g_string_append(out, "MB");
}

static void
print_rusage(const BsResReq *rr, GString *out)
{
	g_string_append(out, " rusage[");
	for (guint b = 0; b < rr->rusage->len; b++) {
		const RusageBlock *blk = g_ptr_array_index(rr->rusage, b);

		if (b > 0)
			g_string_append(out, ", ");
		for (guint i = 0; i < blk->items->len; i++) {
			const RusageItem *it = &g_array_index(blk->items, RusageItem, i);

			g_string_append_printf(out, "%s%s=", i > 0 ? ":" : "", it->name);
			append_number(out, it->value, it->size && rr->size_suffix);
		}
		if (blk->duration >= 0)
			g_string_append_printf(out, ":duration=%d", blk->duration);
		if (blk->decay >= 0)
			g_string_append_printf(out, ":decay=%d", blk->decay);
	}
	g_string_append_c(out, ']');
}

static void
print_sections(const BsResReq *rr, GString *out)
{
	if (rr->order != NULL) {
		g_string_append(out, " order[");
		for (guint i = 0; i < rr->order->len; i++) {
			const OrderKey *k = &g_array_index(rr->order, OrderKey, i);

			g_string_append_printf(out, "%s%s%s", i > 0 ? ":" : "",
			    k->descending ? "-" : "", k->name);
		}
		g_string_append_c(out, ']');
	}
	if (rr->seen & SEC_RUSAGE)
		print_rusage(rr, out);
	if (rr->span_hosts != 0)
		g_string_append_printf(out, " span[hosts=%d]", rr->span_hosts);
	else if (rr->span_ptile == BS_RESREQ_PTILE_ALL)
		g_string_append(out, " span[ptile=!]");
	else if (rr->span_ptile != 0)
		g_string_append_printf(out, " span[ptile=%d]", rr->span_ptile);
	else if (rr->span_block != 0)
		g_string_append_printf(out, " span[block=%d]", rr->span_block);
	if (rr->same != NULL) {
		char *joined = g_strjoinv(":", rr->same);

		g_string_append_printf(out, " same[%s]", joined);
		g_free(joined);
	}
	if (rr->cu != NULL)
		g_string_append_printf(out, " cu[%s]", rr->cu);
	if (rr->affinity != NULL)
		g_string_append_printf(out, " affinity[%s]", rr->affinity);
}

char *
bs_resreq_to_string(const BsResReq *rr)
{
	GString *out = g_string_new(NULL);

	if (rr->select != NULL) {
		g_string_append(out, " select[");
		rr_expr_print(rr->select, rr->size_suffix, out);
		g_string_append_c(out, ']');
	}
	print_sections(rr, out);
	/* Every section starts with a space; drop the first. */
	if (out->len > 0)
		g_string_erase(out, 0, 1);
	return g_string_free(out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Accessors */

gboolean
bs_resreq_select_eval(const BsResReq *rr, BsResLookup lookup,
    void *host_data, GError **error)
{
	gboolean result = TRUE;

	if (rr->select == NULL)
		return TRUE;
	if (!rr_expr_truth(rr->select, lookup, host_data, &result, error))
		return FALSE;
	return result;
}

gboolean
bs_resreq_has_select(const BsResReq *rr)
{
	return rr->select != NULL;
}

guint
bs_resreq_order_len(const BsResReq *rr)
{
	return rr->order ? rr->order->len : G_N_ELEMENTS(default_order);
}

BsResOrderKey
bs_resreq_order_key(const BsResReq *rr, guint i)
{
	const OrderKey *k;

	g_return_val_if_fail(i < bs_resreq_order_len(rr), default_order[0]);
	if (rr->order == NULL)
		return default_order[i];
	k = &g_array_index(rr->order, OrderKey, i);
	return (BsResOrderKey){ k->name, k->descending };
}

/* The block that reserves name, and the item in it. */
static const RusageBlock *
rusage_find(const BsResReq *rr, const char *name, const RusageItem **item)
{
	for (guint b = 0; b < rr->rusage->len; b++) {
		const RusageBlock *blk = g_ptr_array_index(rr->rusage, b);

		for (guint i = 0; i < blk->items->len; i++) {
			*item = &g_array_index(blk->items, RusageItem, i);
			if (strcmp((*item)->name, name) == 0)
				return blk;
		}
	}
	return NULL;
}

double
bs_resreq_rusage(const BsResReq *rr, const char *name)
{
	const RusageItem *it;

	return rusage_find(rr, name, &it) ? it->value : 0;
}

double
bs_resreq_rusage_mem_mb(const BsResReq *rr)
{
	return bs_resreq_rusage(rr, "mem");
}

int
bs_resreq_rusage_duration(const BsResReq *rr, const char *name)
{
	const RusageItem *it;
	const RusageBlock *blk = rusage_find(rr, name, &it);

	return blk ? blk->duration : -1;
}

gboolean
bs_resreq_rusage_decay(const BsResReq *rr, const char *name)
{
	const RusageItem *it;
	const RusageBlock *blk = rusage_find(rr, name, &it);

	return blk != NULL && blk->decay == 1;
}

int
bs_resreq_span_hosts(const BsResReq *rr)
{
	return rr->span_hosts;
}

int
bs_resreq_span_ptile(const BsResReq *rr)
{
	return rr->span_ptile;
}

int
bs_resreq_span_block(const BsResReq *rr)
{
	return rr->span_block;
}

const char *const *
bs_resreq_same(const BsResReq *rr)
{
	return (const char *const *)rr->same;
}

int
bs_resreq_compound_slots(const BsResReq *rr)
{
	return rr->compound_slots;
}

int
bs_resreq_alternatives(const BsResReq *rr)
{
	return rr->alternatives;
}
