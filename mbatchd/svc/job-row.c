/*
 * JobInfo rows packed by hand (job-row.h), in field-number order as
 * protobuf-c packs them; proto3 leaves zero numbers and empty strings out,
 * but not the elements of a repeated field.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/svc/job-row.h"

/* Wire tags: field number << 3 | wire type (0 varint, 2 length-delimited). */
enum {
	T_JOB_ID = 1 << 3,
	T_ARRAY_INDEX = 2 << 3,
	T_USER = 3 << 3 | 2,
	T_STATE = 4 << 3,
	T_QUEUE = 5 << 3 | 2,
	T_FROM_HOST = 6 << 3 | 2,
	T_EXEC_HOSTS = 7 << 3 | 2,
	T_JOB_NAME = 8 << 3 | 2,
	T_SUBMIT_TIME = 9 << 3,
	T_PENDING_REASON = 14 << 3 | 2,
	T_SUSPEND_REASON = 15 << 3 | 2,
};

static gsize
varint_size(guint64 v)
{
	gsize n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static guint8 *
put_varint(guint8 *at, guint64 v)
{
	while (v >= 0x80) {
		*at++ = (guint8)(v | 0x80);
		v >>= 7;
	}
	*at++ = (guint8)v;
	return at;
}

/* A string field, empty or not: tag, length, bytes. */
static gsize
str_size(const char *s)
{
	gsize len = s != NULL ? strlen(s) : 0;

	return 1 + varint_size(len) + len;
}

static guint8 *
put_str(guint8 *at, guint8 tag, const char *s)
{
	gsize len = s != NULL ? strlen(s) : 0;

	*at++ = tag;
	at = put_varint(at, len);
	if (len > 0)
		memcpy(at, s, len);
	return at + len;
}

static gboolean
set(const char *s)
{
	return s != NULL && s[0] != '\0';
}

/* Enums and int64 go out as their two's complement, 10 bytes when
 * negative, as protobuf-c writes them. */
static guint64
signed_wire(gint64 v)
{
	return (guint64)v;
}

gsize
svc_job_row_size(const Basalt__JobInfo *j)
{
	gsize n = 0;

	if (j->job_id != 0)
		n += 1 + varint_size(j->job_id);
	if (j->array_index != 0)
		n += 1 + varint_size(j->array_index);
	if (set(j->user))
		n += str_size(j->user);
	if (j->state != 0)
		n += 1 + varint_size(signed_wire(j->state));
	if (set(j->queue))
		n += str_size(j->queue);
	if (set(j->from_host))
		n += str_size(j->from_host);
	for (size_t i = 0; i < j->n_exec_hosts; i++)
		n += str_size(j->exec_hosts[i]);
	if (set(j->job_name))
		n += str_size(j->job_name);
	if (j->submit_time != 0)
		n += 1 + varint_size(signed_wire(j->submit_time));
	if (set(j->pending_reason))
		n += str_size(j->pending_reason);
	if (set(j->suspend_reason))
		n += str_size(j->suspend_reason);
	return n;
}

void
svc_job_row_pack(const Basalt__JobInfo *j, guint8 *at)
{
	if (j->job_id != 0) {
		*at++ = T_JOB_ID;
		at = put_varint(at, j->job_id);
	}
	if (j->array_index != 0) {
		*at++ = T_ARRAY_INDEX;
		at = put_varint(at, j->array_index);
	}
	if (set(j->user))
		at = put_str(at, T_USER, j->user);
	if (j->state != 0) {
		*at++ = T_STATE;
		at = put_varint(at, signed_wire(j->state));
	}
	if (set(j->queue))
		at = put_str(at, T_QUEUE, j->queue);
	if (set(j->from_host))
		at = put_str(at, T_FROM_HOST, j->from_host);
	for (size_t i = 0; i < j->n_exec_hosts; i++)
		at = put_str(at, T_EXEC_HOSTS, j->exec_hosts[i]);
	if (set(j->job_name))
		at = put_str(at, T_JOB_NAME, j->job_name);
	if (j->submit_time != 0) {
		*at++ = T_SUBMIT_TIME;
		at = put_varint(at, signed_wire(j->submit_time));
	}
	if (set(j->pending_reason))
		at = put_str(at, T_PENDING_REASON, j->pending_reason);
	if (set(j->suspend_reason))
		(void)put_str(at, T_SUSPEND_REASON, j->suspend_reason);
}
