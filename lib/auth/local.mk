# lib/auth: MUNGE credentials bound to a connection (hello and reply
# payloads with a nonce) and the host-address check of a registration.
# Only glib and libmunge, so the commands can link it as well as the daemons.
noinst_LIBRARIES += %reldir%/libbsauth.a
%canon_reldir%_libbsauth_a_SOURCES = %reldir%/auth.c %reldir%/auth.h \
	%reldir%/peer.c %reldir%/peer.h
%canon_reldir%_libbsauth_a_CFLAGS = $(AM_CFLAGS) $(MUNGE_CFLAGS)
# peer.c reads BsRpcPeer (a header only): the generated headers come first.
$(%canon_reldir%_libbsauth_a_OBJECTS): $(PROTO_GEN_H)

# What a program links to use lib/auth, in dependency order.
BSAUTH_LIBS = lib/auth/libbsauth.a lib/util/libbsutil.a $(MUNGE_LIBS) \
	$(GLIB_LIBS)
