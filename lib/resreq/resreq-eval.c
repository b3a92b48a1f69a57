/*
 * Evaluation of a parsed select[] expression against one host.
 *
 * Values have four kinds (BsResValue).  A resource the host does not
 * define makes every comparison with it false (`!=` too) and a boolean
 * test false, so `!bigmem` selects the hosts without the bigmem resource,
 * as in LSF.  Arithmetic with an undefined value is undefined.  && and ||
 * short-circuit, so `defined(x) && x>1` never touches an undefined x.
 * Type errors (a string where a number is needed) and division by zero
 * are errors: the host does not qualify, and the caller can say why.
 */
#include "config.h"

#include <string.h>

#include "resreq/resreq-int.h"
#include "util/error.h"

typedef struct {
	BsResLookup lookup;
	void *host_data;
	GError **error;
} EvalCtx;

static gboolean eval(const RrExpr *e, EvalCtx *c, BsResValue *v);

static gboolean eval_fail(EvalCtx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean
eval_fail(EvalCtx *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(c->error, BS_ERROR, BS_ERROR_FAILED, msg);
	g_free(msg);
	return FALSE;
}

static gboolean
truth(const RrExpr *e, EvalCtx *c, gboolean *out)
{
	BsResValue v;

	if (!eval(e, c, &v))
		return FALSE;
	if (v.kind == BS_RES_STRING)
		return eval_fail(c, "select[]: string value \"%s\" used as a condition",
		    v.str);
	*out = v.kind != BS_RES_UNDEFINED && v.num != 0;
	return TRUE;
}

static gboolean
eval_number(const RrExpr *e, EvalCtx *c, BsResValue *v, const char *op)
{
	if (!eval(e, c, v))
		return FALSE;
	if (v->kind == BS_RES_STRING)
		return eval_fail(c, "select[]: '%s' needs numbers, not strings", op);
	return TRUE;
}

static gboolean
eval_arith(const RrExpr *e, EvalCtx *c, BsResValue *v)
{
	BsResValue l, r;

	if (!eval_number(e->l, c, &l, rr_op_text(e->op)) ||
	    !eval_number(e->r, c, &r, rr_op_text(e->op)))
		return FALSE;
	v->kind = BS_RES_NUMBER;
	if (l.kind == BS_RES_UNDEFINED || r.kind == BS_RES_UNDEFINED) {
		v->kind = BS_RES_UNDEFINED;
		return TRUE;
	}
	switch (e->op) {
	case RR_OP_ADD: v->num = l.num + r.num; break;
	case RR_OP_SUB: v->num = l.num - r.num; break;
	case RR_OP_MUL: v->num = l.num * r.num; break;
	default:
		if (r.num == 0)
			return eval_fail(c, "select[]: division by zero");
		v->num = l.num / r.num;
	}
	return TRUE;
}

static gboolean
compare_result(RrOp op, int cmp)
{
	switch (op) {
	case RR_OP_EQ: return cmp == 0;
	case RR_OP_NE: return cmp != 0;
	case RR_OP_GT: return cmp > 0;
	case RR_OP_GE: return cmp >= 0;
	case RR_OP_LT: return cmp < 0;
	default: return cmp <= 0;
	}
}

typedef enum { PLAIN, ANY, LOCAL } Special;

/*
 * type==any / model==any match every host; type==local / model==local
 * compare with the submission host's value, which the lookup supplies
 * under BS_RESREQ_LOCAL_TYPE / _MODEL.
 */
static Special
eval_special(const RrExpr *e, EvalCtx *c, BsResValue *r)
{
	const char *local;

	if ((e->op != RR_OP_EQ && e->op != RR_OP_NE) ||
	    e->l->kind != RR_E_NAME || e->r->kind != RR_E_STR)
		return PLAIN;
	if (strcmp(e->l->str, "type") == 0)
		local = BS_RESREQ_LOCAL_TYPE;
	else if (strcmp(e->l->str, "model") == 0)
		local = BS_RESREQ_LOCAL_MODEL;
	else
		return PLAIN;
	if (strcmp(e->r->str, "any") == 0)
		return ANY;
	if (strcmp(e->r->str, "local") != 0)
		return PLAIN;
	*r = c->lookup(local, c->host_data);
	return LOCAL;
}

static gboolean
eval_compare(const RrExpr *e, EvalCtx *c, BsResValue *v)
{
	BsResValue l, r;
	Special special = eval_special(e, c, &r);
	int cmp;

	v->kind = BS_RES_BOOLEAN;
	v->num = 0;
	if (special == ANY) {
		/* true for every host, even one that has no type */
		v->num = e->op == RR_OP_EQ;
		return TRUE;
	}
	if (!eval(e->l, c, &l) || (special == PLAIN && !eval(e->r, c, &r)))
		return FALSE;
	if (l.kind == BS_RES_UNDEFINED || r.kind == BS_RES_UNDEFINED ||
	    (r.kind == BS_RES_STRING && r.str == NULL))
		return TRUE;
	if ((l.kind == BS_RES_STRING) != (r.kind == BS_RES_STRING))
		return eval_fail(c, "select[]: cannot compare a number with a string");
	if (l.kind == BS_RES_STRING)
		cmp = strcmp(l.str, r.str);
	else
		cmp = (l.num > r.num) - (l.num < r.num);
	v->num = compare_result(e->op, cmp);
	return TRUE;
}

static gboolean
eval_bin(const RrExpr *e, EvalCtx *c, BsResValue *v)
{
	gboolean t;

	if (e->op == RR_OP_AND || e->op == RR_OP_OR) {
		/* Short-circuit, so `defined(x) && x>1` is safe. */
		if (!truth(e->l, c, &t))
			return FALSE;
		if (t == (e->op == RR_OP_AND) && !truth(e->r, c, &t))
			return FALSE;
		v->kind = BS_RES_BOOLEAN;
		v->num = t;
		return TRUE;
	}
	if (rr_op_is_comparison(e->op))
		return eval_compare(e, c, v);
	return eval_arith(e, c, v);
}

static gboolean
eval(const RrExpr *e, EvalCtx *c, BsResValue *v)
{
	gboolean t;

	memset(v, 0, sizeof(*v));
	switch (e->kind) {
	case RR_E_NUM:
		v->kind = BS_RES_NUMBER;
		v->num = e->num;
		return TRUE;
	case RR_E_STR:
		v->kind = BS_RES_STRING;
		v->str = e->str;
		return TRUE;
	case RR_E_NAME:
		*v = c->lookup(e->str, c->host_data);
		if (v->kind == BS_RES_STRING && v->str == NULL)
			v->kind = BS_RES_UNDEFINED;
		return TRUE;
	case RR_E_DEFINED:
		v->kind = BS_RES_BOOLEAN;
		v->num = c->lookup(e->str, c->host_data).kind != BS_RES_UNDEFINED;
		return TRUE;
	case RR_E_NOT:
		if (!truth(e->l, c, &t))
			return FALSE;
		v->kind = BS_RES_BOOLEAN;
		v->num = !t;
		return TRUE;
	case RR_E_NEG:
		if (!eval_number(e->l, c, v, "-"))
			return FALSE;
		if (v->kind != BS_RES_UNDEFINED)
			v->kind = BS_RES_NUMBER;
		v->num = -v->num;
		return TRUE;
	default:
		return eval_bin(e, c, v);
	}
}

gboolean
rr_expr_truth(const RrExpr *e, BsResLookup lookup, void *host_data,
    gboolean *result, GError **error)
{
	EvalCtx c = { lookup, host_data, error };

	return truth(e, &c, result);
}
