# Programs the integration tests run besides the real commands: clients
# that send what the commands would refuse to send.
check_PROGRAMS += %reldir%/bs-rawsubmit
%canon_reldir%_bs_rawsubmit_SOURCES = %reldir%/bs-rawsubmit.c
%canon_reldir%_bs_rawsubmit_LDADD = $(BSAPI_LIBS)
$(%canon_reldir%_bs_rawsubmit_OBJECTS): $(PROTO_GEN_H)
# A job that uses memory, address space, threads or file size on purpose
# (the limit tests t0630-t0649).
check_PROGRAMS += %reldir%/bs-hog
%canon_reldir%_bs_hog_SOURCES = %reldir%/bs-hog.c
%canon_reldir%_bs_hog_LDADD = -lpthread
