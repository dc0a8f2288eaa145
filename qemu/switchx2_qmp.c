/*
 * Mellanox SwitchX-2 switch ASIC emulation: the ASIC seen from the host
 *
 * QMP query-switchx2, query-switchx2-fdb and query-switchx2-routes
 * (schema: switchx2.json): ports, VLAN membership, STP, counters, the
 * CPU path, the FDB, the flood tables and the router, read from the
 * model's state and never changing it (activity bits included).
 * Whatever the guest wrote, every value is mapped onto the schema's
 * types here: an enum the schema lacks would abort the QMP visitor.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-switchx2.h"
#include "hw/pci/pci.h"
#include "net/net.h"
#include "qemu/timer.h"
#include "switchx2.h"
#include "trace.h"

/*
 * Devices
 */
static int sx2_qmp_collect(Object *obj, void *opaque)
{
    GSList **list = opaque;
    Object *s = object_dynamic_cast(obj, TYPE_SWITCHX2);

    if (s && DEVICE(s)->realized) {
        *list = g_slist_prepend(*list, s);
    }
    return 0;
}

/* PCI address order: the order a guest enumerates the devices in */
static gint sx2_qmp_pci_order(gconstpointer a, gconstpointer b)
{
    PCIDevice *da = PCI_DEVICE(a), *db = PCI_DEVICE(b);
    int ka = pci_dev_bus_num(da) << 8 | da->devfn;
    int kb = pci_dev_bus_num(db) << 8 | db->devfn;

    return ka - kb;
}

/* All realized switchx2 devices; free with g_slist_free() */
static GSList *sx2_qmp_devices(void)
{
    GSList *list = NULL;

    object_child_foreach_recursive(object_get_root(), sx2_qmp_collect,
                                   &list);
    return g_slist_sort(list, sx2_qmp_pci_order);
}

static bool sx2_qmp_matches(SwitchX2State *s, const char *id)
{
    g_autofree char *path = object_get_canonical_path(OBJECT(s));

    return !g_strcmp0(DEVICE(s)->id, id) || !g_strcmp0(path, id);
}

/*
 * The device @id (an id or a QOM path) names; with no @id, the only
 * device there is.
 */
static SwitchX2State *sx2_qmp_find(const char *id, Error **errp)
{
    GSList *list = sx2_qmp_devices(), *l;
    SwitchX2State *s = NULL;
    unsigned n = g_slist_length(list);

    if (!id) {
        if (n == 1) {
            s = list->data;
        } else if (n) {
            error_setg(errp, "%u switchx2 devices: give an id", n);
        } else {
            error_setg(errp, "no switchx2 device");
        }
        g_slist_free(list);
        return s;
    }
    for (l = list; l && !s; l = l->next) {
        if (sx2_qmp_matches(l->data, id)) {
            s = l->data;
        }
    }
    g_slist_free(list);
    if (!s) {
        error_setg(errp, "no switchx2 device '%s'", id);
    }
    return s;
}

/*
 * Enumerations: guest-written values mapped onto the schema's enums
 */
static SwitchX2AdminState sx2_qmp_admin(uint8_t v)
{
    switch (v) {
    case SX2_ADMIN_UP:
        return SWITCHX2_ADMIN_STATE_UP;
    case SX2_ADMIN_UP_ONCE:
        return SWITCHX2_ADMIN_STATE_UP_ONCE;
    case SX2_ADMIN_DISABLED:
        return SWITCHX2_ADMIN_STATE_DISABLED;
    default:
        return SWITCHX2_ADMIN_STATE_DOWN;
    }
}

static SwitchX2OperState sx2_qmp_oper(uint8_t v)
{
    switch (v) {
    case SX2_OPER_UP:
        return SWITCHX2_OPER_STATE_UP;
    case SX2_OPER_FAILURE:
        return SWITCHX2_OPER_STATE_FAILURE;
    default:
        return SWITCHX2_OPER_STATE_DOWN;
    }
}

static SwitchX2LearnMode sx2_qmp_learn(uint8_t v)
{
    switch (v) {
    case SX2_LEARN_ENABLE:
        return SWITCHX2_LEARN_MODE_ENABLED;
    case SX2_LEARN_SEC:
        return SWITCHX2_LEARN_MODE_SECURE;
    default:
        return SWITCHX2_LEARN_MODE_DISABLED;
    }
}

static SwitchX2StpState sx2_qmp_stp(uint8_t v)
{
    switch (v) {
    case SX2_STP_LEARNING:
        return SWITCHX2_STP_STATE_LEARNING;
    case SX2_STP_FORWARDING:
        return SWITCHX2_STP_STATE_FORWARDING;
    default:
        return SWITCHX2_STP_STATE_DISCARDING;
    }
}

