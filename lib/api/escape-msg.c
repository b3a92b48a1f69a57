/*
 * Control characters escaped in every string of a reply before a command
 * formats it (escape.h): job names, user names, commands, paths and host
 * names come from other users and other hosts, and a newline or a
 * terminal escape in one must not forge a row of bjobs, bhist or bqueues.
 * The walk follows the message's descriptor, so a field added later is
 * covered too; bytes fields (bpeek's output) are left alone.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "util/escape.h"

static void
escape_slot(char **slot, ProtobufCAllocator *allocator)
{
	g_autofree char *safe = NULL;
	gsize len;

	if (*slot == NULL || bs_escape_clean(*slot))
		return;
	safe = bs_escape(*slot);
	len = strlen(safe) + 1;
	/* protobuf-c frees unpacked strings with the allocator they were
	 * unpacked with: free() when there was none. */
	if (allocator == NULL) {
		free(*slot);
		*slot = malloc(len);
	} else {
		allocator->free(allocator->allocator_data, *slot);
		*slot = allocator->alloc(allocator->allocator_data, len);
	}
	if (*slot == NULL)
		abort();
	memcpy(*slot, safe, len);
}

static gboolean
field_present(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f)
{
	const char *base = (const char *)m;

	if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
		return *(const guint32 *)(base + f->quantifier_offset) == f->id;
	return TRUE;
}

void
lsb_escape_message(ProtobufCMessage *m)
{
	lsb_escape_message_in(m, NULL);
}

void
lsb_escape_message_in(ProtobufCMessage *m, ProtobufCAllocator *allocator)
{
	const ProtobufCMessageDescriptor *d;
	char *base = (char *)m;

	if (m == NULL)
		return;
	d = m->descriptor;
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		void *at = base + f->offset;

		if (f->type != PROTOBUF_C_TYPE_STRING && f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (!field_present(m, f))
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(size_t *)(base + f->quantifier_offset);
			void **arr = *(void ***)at;

			for (size_t k = 0; k < n && arr != NULL; k++) {
				if (f->type == PROTOBUF_C_TYPE_STRING)
					escape_slot((char **)&arr[k], allocator);
				else
					lsb_escape_message_in(arr[k], allocator);
			}
		} else if (f->type == PROTOBUF_C_TYPE_STRING) {
			escape_slot((char **)at, allocator);
		} else {
			lsb_escape_message_in(*(ProtobufCMessage **)at, allocator);
		}
	}
}
