/*
 * The one place cmd/ includes the generated protobuf headers.
 *
 * FIXME(proto): `rpc Switch` in proto/batch.proto makes protoc-c emit a
 * struct member named `switch`, a C keyword, so batch.pb-c.h does not
 * compile as generated.  Until the RPC is renamed, the keyword is renamed
 * for the length of that header only; no code here uses the service
 * struct, and its layout does not depend on the member's name.
 */
#ifndef BS_CMD_PB_H
#define BS_CMD_PB_H

#include <protobuf-c/protobuf-c.h>

#include "common.pb-c.h"

#define switch switch_
#include "batch.pb-c.h"
#undef switch

#endif
