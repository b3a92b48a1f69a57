/*
 * The one place cmd/ includes the generated protobuf headers.
 */
#ifndef BS_CMD_PB_H
#define BS_CMD_PB_H

#include <protobuf-c/protobuf-c.h>

#include "common.pb-c.h"

#include "batch.pb-c.h"

#endif