static SwitchX2FdbAction sx2_qmp_action(uint8_t v)
{
    switch (v) {
    case SX2_SFD_ACTION_TRAP:
        return SWITCHX2_FDB_ACTION_TRAP;
    case SX2_SFD_ACTION_DISCARD_ERROR:
        return SWITCHX2_FDB_ACTION_DISCARD;
    case SX2_SFD_ACTION_FORWARD_IP_ROUTER:
        return SWITCHX2_FDB_ACTION_ROUTER;
    default:
        return SWITCHX2_FDB_ACTION_FORWARD;
    }
}

/* The schema's name of an SFGC packet type; false for reserved types */
static bool sx2_qmp_flood_type(unsigned type, SwitchX2FloodType *out)
{
    static const int map[SX2_SFGC_TYPE_MAX] = {
        [SX2_SFGC_TYPE_BROADCAST] = SWITCHX2_FLOOD_TYPE_BROADCAST,
        [SX2_SFGC_TYPE_UNKNOWN_UNICAST] =
            SWITCHX2_FLOOD_TYPE_UNKNOWN_UNICAST,
        [SX2_SFGC_TYPE_UNREG_MC_IPV4] =
            SWITCHX2_FLOOD_TYPE_UNREGISTERED_MULTICAST_IPV4,
        [SX2_SFGC_TYPE_UNREG_MC_IPV6] =
            SWITCHX2_FLOOD_TYPE_UNREGISTERED_MULTICAST_IPV6,
        [SX2_SFGC_TYPE_RESERVED] = -1,
        [SX2_SFGC_TYPE_UNREG_MC_NON_IP] =
            SWITCHX2_FLOOD_TYPE_UNREGISTERED_MULTICAST_NON_IP,
        [SX2_SFGC_TYPE_IPV4_LINK_LOCAL] =
            SWITCHX2_FLOOD_TYPE_IPV4_LINK_LOCAL,
        [SX2_SFGC_TYPE_IPV6_ALL_HOST] = SWITCHX2_FLOOD_TYPE_IPV6_ALL_HOSTS,
    };

    if (type >= SX2_SFGC_TYPE_MAX || map[type] < 0) {
        return false;
    }
    *out = map[type];
    return true;
}

/* Link speed in Mb/s of a PTYS eth_proto_oper value */
static uint32_t sx2_qmp_speed(uint32_t proto)
{
    if (proto & SX2_ETH_CAP_40G) {
        return 40000;
    }
    if (proto & SX2_ETH_CAP_10G) {
        return 10000;
    }
    return proto & SX2_ETH_CAP_1G ? 1000 : 0;
}

/*
 * Ports
 */
static SwitchX2PortCounters *sx2_qmp_port_counters(const SX2PortCounters *c)
{
    SwitchX2PortCounters *q = g_new0(SwitchX2PortCounters, 1);

    q->rx_frames = c->rx_frames;
    q->rx_octets = c->rx_octets;
    q->rx_unicast = c->rx_ucast;
    q->rx_multicast = c->rx_mcast;
    q->rx_broadcast = c->rx_bcast;
    q->rx_discards = c->rx_discards;
    q->rx_too_long = c->rx_too_long;
    q->rx_undersize = c->rx_undersize;
    q->rx_port_security_discards = c->rx_security;
    q->tx_frames = c->tx_frames;
    q->tx_octets = c->tx_octets;
    q->tx_unicast = c->tx_ucast;
    q->tx_multicast = c->tx_mcast;
    q->tx_broadcast = c->tx_bcast;
    q->tx_discards = c->tx_discards;
    q->tx_too_long = c->tx_too_long;
    return q;
}

/* The settings of {@p, @vid} as a one-VID range */
static void sx2_qmp_vlan_of(const SX2Port *p, uint16_t vid,
                            SwitchX2VlanRange *r)
{
    r->first = r->last = vid;
    r->ingress = sx2_vid_test(p->vlan_i, vid);
    r->egress = sx2_vid_test(p->vlan_e, vid);
    r->untagged = sx2_vid_test(p->vlan_u, vid);
    r->stp = sx2_qmp_stp(sx2_stp_state(p, vid));
    r->learning = sx2_vid_test(p->learn_vid, vid);
}

static bool sx2_qmp_vlan_extends(const SwitchX2VlanRange *r,
                                 const SwitchX2VlanRange *v)
{
    return r->last + 1 == v->first && r->ingress == v->ingress &&
           r->egress == v->egress && r->untagged == v->untagged &&
           r->stp == v->stp && r->learning == v->learning;
}

