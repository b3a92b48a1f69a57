/*
 * An arena for unpacked replies: protobuf-c asks its allocator for a
 * block per message, string and repeated field, a dozen per job of a
 * bjobs listing.  The arena hands them out of large chunks and frees them
 * all at once, so a million-job listing costs a few hundred mallocs, not
 * ten million.  Its free does nothing: what is unpacked into the arena
 * lives until lsb_arena_free.
 */
#ifndef BASALT_API_ARENA_H
#define BASALT_API_ARENA_H

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

typedef struct LsbArena LsbArena;

LsbArena *lsb_arena_new(void);
/* The allocator to pass to protobuf-c; valid while the arena is. */
ProtobufCAllocator *lsb_arena_allocator(LsbArena *a);
/* Every block the arena gave, and the arena. */
void lsb_arena_free(LsbArena *a);

#endif
