/*
 * Mellanox SwitchX-2 switch ASIC emulation: "info switchx2 [id]"
 *
 * A readable summary for people at the monitor, printed from what
 * query-switchx2 and query-switchx2-fdb return.  switchx2.c registers
 * it for the "switchx2" entry scripts/build-qemu.sh adds to
 * hmp-commands-info.hx.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qmp/qdict.h"
#include "qapi/qapi-commands-switchx2.h"
#include "monitor/monitor.h"
#include "monitor/hmp.h"
#include "switchx2.h"

/* How much of the long lists a summary shows */
#define SX2_HMP_VLAN_RANGES     8
#define SX2_HMP_FDB_ENTRIES     16
#define SX2_HMP_FLOOD_ENTRIES   8

static const char *sx2_hmp_stp(SwitchX2StpState st)
{
    switch (st) {
    case SWITCHX2_STP_STATE_FORWARDING:
        return "fwd";
    case SWITCHX2_STP_STATE_LEARNING:
        return "lrn";
    default:
        return "dis";
    }
}

static void sx2_hmp_range(Monitor *mon, unsigned first, unsigned last)
{
    if (first == last) {
        monitor_printf(mon, "%u", first);
    } else {
        monitor_printf(mon, "%u-%u", first, last);
    }
}

/* "1:ieu/fwd 20-21:ie/fwd": VIDs, member flags, STP state */
static void sx2_hmp_vlans(Monitor *mon, SwitchX2VlanRangeList *l)
{
    unsigned n = 0;

    monitor_printf(mon, "      VLANs:%s", l ? "" : " none");
    for (; l && n < SX2_HMP_VLAN_RANGES; l = l->next, n++) {
        SwitchX2VlanRange *r = l->value;

        monitor_printf(mon, " ");
        sx2_hmp_range(mon, r->first, r->last);
        monitor_printf(mon, ":%s%s%s/%s%s", r->ingress ? "i" : "",
                       r->egress ? "e" : "", r->untagged ? "u" : "",
                       sx2_hmp_stp(r->stp), r->learning ? "" : ",nolearn");
    }
    for (n = 0; l; l = l->next) {
        n++;
    }
    if (n) {
        monitor_printf(mon, " ... %u more", n);
    }
    monitor_printf(mon, "\n");
}

static void sx2_hmp_ports(Monitor *mon, SwitchX2PortList *l)
{
    monitor_printf(mon, "  port  sys  %-10s %-8s %-7s %5s %5s %4s %-8s "
                   "%10s %10s %8s %8s\n", "name", "admin", "oper", "speed",
                   "mtu", "pvid", "learning", "rx-frames", "tx-frames",
                   "rx-disc", "tx-disc");
    for (; l; l = l->next) {
        SwitchX2Port *p = l->value;
        SwitchX2PortCounters *c = p->counters;

        monitor_printf(mon, "  %4u %4u  %-10s %-8s %-7s %5u %5u %4u %-8s "
                       "%10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64
                       "\n", p->local_port, p->system_port, p->name,
                       SwitchX2AdminState_str(p->admin_state),
                       SwitchX2OperState_str(p->oper_state), p->speed,
                       p->mtu, p->pvid, SwitchX2LearnMode_str(p->learning),
                       c->rx_frames, c->tx_frames, c->rx_discards,
                       c->tx_discards);
        sx2_hmp_vlans(mon, p->vlans);
    }
}

static void sx2_hmp_cpu(Monitor *mon, SwitchX2CpuCounters *c)
{
    SwitchX2TrapCountersList *l;

    monitor_printf(mon, "  CPU: %" PRIu64 " frames trapped, %" PRIu64
                   " dropped; %" PRIu64 " packets sent, %" PRIu64
                   " of them EMADs\n", c->trapped, c->dropped, c->sent,
                   c->sent_emads);
    for (l = c->traps; l; l = l->next) {
        SwitchX2TrapCounters *t = l->value;

        monitor_printf(mon, "    trap 0x%03x %-16s %10" PRIu64 " trapped %10"
                       PRIu64 " dropped\n", t->trap_id,
                       t->has_name ? t->name : "", t->trapped, t->dropped);
    }
}