static SwitchX2VlanRangeList *sx2_qmp_vlans(const SX2Port *p)
{
    SwitchX2VlanRangeList *list = NULL, **tail = &list;
    SwitchX2VlanRange *cur = NULL, v;
    uint16_t vid;

    for (vid = 1; vid <= SX2_VID_MAX; vid++) {
        sx2_qmp_vlan_of(p, vid, &v);
        if (!v.ingress && !v.egress) {
            continue;
        }
        if (cur && sx2_qmp_vlan_extends(cur, &v)) {
            cur->last = vid;
            continue;
        }
        cur = g_memdup2(&v, sizeof(v));
        QAPI_LIST_APPEND(tail, cur);
    }
    return list;
}

static void sx2_qmp_port_lag(SwitchX2Port *q, const SX2Port *p)
{
    if (!p->lagged) {
        return;
    }
    q->has_lag = q->has_lag_collecting = q->has_lag_distributing = true;
    q->lag = p->lag_id;
    q->lag_collecting = p->lag_collecting;
    q->lag_distributing = sx2_lag_port_distributes(p->s, p);
}

static void sx2_qmp_port_mirror(SwitchX2Port *q, const SX2Port *p)
{
    q->has_mirror_ingress = p->span_enabled[SX2_MPAR_INGRESS];
    q->mirror_ingress = p->span_pa[SX2_MPAR_INGRESS];
    q->has_mirror_egress = p->span_enabled[SX2_MPAR_EGRESS];
    q->mirror_egress = p->span_pa[SX2_MPAR_EGRESS];
}

static SwitchX2Port *sx2_qmp_port(const SX2Port *p)
{
    SwitchX2Port *q = g_new0(SwitchX2Port, 1);
    NetClientState *nc = p->nic ? qemu_get_queue(p->nic) : NULL;
    bool up = p->oper_status == SX2_OPER_UP;

    q->local_port = p->local_port;
    q->system_port = p->system_port;
    q->swid = p->swid;
    q->name = g_strdup(nc && nc->name ? nc->name : "");
    q->has_peer = nc && nc->peer && nc->peer->name;
    q->peer = q->has_peer ? g_strdup(nc->peer->name) : NULL;
    q->mac = qemu_mac_strdup_printf(p->mac);
    q->admin_state = sx2_qmp_admin(p->admin_status);
    q->oper_state = sx2_qmp_oper(p->oper_status);
    q->width = p->width;
    q->eth_proto_oper = up ? sx2_port_eth_oper(p) : 0;
    q->speed = sx2_qmp_speed(q->eth_proto_oper);
    q->mtu = p->admin_mtu;
    q->pvid = p->pvid;
    q->accept_untagged = p->allow_untagged;
    q->accept_priority_tagged = p->allow_prio_tagged;
    q->accept_tagged = p->allow_tagged;
    q->priority_tagging = p->prio_tag;
    q->learning = sx2_qmp_learn(p->learn_mode);
    q->vlans = sx2_qmp_vlans(p);
    q->counters = sx2_qmp_port_counters(&p->cnt);
    sx2_qmp_port_lag(q, p);
    sx2_qmp_port_mirror(q, p);
    return q;
}

/*
 * The CPU path
 */
static const char *sx2_qmp_trap_name(unsigned trap_id)
{
    switch (trap_id) {
    case SX2_TRAP_FDB_MC:
        return "FDB_MC";
    case SX2_TRAP_MFDE:
        return "MFDE";
    case SX2_TRAP_ETHEMAD:
        return "ETHEMAD";
    case SX2_TRAP_PUDE:
        return "PUDE";
    case SX2_TRAP_PMPE:
        return "PMPE";
    case SX2_TRAP_STP:
        return "STP";
    case SX2_TRAP_LACP:
        return "LACP";
    case SX2_TRAP_EAPOL:
        return "EAPOL";
    case SX2_TRAP_LLDP:
        return "LLDP";
    case SX2_TRAP_MMRP:
        return "MMRP";
    case SX2_TRAP_MVRP:
        return "MVRP";
    case SX2_TRAP_RPVST:
        return "RPVST";
    case SX2_TRAP_DHCP:
        return "DHCP";
    case SX2_TRAP_IGMP_QUERY:
        return "IGMP_QUERY";
    case SX2_TRAP_IGMP_V1_REPORT:
        return "IGMP_V1_REPORT";
    case SX2_TRAP_IGMP_V2_REPORT:
        return "IGMP_V2_REPORT";
    case SX2_TRAP_IGMP_V2_LEAVE:
        return "IGMP_V2_LEAVE";
    case SX2_TRAP_IGMP_V3_REPORT:
        return "IGMP_V3_REPORT";
    case SX2_TRAP_MLD_QUERY:
        return "MLD_QUERY";
    case SX2_TRAP_MLD_V1_REPORT:
        return "MLD_V1_REPORT";
    case SX2_TRAP_MLD_V1_DONE:
        return "MLD_V1_DONE";
    case SX2_TRAP_MLD_V2_REPORT:
        return "MLD_V2_REPORT";
    default:
        return NULL;
    }
}

