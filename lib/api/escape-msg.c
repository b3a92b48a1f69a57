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

/*
 * The string and message fields of a descriptor, found once: a JobInfo
 * has 50 fields and a few of them strings, and a listing has a million
 * JobInfo.  Commands are single-threaded; the plans live until exit.
 */
typedef struct {
	const ProtobufCMessageDescriptor *d;
	GPtrArray *fields;        /* const ProtobufCFieldDescriptor * */
} Plan;

static const Plan *
plan_of(const ProtobufCMessageDescriptor *d)
{
	/* Plan *, each allocated once: a caller keeps its plan while the
	 * walk of a nested message adds another. */
	static GPtrArray *plans;
	static const Plan *last;
	Plan *p;

	if (last != NULL && last->d == d)
		return last;
	if (plans == NULL)
		plans = g_ptr_array_new();
	for (guint i = 0; i < plans->len; i++)
		if (((const Plan *)plans->pdata[i])->d == d)
			return last = plans->pdata[i];
	p = g_new(Plan, 1);
	p->d = d;
	p->fields = g_ptr_array_new();
	for (unsigned i = 0; i < d->n_fields; i++)
		if (d->fields[i].type == PROTOBUF_C_TYPE_STRING ||
		    d->fields[i].type == PROTOBUF_C_TYPE_MESSAGE)
			g_ptr_array_add(p->fields, (gpointer)&d->fields[i]);
	g_ptr_array_add(plans, p);
	return last = p;
}

void
lsb_escape_message_in(ProtobufCMessage *m, ProtobufCAllocator *allocator)
{
	const Plan *plan;
	char *base = (char *)m;

	if (m == NULL)
		return;
	plan = plan_of(m->descriptor);
	for (guint i = 0; i < plan->fields->len; i++) {
		const ProtobufCFieldDescriptor *f = plan->fields->pdata[i];
		void *at = base + f->offset;

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