static void sx2_hmp_policers(Monitor *mon, SwitchX2PolicerList *l)
{
    for (; l; l = l->next) {
        SwitchX2Policer *p = l->value;
        uint8List *g;

        monitor_printf(mon, "    policer %u: %" PRIu64 " %s/s, burst %"
                       PRIu64 ", %" PRIu64 " dropped, trap groups:", p->pid,
                       p->rate, p->bytes ? "bit" : "packet", p->burst,
                       p->violate_count);
        for (g = p->trap_groups; g; g = g->next) {
            monitor_printf(mon, " %u", g->value);
        }
        monitor_printf(mon, "%s\n", p->trap_groups ? "" : " none");
    }
}

static void sx2_hmp_profile(Monitor *mon, SwitchX2Profile *p)
{
    SwitchX2SwidList *l;

    if (!p->set) {
        monitor_printf(mon, "  profile: not set\n");
        return;
    }
    monitor_printf(mon, "  profile: flood mode %u, %u single + %u per-VID "
                   "flood tables, swids:", p->flood_mode,
                   p->single_flood_tables, p->vid_flood_tables);
    for (l = p->swids; l; l = l->next) {
        monitor_printf(mon, " %u %s", l->value->swid,
                       SwitchX2SwidType_str(l->value->type));
    }
    monitor_printf(mon, "\n");
}

static void sx2_hmp_fdb_entries(Monitor *mon, SwitchX2FdbEntryList *l)
{
    unsigned n = 0;

    for (; l; l = l->next, n++) {
        SwitchX2FdbEntry *e = l->value;

        if (n >= SX2_HMP_FDB_ENTRIES) {
            continue;
        }
        monitor_printf(mon, "    %s  FID %-4u %s %-2u %-7s %s", e->mac,
                       e->fid, e->has_lag ? "LAG " : "port",
                       e->has_lag ? e->lag : e->port,
                       e->dynamic ? "dynamic" : "static",
                       SwitchX2FdbAction_str(e->action));
        if (e->has_age) {
            monitor_printf(mon, " (age %" PRIu64 " s)", e->age);
        }
        monitor_printf(mon, "\n");
    }
    if (n > SX2_HMP_FDB_ENTRIES) {
        monitor_printf(mon, "    ... %u more\n", n - SX2_HMP_FDB_ENTRIES);
    }
}

static void sx2_hmp_port_list(Monitor *mon, uint8List *l)
{
    const char *sep = "";

    for (; l; l = l->next, sep = ",") {
        monitor_printf(mon, "%s%u", sep, l->value);
    }
}

/* "broadcast -> vid table 0 (swid 0): 1 {0,1,2} 20-21 {1,2}" */
static void sx2_hmp_flood(Monitor *mon, SwitchX2Flood *f)
{
    SwitchX2FloodEntryList *l;
    unsigned n = 0;

    monitor_printf(mon, "    %s -> %s table %u", SwitchX2FloodType_str(f->type),
                   SwitchX2FloodTableKind_str(f->table_kind), f->table);
    if (f->has_swid) {
        monitor_printf(mon, " (swid %u)", f->swid);
    } else {
        monitor_printf(mon, " (no swid)");
    }
    monitor_printf(mon, ":%s", f->entries ? "" : " empty");
    for (l = f->entries; l; l = l->next, n++) {
        if (n >= SX2_HMP_FLOOD_ENTRIES) {
            continue;
        }
        monitor_printf(mon, " ");
        if (f->table_kind == SWITCHX2_FLOOD_TABLE_KIND_VID) {
            sx2_hmp_range(mon, l->value->first, l->value->last);
            monitor_printf(mon, " ");
        }
        monitor_printf(mon, "{");
        sx2_hmp_port_list(mon, l->value->ports);
        monitor_printf(mon, "}");
    }
    if (n > SX2_HMP_FLOOD_ENTRIES) {
        monitor_printf(mon, " ... %u more", n - SX2_HMP_FLOOD_ENTRIES);
    }
    monitor_printf(mon, "\n");
}