static SwitchX2CpuCounters *sx2_qmp_cpu(SwitchX2State *s)
{
    const SX2CpuCounters *c = &s->cpu_cnt;
    SwitchX2CpuCounters *q = g_new0(SwitchX2CpuCounters, 1);
    SwitchX2TrapCountersList **tail = &q->traps;
    unsigned id;

    q->dropped = s->cpu_drops;
    q->sent = c->sent;
    q->sent_emads = c->sent_emads;
    for (id = 0; id < SX2_TRAP_ID_MAX; id++) {
        SwitchX2TrapCounters *t;

        q->trapped += c->trapped[id];
        if (!c->trapped[id] && !c->dropped[id]) {
            continue;
        }
        t = g_new0(SwitchX2TrapCounters, 1);
        t->trap_id = id;
        t->has_name = sx2_qmp_trap_name(id) != NULL;
        t->name = g_strdup(sx2_qmp_trap_name(id));
        t->trapped = c->trapped[id];
        t->dropped = c->dropped[id];
        QAPI_LIST_APPEND(tail, t);
    }
    return q;
}

/*
 * Port analyzers
 */
static SwitchX2AnalyzerList *sx2_qmp_analyzers(SwitchX2State *s)
{
    SwitchX2AnalyzerList *list = NULL, **tail = &list;
    unsigned i;

    for (i = 0; i < SX2_SPAN_ANALYZERS; i++) {
        const SX2Analyzer *pa = &s->analyzer[i];
        SwitchX2Analyzer *q;

        if (!pa->enabled) {
            continue;
        }
        q = g_new0(SwitchX2Analyzer, 1);
        q->pa_id = i;
        q->port = pa->local_port;
        q->system_port = pa->system_port;
        q->mirrored = pa->mirrored;
        QAPI_LIST_APPEND(tail, q);
    }
    return list;
}

/*
 * Trap group policers
 */
static SwitchX2PolicerList *sx2_qmp_policers(SwitchX2State *s)
{
    SwitchX2PolicerList *list = NULL, **tail = &list;
    unsigned pid, g;

    for (pid = 0; pid < SX2_NUM_POLICERS; pid++) {
        const SX2Policer *p = &s->policer[pid];
        SwitchX2Policer *q;
        uint8List **gtail;

        if (!p->set) {
            continue;
        }
        q = g_new0(SwitchX2Policer, 1);
        q->pid = pid;
        q->bytes = p->bytes;
        q->cir = p->cir;
        q->ir_units = p->ir_units;
        q->cbs = p->cbs;
        q->rate = sx2_policer_rate(p);
        q->burst = sx2_policer_burst(p);
        q->violate_count = p->violate_count;
        gtail = &q->trap_groups;
        for (g = 0; g < SX2_TRAP_GROUPS; g++) {
            if (s->htgt[g].valid && s->htgt[g].pide && s->htgt[g].pid == pid) {
                QAPI_LIST_APPEND(gtail, g);
            }
        }
        QAPI_LIST_APPEND(tail, q);
    }
    return list;
}

/*
 * The device
 */
static SwitchX2Profile *sx2_qmp_profile(SwitchX2State *s)
{
    const SX2Profile *p = &s->profile;
    SwitchX2Profile *q = g_new0(SwitchX2Profile, 1);
    SwitchX2SwidList **tail = &q->swids;
    unsigned i;

    q->set = p->set;
    q->flood_mode = p->flood_mode;
    q->single_flood_tables = p->max_flood_tables;
    q->vid_flood_tables = p->max_vid_flood_tables;
    for (i = 0; i < SX2_NUM_SWIDS; i++) {
        SwitchX2Swid *w;

        if (p->swid_type[i] != SX2_SWID_TYPE_ETH &&
            p->swid_type[i] != SX2_SWID_TYPE_IB) {
            continue;
        }
        w = g_new0(SwitchX2Swid, 1);
        w->swid = i;
        w->type = p->swid_type[i] == SX2_SWID_TYPE_ETH ?
                  SWITCHX2_SWID_TYPE_ETHERNET :
                  SWITCHX2_SWID_TYPE_INFINIBAND;
        QAPI_LIST_APPEND(tail, w);
    }
    return q;
}

