/*
 * Mellanox SwitchX-2 switch ASIC emulation: QMP without the device
 *
 * The schema (switchx2.json) declares query-switchx2,
 * query-switchx2-fdb and query-switchx2-routes in every build; a QEMU
 * built without CONFIG_SWITCHX2 links these instead of switchx2_qmp.c.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-switchx2.h"

static void sx2_qmp_absent(Error **errp)
{
    error_setg(errp, "this QEMU is built without the switchx2 device");
}

SwitchX2InfoList *qmp_query_switchx2(bool has_id, const char *id,
                                     Error **errp)
{
    sx2_qmp_absent(errp);
    return NULL;
}

SwitchX2Fdb *qmp_query_switchx2_fdb(bool has_id, const char *id,
                                    bool has_fid, uint16_t fid, Error **errp)
{
    sx2_qmp_absent(errp);
    return NULL;
}

SwitchX2Routes *qmp_query_switchx2_routes(bool has_id, const char *id,
                                         Error **errp)
{
    sx2_qmp_absent(errp);
    return NULL;
}