/* "MIDs (0..6999, 0xd000): 0xd000 {0}" */
static void sx2_hmp_mids(Monitor *mon, SwitchX2Fdb *fdb)
{
    SwitchX2MidList *l;
    unsigned n = 0;

    monitor_printf(mon, "  MIDs (%u + 0xd000):%s", fdb->mid_count,
                   fdb->mids ? "" : " none with members");
    for (l = fdb->mids; l; l = l->next, n++) {
        if (n >= SX2_HMP_FLOOD_ENTRIES) {
            continue;
        }
        monitor_printf(mon, " 0x%x {", l->value->mid);
        sx2_hmp_port_list(mon, l->value->ports);
        monitor_printf(mon, "}");
    }
    if (n > SX2_HMP_FLOOD_ENTRIES) {
        monitor_printf(mon, " ... %u more", n - SX2_HMP_FLOOD_ENTRIES);
    }
    monitor_printf(mon, "\n");
}

static void sx2_hmp_fdb(Monitor *mon, SwitchX2Info *info)
{
    Error *err = NULL;
    SwitchX2Fdb *fdb = qmp_query_switchx2_fdb(true, info->qom_path, false, 0,
                                              &err);
    SwitchX2FloodList *l;

    monitor_printf(mon, "  FDB: %u of %u entries in use, %u dynamic, age "
                   "time %u s; %" PRIu64 " not learned (full), %u "
                   "notifications queued, %" PRIu64 " lost, %u learned "
                   "unanswered, %" PRIu64 " ageing deferred\n",
                   info->fdb_entries, info->fdb_size, info->fdb_dynamic,
                   info->age_time, info->fdb_full_drops,
                   info->fdb_notifications, info->fdb_notifications_lost,
                   info->fdb_learning_outstanding, info->fdb_ageing_deferred);
    if (hmp_handle_error(mon, err)) {
        return;
    }
    sx2_hmp_fdb_entries(mon, fdb->entries);
    monitor_printf(mon, "  flooding:%s\n", fdb->flood ? "" : " none set up");
    for (l = fdb->flood; l; l = l->next) {
        sx2_hmp_flood(mon, l->value);
    }
    sx2_hmp_mids(mon, fdb);
    qapi_free_SwitchX2Fdb(fdb);
}

static void sx2_hmp_device(Monitor *mon, SwitchX2Info *info)
{
    monitor_printf(mon, "switchx2 %s (%s): %u ports, MAC %s, firmware %s, "
                   "PSID %s\n", info->has_id ? info->id : "-",
                   info->qom_path, info->num_ports, info->mac,
                   info->fw_version, info->psid);
    sx2_hmp_profile(mon, info->profile);
    sx2_hmp_cpu(mon, info->cpu);
    sx2_hmp_policers(mon, info->policers);
    sx2_hmp_ports(mon, info->ports);
    sx2_hmp_fdb(mon, info);
}

void sx2_hmp_info(Monitor *mon, const QDict *qdict)
{
    const char *id = qdict_get_try_str(qdict, "id");
    Error *err = NULL;
    SwitchX2InfoList *list = qmp_query_switchx2(id != NULL, id, &err), *l;

    if (hmp_handle_error(mon, err)) {
        return;
    }
    if (!list) {
        monitor_printf(mon, "no switchx2 device\n");
    }
    for (l = list; l; l = l->next) {
        sx2_hmp_device(mon, l->value);
    }
    qapi_free_SwitchX2InfoList(list);
}