static SwitchX2Info *sx2_qmp_info(SwitchX2State *s)
{
    SwitchX2Info *q = g_new0(SwitchX2Info, 1);
    DeviceState *dev = DEVICE(s);
    SwitchX2PortList **tail = &q->ports;
    unsigned i;

    q->has_id = dev->id != NULL;
    q->id = g_strdup(dev->id);
    q->qom_path = object_get_canonical_path(OBJECT(s));
    q->num_ports = s->num_ports;
    q->mac = qemu_mac_strdup_printf(s->base_mac.a);
    q->fw_version = g_strdup(s->fw_version ? s->fw_version : "");
    q->psid = g_strdup(s->psid ? s->psid : "");
    q->fdb_size = s->fdb_size;
    q->fdb_entries = s->fdb_size - s->fdb_nfree;
    q->fdb_dynamic = s->fdb_dynamic;
    q->fdb_full_drops = s->learn_full_drops;
    q->fdb_notifications = s->sfn_count;
    q->fdb_notifications_lost = s->sfn_dropped;
    q->fdb_learning_outstanding = s->learn_pending ?
                                  g_hash_table_size(s->learn_pending) : 0;
    q->fdb_ageing_deferred = s->age_deferred;
    q->age_time = s->age_time;
    q->profile = sx2_qmp_profile(s);
    q->cpu = sx2_qmp_cpu(s);
    q->policers = sx2_qmp_policers(s);
    q->analyzers = sx2_qmp_analyzers(s);
    for (i = 1; i <= s->num_ports && i <= SX2_MAX_PORTS; i++) {
        QAPI_LIST_APPEND(tail, sx2_qmp_port(&s->fp[i]));
    }
    return q;
}

SwitchX2InfoList *qmp_query_switchx2(bool has_id, const char *id,
                                     Error **errp)
{
    SwitchX2InfoList *list = NULL, **tail = &list;
    GSList *devs, *l;
    SwitchX2State *s;

    trace_switchx2_qmp("query-switchx2", has_id ? id : "(all)");
    if (has_id) {
        s = sx2_qmp_find(id, errp);
        if (s) {
            QAPI_LIST_APPEND(tail, sx2_qmp_info(s));
        }
        return list;
    }
    devs = sx2_qmp_devices();
    for (l = devs; l; l = l->next) {
        QAPI_LIST_APPEND(tail, sx2_qmp_info(l->data));
    }
    g_slist_free(devs);
    return list;
}

/*
 * FDB
 */
static SwitchX2FdbEntry *sx2_qmp_fdb_entry(SwitchX2State *s,
                                           const SX2FdbEntry *e, int64_t now)
{
    SwitchX2FdbEntry *q = g_new0(SwitchX2FdbEntry, 1);
    uint8_t mac[6];
    uint16_t fid;

    sx2_fdb_entry_key(e, mac, &fid);
    q->mac = qemu_mac_strdup_printf(mac);
    q->fid = fid;
    q->vid = fid;
    if (e->mc) {
        q->has_mid = true;
        q->mid = e->dest;
    } else if (sx2_dest_is_lag(e->dest)) {
        q->has_lag = true;
        q->lag = sx2_dest_lag_id(e->dest);
    } else {
        q->port = e->dest;
        q->system_port = s->fp[e->dest].system_port;
    }
    q->dynamic = e->dynamic;
    q->action = sx2_qmp_action(e->action);
    q->has_age = e->dynamic;
    if (e->dynamic && now > e->last_seen) {
        q->age = (now - e->last_seen) / NANOSECONDS_PER_SECOND;
    }
    return q;
}

static SwitchX2FdbEntryList *sx2_qmp_fdb_entries(SwitchX2State *s,
                                                 bool has_fid, uint16_t fid)
{
    SwitchX2FdbEntryList *list = NULL, **tail = &list;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint32_t slot;

    for (slot = 0; s->fdb && slot < s->fdb_size; slot++) {
        const SX2FdbEntry *e = &s->fdb[slot];
        uint8_t mac[6];
        uint16_t efid;

        if (!e->used) {
            continue;
        }
        sx2_fdb_entry_key(e, mac, &efid);
        if (has_fid && efid != fid) {
            continue;
        }
        QAPI_LIST_APPEND(tail, sx2_qmp_fdb_entry(s, e, now));
    }
    return list;
}

/*
 * Flood tables
 */
static uint8List *sx2_qmp_portset(const SX2PortSet *set)
{
    uint8List *list = NULL, **tail = &list;
    unsigned port;

    for (port = 0; port <= SX2_MAX_PORTS; port++) {
        if (sx2_portset_test(set, port)) {
            QAPI_LIST_APPEND(tail, port);
        }
    }
    return list;
}

