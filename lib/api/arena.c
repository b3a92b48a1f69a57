/*
 * The arena behind bjobs' pages (arena.h).  Blocks come from the current
 * chunk, aligned for any type; a block bigger than a quarter of a chunk
 * gets a chunk of its own, so the current one is not thrown away for it.
 */
#include "config.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>

#include "api/arena.h"

#define CHUNK_BYTES (1u << 20)
#define ALIGN alignof(max_align_t)

struct LsbArena {
	ProtobufCAllocator allocator;
	GPtrArray *chunks;        /* every chunk, freed with the arena */
	guint8 *at;               /* the next free byte of the current chunk */
	gsize left;
};

static void *
arena_alloc(void *data, size_t size)
{
	LsbArena *a = data;
	gsize need = (size + ALIGN - 1) & ~(gsize)(ALIGN - 1);
	void *p;

	if (need == 0)
		need = ALIGN;
	if (need > CHUNK_BYTES / 4) {
		p = g_malloc(need);
		g_ptr_array_add(a->chunks, p);
		return p;
	}
	if (need > a->left) {
		a->at = g_malloc(CHUNK_BYTES);
		a->left = CHUNK_BYTES;
		g_ptr_array_add(a->chunks, a->at);
	}
	p = a->at;
	a->at += need;
	a->left -= need;
	return p;
}

/* Blocks go with the arena. */
static void
arena_block_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

LsbArena *
lsb_arena_new(void)
{
	LsbArena *a = g_new0(LsbArena, 1);

	a->allocator.alloc = arena_alloc;
	a->allocator.free = arena_block_free;
	a->allocator.allocator_data = a;
	a->chunks = g_ptr_array_new_with_free_func(g_free);
	return a;
}

ProtobufCAllocator *
lsb_arena_allocator(LsbArena *a)
{
	return &a->allocator;
}

void
lsb_arena_free(LsbArena *a)
{
	if (a == NULL)
		return;
	g_ptr_array_free(a->chunks, TRUE);
	g_free(a);
}
