/*
 * Open addressing over flat arrays, as the pair counters (count.c): a
 * pass looks shapes up for most of its pending jobs and forgets them all
 * after each preemption, so a lookup is a hash and a probe or two, not
 * calls through GHashTable's callbacks, an insert allocates nothing once
 * the arrays have grown, and forgetting is one stamp increment: a slot is
 * in use only while it carries the table's current stamp.  The slots hold
 * a shape's hash and its index into dense arrays of shapes and values, so
 * a probe compares one integer and the slots stay small.
 */
#include "config.h"

#include <string.h>

#include "shape-memo.h"

struct ShapeMemo {
	gsize value_size;
	guint mask;               /* slots - 1, a power of two less one */
	guint stamp;              /* of the slots in use; never 0 */
	guint *slot_stamp;        /* [slots] */
	guint *slot_hash;         /* [slots]: the shape's hash */
	guint *slot_idx;          /* [slots]: the shape's index in keys */
	guint n;                  /* shapes kept: keys[0, n) */
	guint cap;                /* room in keys and values */
	Shape *keys;              /* [cap] */
	guchar *values;           /* [cap * value_size], NULL for a set */
};

/* Queue and user, the fields that vary most, side by side so no two of
 * their pairs collide before the mix; the others folded in by odd
 * multipliers. */
static guint
shape_hash(const Shape *s)
{
	guint64 x = ((guint64)s->queue << 32 | s->user) ^
	    (guint64)(guint)s->min_slots << 20 ^ (guint64)(guint)s->ptile << 44 ^
	    (guint64)s->one_host << 62 ^ (guint64)s->exclusive << 63 ^
	    (guint64)s->project * G_GUINT64_CONSTANT(0xC2B2AE3D27D4EB4F) ^
	    (guint64)s->app * G_GUINT64_CONSTANT(0x165667B19E3779F9) ^
	    (guint64)s->run_limit * G_GUINT64_CONSTANT(0x27D4EB2F165667C5) ^
	    (guint64)s->consumer * G_GUINT64_CONSTANT(0x85EBCA77C2B2AE63);

	/* Multiplicative mix, top bits: nearby shapes spread over the slots. */
	return (guint)((x * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32);
}

static gboolean
shape_equal(const Shape *x, const Shape *y)
{
	return x->queue == y->queue && x->user == y->user &&
	    x->min_slots == y->min_slots && x->ptile == y->ptile &&
	    x->one_host == y->one_host && x->project == y->project &&
	    x->app == y->app && x->run_limit == y->run_limit &&
	    x->exclusive == y->exclusive && x->consumer == y->consumer;
}

static void
alloc_slots(ShapeMemo *m, guint slots)
{
	m->mask = slots - 1;
	m->slot_stamp = g_new0(guint, slots);
	m->slot_hash = g_new(guint, slots);
	m->slot_idx = g_new(guint, slots);
}

ShapeMemo *
shape_memo_new(gsize value_size)
{
	ShapeMemo *m = g_new0(ShapeMemo, 1);

	m->value_size = value_size;
	m->stamp = 1;
	alloc_slots(m, 64);
	return m;
}

void
shape_memo_free(ShapeMemo *m)
{
	if (m == NULL)
		return;
	g_free(m->slot_stamp);
	g_free(m->slot_hash);
	g_free(m->slot_idx);
	g_free(m->keys);
	g_free(m->values);
	g_free(m);
}

/* The slot holding k (of hash h), or the free slot where it would go. */
static guint
find(const ShapeMemo *m, const Shape *k, guint h)
{
	guint i = h & m->mask;

	while (m->slot_stamp[i] == m->stamp && (m->slot_hash[i] != h ||
	    !shape_equal(&m->keys[m->slot_idx[i]], k)))
		i = (i + 1) & m->mask;
	return i;
}

gpointer
shape_memo_lookup(const ShapeMemo *m, const Shape *k)
{
	guint i = find(m, k, shape_hash(k));

	if (m->slot_stamp[i] != m->stamp)
		return NULL;
	return m->values != NULL ?
	    m->values + (gsize)m->slot_idx[i] * m->value_size :
	    (gpointer)&m->keys[m->slot_idx[i]];
}

/* Twice the slots, the shapes kept placed again. */
static void
grow(ShapeMemo *m)
{
	g_free(m->slot_stamp);
	g_free(m->slot_hash);
	g_free(m->slot_idx);
	alloc_slots(m, (m->mask + 1) * 2);
	m->stamp = 1;
	for (guint x = 0; x < m->n; x++) {
		guint h = shape_hash(&m->keys[x]), i = find(m, &m->keys[x], h);

		m->slot_stamp[i] = m->stamp;
		m->slot_hash[i] = h;
		m->slot_idx[i] = x;
	}
}

void
shape_memo_insert(ShapeMemo *m, const Shape *k, gconstpointer value)
{
	guint h = shape_hash(k), i = find(m, k, h), x;

	if (m->slot_stamp[i] == m->stamp) {
		x = m->slot_idx[i];
	} else {
		/* A new shape: keep the slots at most half full. */
		if ((m->n + 1) * 2 > m->mask + 1) {
			grow(m);
			i = find(m, k, h);
		}
		if (m->n == m->cap) {
			m->cap = MAX(m->cap * 2, 32u);
			m->keys = g_renew(Shape, m->keys, m->cap);
			if (m->value_size > 0)
				m->values = g_realloc_n(m->values, m->cap,
				    m->value_size);
		}
		x = m->n++;
		m->slot_stamp[i] = m->stamp;
		m->slot_hash[i] = h;
		m->slot_idx[i] = x;
		m->keys[x] = *k;
	}
	if (m->values != NULL)
		memcpy(m->values + (gsize)x * m->value_size, value, m->value_size);
}

void
shape_memo_clear(ShapeMemo *m)
{
	if (m == NULL)
		return;
	m->n = 0;
	if (++m->stamp == 0) {
		/* Wrapped: no slot may carry the new stamp from before. */
		memset(m->slot_stamp, 0, (m->mask + 1) * sizeof *m->slot_stamp);
		m->stamp = 1;
	}
}