static bool sx2_qmp_portset_empty(const SX2PortSet *set)
{
    return !set->lo && !(set->hi & 1);
}

static bool sx2_qmp_portset_equal(const SX2PortSet *a, const SX2PortSet *b)
{
    return a->lo == b->lo && (a->hi & 1) == (b->hi & 1);
}

/*
 * The non-empty entries first..last of a flood table, consecutive
 * entries with the same members as one.
 */
static SwitchX2FloodEntryList *sx2_qmp_flood_entries(SwitchX2State *s,
                                                     unsigned kind,
                                                     unsigned table,
                                                     unsigned first,
                                                     unsigned last)
{
    SwitchX2FloodEntryList *list = NULL, **tail = &list;
    SwitchX2FloodEntry *cur = NULL;
    const SX2PortSet *prev = NULL, *set;
    unsigned i;

    for (i = first; i <= last; i++) {
        set = sx2_flood_entry(s, kind, table, i);
        if (sx2_qmp_portset_empty(set)) {
            cur = NULL;
            continue;
        }
        if (cur && sx2_qmp_portset_equal(prev, set)) {
            cur->last = i;
            continue;
        }
        cur = g_new0(SwitchX2FloodEntry, 1);
        cur->first = cur->last = i;
        cur->ports = sx2_qmp_portset(set);
        QAPI_LIST_APPEND(tail, cur);
        prev = set;
    }
    return list;
}

/* The flood configuration of SFGC packet type @type, or NULL */
static SwitchX2Flood *sx2_qmp_flood(SwitchX2State *s, unsigned type,
                                    bool has_fid, uint16_t fid)
{
    const SX2FloodCfg *fc = &s->sfgc[type];
    SwitchX2FloodType qtype;
    SwitchX2Flood *q;
    bool vid = fc->table_type == SX2_FT_TYPE_VID;
    unsigned first = 0, last = 0;
    int swid;

    if (!fc->valid || !sx2_qmp_flood_type(type, &qtype) ||
        (!vid && fc->table_type != SX2_FT_TYPE_SINGLE)) {
        return NULL;
    }
    q = g_new0(SwitchX2Flood, 1);
    q->type = qtype;
    q->table_kind = vid ? SWITCHX2_FLOOD_TABLE_KIND_VID
                        : SWITCHX2_FLOOD_TABLE_KIND_SINGLE;
    q->table = fc->flood_table;
    swid = sx2_flood_table_swid(s, fc->table_type, fc->flood_table);
    q->has_swid = swid >= 0;
    q->swid = MAX(swid, 0);
    q->mid = fc->mid;
    if (vid) {
        first = has_fid ? fid : 0;
        last = has_fid ? fid : SX2_FT_VID_ENTRIES - 1;
    }
    /* A layout change clears SFGC; check all the same before indexing */
    if (s->ft_vid && fc->flood_table < SX2_MAX_FLOOD_TABLES &&
        fc->flood_table < sx2_flood_tables(s, fc->table_type)) {
        q->entries = sx2_qmp_flood_entries(s, fc->table_type,
                                           fc->flood_table, first, last);
    }
    return q;
}

static SwitchX2FloodList *sx2_qmp_floods(SwitchX2State *s, bool has_fid,
                                         uint16_t fid)
{
    SwitchX2FloodList *list = NULL, **tail = &list;
    unsigned type;

    for (type = 0; type < SX2_SFGC_TYPE_MAX; type++) {
        SwitchX2Flood *f = sx2_qmp_flood(s, type, has_fid, fid);

        if (f) {
            QAPI_LIST_APPEND(tail, f);
        }
    }
    return list;
}

static void sx2_qmp_mid_add(SwitchX2MidList ***tail, unsigned mid,
                            const SX2PortSet *set)
{
    SwitchX2Mid *m;

    if (sx2_qmp_portset_empty(set)) {
        return;
    }
    m = g_new0(SwitchX2Mid, 1);
    m->mid = mid;
    m->ports = sx2_qmp_portset(set);
    QAPI_LIST_APPEND(*tail, m);
}

static SwitchX2MidList *sx2_qmp_mids(SwitchX2State *s)
{
    SwitchX2MidList *list = NULL, **tail = &list;
    unsigned mid;

    for (mid = 0; s->smid && mid < s->smid_count; mid++) {
        sx2_qmp_mid_add(&tail, mid, &s->smid[mid]);
    }
    sx2_qmp_mid_add(&tail, SX2_MID_FLOOD, &s->smid_flood);
    return list;
}

