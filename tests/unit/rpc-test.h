/*
 * Shared by the lib/rpc suites: a server running in its own thread and
 * GMainContext (so tests can use the blocking client and raw sockets
 * straight from the test thread), a thread-safe log capture to assert on
 * logged reasons, and raw-socket helpers for playing a bad peer.
 * All waits take a deadline; nothing sleeps for a fixed time.
 */
#ifndef BS_TEST_RPC_TEST_H
#define BS_TEST_RPC_TEST_H

#include <protobuf-c/protobuf-c.h>
#include <stdint.h>
#include <stdlib.h>

#include "batch.pb-c.h"
#include "host.pb-c.h"

#include "rpc/client.h"
#include "rpc/rpc.h"

typedef struct {
	GMainContext *ctx;
	GMainLoop *loop;
	GThread *thread;
	BsRpcServer *srv;
	char *dir;
	char *path;
	guint16 port;
} TestServer;

/* The BatchService the test server offers to ROLE_CLIENT (see rpc-test.c). */
extern Basalt__BatchService_Service test_batch_service;
extern Basalt__HostService_Service test_host_service;

/* When set, Submit raises the server's output barrier to this value. */
extern BsRpcServer *test_gate_server;
extern guint64 test_submit_barrier;

/* Options with test-friendly limits; tweak before ts_start(). */
void ts_options(BsRpcServerOptions *opts);
void ts_start(TestServer *ts, const BsRpcServerOptions *opts);
void ts_stop(TestServer *ts);
/* Run fn(data) on the server thread and wait for it. */
void ts_run(TestServer *ts, GSourceFunc fn, void *data);
guint ts_n_connections(TestServer *ts);

void log_capture_start(void);
void log_capture_stop(void);
guint log_count(const char *substr);
/* The number just before the first occurrence of substr, or -1. */
gint64 log_number_before(const char *substr);
/* Wait until substr was logged at least count times. */
gboolean log_wait(const char *substr, guint count, guint timeout_ms);

/* Raw peers. */
int raw_connect_unix(const char *path);
int raw_connect_tcp(guint16 port);
void raw_send(int fd, const void *data, gsize len);
void raw_send_hello(int fd, const char *magic, guint32 version, int role);
void raw_send_request(int fd, guint64 id, guint32 method,
    const ProtobufCMessage *body);
/* Next envelope, NULL on EOF/reset/timeout. */
Basalt__Envelope *raw_recv(int fd, guint timeout_ms);
/* TRUE once the peer closed the connection (EOF or reset). */
gboolean raw_wait_closed(int fd, guint timeout_ms);
/* A hello as ROLE_CLIENT and its accepting reply. */
void raw_handshake(int fd);

/* Submit through the generated stub; returns the reply's queue field. */
char *submit_via_stub(BsClient *c, guint64 *job_id);

/* Iterate ctx until *flag or the deadline. */
gboolean iterate_until(GMainContext *ctx, const gboolean *flag,
    guint timeout_ms);

#endif
