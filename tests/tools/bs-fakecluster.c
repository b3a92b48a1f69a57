/*
 * bs-fakecluster: the stranger of the MultiCluster trust tests (t0932): a
 * peer that dials an mbatchd as another cluster's master (ROLE_MASTER)
 * with the real wire protocol, so a test can check who is refused.
 *
 *   bs-fakecluster IP:PORT --name CLUSTER [--cred none|garbage|munge:SOCKET]
 *       [--hello-name NAME] [--master HOST]
 *
 * The transport hello says CLUSTER with the credential (made by the
 * calling user through that munged); ClusterService.Hello then names
 * NAME (default CLUSTER).  Prints one line; exits 0 when the link was
 * accepted, 2 when it was refused, 1 on any other failure.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth/auth.h"
#include "cluster.pb-c.h"
#include "rpc/client.h"
#include "util/error.h"

int
main(int argc, char **argv)
{
	const char *addr = NULL, *name = NULL, *hello_name = NULL;
	const char *cred_opt = "none", *master = "fakehost";
	Basalt__ClusterHelloRequest req = BASALT__CLUSTER_HELLO_REQUEST__INIT;
	Basalt__ClusterHelloReply *r = NULL;
	g_autofree char *host = NULL;
	GBytes *cred = NULL;
	GError *err = NULL;
	BsClientOptions o;
	const char *colon;
	BsClient *c;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--cred") == 0 && i + 1 < argc)
			cred_opt = argv[++i];
		else if (strcmp(argv[i], "--hello-name") == 0 && i + 1 < argc)
			hello_name = argv[++i];
		else if (strcmp(argv[i], "--master") == 0 && i + 1 < argc)
			master = argv[++i];
		else if (addr == NULL)
			addr = argv[i];
		else {
			fprintf(stderr, "bs-fakecluster: bad argument %s\n", argv[i]);
			return 1;
		}
	}
	if (addr == NULL || name == NULL || (colon = strrchr(addr, ':')) == NULL) {
		fprintf(stderr, "usage: bs-fakecluster IP:PORT --name CLUSTER "
		    "[--cred none|garbage|munge:SOCKET] [--hello-name NAME]\n");
		return 1;
	}
	if (strncmp(cred_opt, "munge:", 6) == 0) {
		cred = bs_auth_hello_credential(cred_opt + 6,
		    BASALT__ROLE__ROLE_MASTER, name, NULL, &err);
		if (cred == NULL) {
			fprintf(stderr, "bs-fakecluster: %s\n", err->message);
			return 1;
		}
	} else if (strcmp(cred_opt, "garbage") == 0) {
		cred = g_bytes_new_static("MUNGE:AAAAforgedforgedforged:", 28);
	}
	bs_client_options_init(&o);
	host = g_strndup(addr, (gsize)(colon - addr));
	o.host = host;
	o.port = (guint16)atoi(colon + 1);
	o.role = BASALT__ROLE__ROLE_MASTER;
	o.name = name;
	o.timeout_ms = 10000;
	if (cred != NULL)
		o.credential = g_bytes_get_data(cred, &o.credential_len);
	c = bs_client_connect(&o, &err);
	if (cred != NULL)
		g_bytes_unref(cred);
	if (c == NULL) {
		printf("refused: %s\n", err->message);
		return err->code == BS_ERROR_REFUSED ? 2 : 1;
	}
	req.cluster_name = (char *)(hello_name != NULL ? hello_name : name);
	req.master_host = (char *)master;
	if (!bs_client_call(c, &basalt__cluster_service__descriptor, 0,
	    &req.base, (ProtobufCMessage **)&r, &err)) {
		printf("hello failed: %s\n", err->message);
		bs_client_free(c);
		return 2;
	}
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		printf("refused: %s\n", r->error->message);
		basalt__cluster_hello_reply__free_unpacked(r, NULL);
		bs_client_free(c);
		return 2;
	}
	printf("accepted by cluster %s\n", r->cluster_name);
	basalt__cluster_hello_reply__free_unpacked(r, NULL);
	bs_client_free(c);
	return 0;
}