SwitchX2Fdb *qmp_query_switchx2_fdb(bool has_id, const char *id,
                                    bool has_fid, uint16_t fid, Error **errp)
{
    SwitchX2State *s;
    SwitchX2Fdb *q;

    trace_switchx2_qmp("query-switchx2-fdb", has_id ? id : "(only)");
    if (has_fid && !sx2_fid_valid(fid)) {
        error_setg(errp, "fid %u is not a FID (1..%u)", fid, SX2_VID_MAX);
        return NULL;
    }
    s = sx2_qmp_find(has_id ? id : NULL, errp);
    if (!s) {
        return NULL;
    }
    q = g_new0(SwitchX2Fdb, 1);
    q->has_id = DEVICE(s)->id != NULL;
    q->id = g_strdup(DEVICE(s)->id);
    q->qom_path = object_get_canonical_path(OBJECT(s));
    q->entries = sx2_qmp_fdb_entries(s, has_fid, fid);
    q->flood = sx2_qmp_floods(s, has_fid, fid);
    q->mid_count = s->smid_count;
    q->mids = sx2_qmp_mids(s);
    return q;
}

/*
 * Router
 */
static char *sx2_qmp_mac(const uint8_t *mac)
{
    return g_strdup_printf("%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
                           mac[2], mac[3], mac[4], mac[5]);
}

static char *sx2_qmp_ip(unsigned proto, const uint8_t *addr)
{
    char buf[INET6_ADDRSTRLEN];

    inet_ntop(proto == SX2_L3_PROTO_IPV4 ? AF_INET : AF_INET6, addr, buf,
              sizeof(buf));
    return g_strdup(buf);
}

static SwitchX2Rif *sx2_qmp_rif(SwitchX2State *s, unsigned index)
{
    const SX2Rif *rif = &s->router.rif[index];
    const uint64_t *in = s->router.counters[rif->counter[SX2_RIF_INGRESS]];
    const uint64_t *out = s->router.counters[rif->counter[SX2_RIF_EGRESS]];
    SwitchX2Rif *q = g_new0(SwitchX2Rif, 1);

    q->rif = index;
    q->type = rif->type == SX2_RITR_TYPE_VLAN ? SWITCHX2_RIF_TYPE_VLAN
                                              : SWITCHX2_RIF_TYPE_SUB_PORT;
    q->vid = rif->vid;
    if (rif->type == SX2_RITR_TYPE_SUB_PORT) {
        q->has_lag = rif->sp_lag;
        q->lag = rif->sp_port;
        q->has_system_port = !rif->sp_lag;
        q->system_port = rif->sp_port;
    }
    q->virtual_router = rif->vr;
    q->mac = sx2_qmp_mac(rif->mac);
    q->mtu = rif->mtu;
    q->ipv4 = rif->ipv4;
    q->ipv6 = rif->ipv6;
    q->loopback_filter = rif->lb_en;
    if (rif->counted[SX2_RIF_INGRESS]) {
        q->has_routed_in = q->has_discarded = true;
        q->routed_in = in[SX2_RIF_GOOD_UC_PKTS];
        q->discarded = in[SX2_RIF_DISCARD_PKTS];
    }
    if (rif->counted[SX2_RIF_EGRESS]) {
        q->has_routed_out = true;
        q->routed_out = out[SX2_RIF_GOOD_UC_PKTS];
    }
    return q;
}

static gint sx2_qmp_route_cmp(gconstpointer a, gconstpointer b)
{
    const SX2RouteKey *x = a, *y = b;

    if (x->vr != y->vr) {
        return x->vr - y->vr;
    }
    if (x->proto != y->proto) {
        return x->proto - y->proto;
    }
    return memcmp(x->addr, y->addr, 16) ?: x->plen - y->plen;
}

static SwitchX2RouteAction sx2_qmp_trap_action(unsigned trap_action)
{
    return trap_action == SX2_RTR_TRAP_TRAP ? SWITCHX2_ROUTE_ACTION_TRAP
                                            : SWITCHX2_ROUTE_ACTION_DISCARD;
}

static SwitchX2Route *sx2_qmp_route(const SX2Route *r)
{
    SwitchX2Route *q = g_new0(SwitchX2Route, 1);
    g_autofree char *addr = sx2_qmp_ip(r->key.proto, r->key.addr);

    q->virtual_router = r->key.vr;
    q->prefix = g_strdup_printf("%s/%u", addr, r->key.plen);
    if (r->trap_action != SX2_RTR_TRAP_NOP) {
        q->action = sx2_qmp_trap_action(r->trap_action);
        q->has_trap_id = r->trap_action == SX2_RTR_TRAP_TRAP;
        q->trap_id = r->trap_id;
    } else if (r->action == SX2_RALUE_ACTION_REMOTE) {
        q->action = SWITCHX2_ROUTE_ACTION_REMOTE;
        q->has_adjacency = q->has_ecmp_size = true;
        q->adjacency = r->adj_index;
        q->ecmp_size = r->ecmp_size;
    } else if (r->action == SX2_RALUE_ACTION_LOCAL) {
        q->action = SWITCHX2_ROUTE_ACTION_LOCAL;
        q->has_rif = true;
        q->rif = r->local_erif;
    } else {
        q->action = SWITCHX2_ROUTE_ACTION_IP2ME;
    }
    return q;
}

