# check suite for lib/iact (the interactive link's frames and payloads)
check_PROGRAMS += %reldir%/check_iact
TESTS += %reldir%/check_iact
%canon_reldir%_check_iact_SOURCES = %reldir%/check_iact.c
%canon_reldir%_check_iact_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_iact_LDADD = $(BSIACT_LIBS) $(TEST_LIBS)
$(%canon_reldir%_check_iact_OBJECTS): $(PROTO_GEN_H)