static SwitchX2RouteList *sx2_qmp_routes(SwitchX2State *s)
{
    SwitchX2RouteList *list = NULL, **tail = &list;
    GList *keys = g_list_sort(g_hash_table_get_keys(s->lpm.routes),
                              sx2_qmp_route_cmp);
    GList *k;

    for (k = keys; k; k = k->next) {
        QAPI_LIST_APPEND(tail, sx2_qmp_route(g_hash_table_lookup(
                                                 s->lpm.routes, k->data)));
    }
    g_list_free(keys);
    return list;
}

static SwitchX2Neighbour *sx2_qmp_neighbour(unsigned rif, const uint8_t *mac,
                                            unsigned trap_action,
                                            unsigned trap_id, bool active)
{
    SwitchX2Neighbour *q = g_new0(SwitchX2Neighbour, 1);

    q->rif = rif;
    q->mac = sx2_qmp_mac(mac);
    q->action = trap_action == SX2_RTR_TRAP_NOP ?
                SWITCHX2_ROUTE_ACTION_FORWARD :
                sx2_qmp_trap_action(trap_action);
    q->has_trap_id = trap_action == SX2_RTR_TRAP_TRAP;
    q->trap_id = trap_id;
    q->active = active;
    return q;
}

static SwitchX2NeighbourList *sx2_qmp_next_hops(SwitchX2State *s)
{
    SwitchX2NeighbourList *list = NULL, **tail = &list;
    unsigned i;

    for (i = 0; s->neigh.adj && i < SX2_ADJ_SIZE; i++) {
        const SX2Adj *a = &s->neigh.adj[i];
        SwitchX2Neighbour *q;

        if (!a->valid) {
            continue;
        }
        q = sx2_qmp_neighbour(a->erif, a->dmac, a->trap_action, a->trap_id,
                              a->active);
        q->has_index = true;
        q->index = i;
        QAPI_LIST_APPEND(tail, q);
    }
    return list;
}

static SwitchX2NeighbourList *sx2_qmp_hosts(SwitchX2State *s)
{
    SwitchX2NeighbourList *list = NULL, **tail = &list;
    GList *keys = g_list_sort(g_hash_table_get_keys(s->neigh.hosts),
                              sx2_host_key_cmp);
    GList *k;

    for (k = keys; k; k = k->next) {
        const SX2Host *h = g_hash_table_lookup(s->neigh.hosts, k->data);
        SwitchX2Neighbour *q = sx2_qmp_neighbour(h->key.rif, h->mac,
                                                 h->trap_action, h->trap_id,
                                                 h->active);

        q->has_address = true;
        q->address = sx2_qmp_ip(h->key.proto, h->key.addr);
        QAPI_LIST_APPEND(tail, q);
    }
    g_list_free(keys);
    return list;
}

SwitchX2Routes *qmp_query_switchx2_routes(bool has_id, const char *id,
                                          Error **errp)
{
    SwitchX2RifList **rifs;
    SwitchX2Routes *q;
    SwitchX2State *s;
    unsigned i;

    trace_switchx2_qmp("query-switchx2-routes", has_id ? id : "(only)");
    s = sx2_qmp_find(has_id ? id : NULL, errp);
    if (!s) {
        return NULL;
    }
    q = g_new0(SwitchX2Routes, 1);
    q->has_id = DEVICE(s)->id != NULL;
    q->id = g_strdup(DEVICE(s)->id);
    q->qom_path = object_get_canonical_path(OBJECT(s));
    q->attached = sx2_router_attached(s);
    q->ipv4 = s->router.ipv4_en;
    q->ipv6 = s->router.ipv6_en;
    q->max_rifs = s->router.max_rifs;
    rifs = &q->rifs;
    for (i = 0; i < s->router.max_rifs; i++) {
        if (s->router.rif[i].valid) {
            QAPI_LIST_APPEND(rifs, sx2_qmp_rif(s, i));
        }
    }
    q->routes = sx2_qmp_routes(s);
    q->next_hops = sx2_qmp_next_hops(s);
    q->neighbours = sx2_qmp_hosts(s);
    return q;
}
