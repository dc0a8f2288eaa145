/*
 * Mellanox SwitchX-2 switch ASIC emulation: link aggregation tables
 *
 * SLDR creates and destroys LAG descriptors and keeps each LAG's
 * distributor list (the members that may transmit); SLCOR makes a port a
 * member at a port index, enables or disables its collector (whether
 * what it receives is accepted) and takes it out again; SLCR chooses the
 * hash that spreads a LAG's traffic over its distributors.  No SwitchX
 * note exists on any of them: the model follows reg.h (v5.10 layouts)
 * and Spectrum-1's use of them, and refuses what reg.h rules out (SLCOR
 * on the CPU port) and every step out of the order Spectrum-1 keeps
 * (a member is added before it distributes, stops distributing before
 * it leaves, and a LAG is destroyed empty).  The profile sets how many
 * LAGs and ports per LAG exist; a profile that says nothing gives none
 * (docs/switchx2-conformance.md).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/crc32c.h"
#include "net/eth.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

static void sx2_lag_hash_default(SX2LagHash *h)
{
    h->type = SX2_SLCR_TYPE_CRC;
    h->fields = SX2_SLCR_HASH_DEFAULT;
}

/* No LAG, every port out of every LAG, the default hash everywhere */
void sx2_lag_reset(SwitchX2State *s)
{
    unsigned i;

    memset(s->lag, 0, sizeof(s->lag));
    for (i = 0; i <= SX2_MAX_PORTS; i++) {
        s->fp[i].lagged = false;
        s->fp[i].lag_collecting = false;
        sx2_lag_hash_default(&s->lag_hash[i]);
    }
    s->lag_seed = 0;
}

/* LAG @lag_id if the profile provides it, else NULL (bad parameter) */
static SX2Lag *sx2_lag_get(SwitchX2State *s, const char *reg,
                           unsigned lag_id)
{
    if (lag_id >= s->profile.max_lag) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: LAG %u does not exist "
                      "(the profile's max_lag is %u)\n", reg, lag_id,
                      s->profile.max_lag);
        return NULL;
    }
    return &s->lag[lag_id];
}

static SX2Lag *sx2_lag_get_created(SwitchX2State *s, const char *reg,
                                   unsigned lag_id)
{
    SX2Lag *lag = sx2_lag_get(s, reg, lag_id);

    if (lag && !lag->created) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: LAG %u was not "
                      "created (SLDR)\n", reg, lag_id);
        return NULL;
    }
    return lag;
}

static bool sx2_lag_empty(const SX2Lag *lag)
{
    unsigned i;

    for (i = 0; i < SX2_MAX_PORTS_PER_LAG; i++) {
        if (lag->member[i]) {
            return false;
        }
    }
    return true;
}

/* Whether LAG @lag_id exists: SLDR created it */
bool sx2_lag_created(const SwitchX2State *s, unsigned lag_id)
{
    return lag_id < s->profile.max_lag && s->lag[lag_id].created;
}

/* Index of @lp in @lag's distributor list, or -1 */
static int sx2_lag_dist_find(const SX2Lag *lag, unsigned lp)
{
    unsigned i;

    for (i = 0; i < lag->ndist; i++) {
        if (lag->dist[i] == lp) {
            return i;
        }
    }
    return -1;
}

/* Whether LAG member @p is on its LAG's distributor list */
bool sx2_lag_port_distributes(SwitchX2State *s, const SX2Port *p)
{
    return p->lagged && sx2_lag_dist_find(&s->lag[p->lag_id],
                                          p->local_port) >= 0;
}

/* The member of LAG @lag_id that an SLDR port list names, or NULL */
static SX2Port *sx2_sldr_member(SwitchX2State *s, unsigned lag_id,
                                const uint8_t *pl)
{
    unsigned sys = sx2_fget(pl, SX2_REG_SLDR_SYSTEM_PORT);
    int lp = sx2_local_port_of_system_port(s, sys);

    if (sx2_fget(pl, SX2_REG_SLDR_NUM_PORTS) != 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: num_ports %u: the "
                      "0x%x-byte register holds a list of one port\n",
                      sx2_fget(pl, SX2_REG_SLDR_NUM_PORTS), SX2_REG_SLDR_LEN);
        return NULL;
    }
    if (lp <= 0 || !s->fp[lp].lagged || s->fp[lp].lag_id != lag_id) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: system port %u is "
                      "not a member of LAG %u (SLCOR adds members)\n", sys,
                      lag_id);
        return NULL;
    }
    return &s->fp[lp];
}

static uint8_t sx2_sldr_dist_add(SwitchX2State *s, SX2Lag *lag,
                                 unsigned lag_id, const uint8_t *pl)
{
    SX2Port *p = sx2_sldr_member(s, lag_id, pl);

    if (!p) {
        return BAD_PARAM;
    }
    if (sx2_lag_dist_find(lag, p->local_port) >= 0) {
        /* "Ports that appear in the list have the Distributor enabled" */
        return OK;
    }
    lag->dist[lag->ndist++] = p->local_port;
    trace_switchx2_lag_dist(lag_id, p->local_port, true, lag->ndist);
    return OK;
}

static uint8_t sx2_sldr_dist_remove(SwitchX2State *s, SX2Lag *lag,
                                    unsigned lag_id, const uint8_t *pl)
{
    SX2Port *p = sx2_sldr_member(s, lag_id, pl);
    int i;

    if (!p) {
        return BAD_PARAM;
    }
    i = sx2_lag_dist_find(lag, p->local_port);
    if (i < 0) {
        /* Not on the list: its distributor is off already */
        return OK;
    }
    memmove(&lag->dist[i], &lag->dist[i + 1], lag->ndist - i - 1);
    lag->ndist--;
    trace_switchx2_lag_dist(lag_id, p->local_port, false, lag->ndist);
    return OK;
}

/*
 * SLDR - switch LAG descriptor.  A query answers the number of
 * distributors and the first of them (the register has room for one).
 */
uint8_t sx2_reg_sldr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned lag_id = sx2_fget(pl, SX2_REG_SLDR_LAG_ID);
    unsigned op = sx2_fget(pl, SX2_REG_SLDR_OP);
    SX2Lag *lag = sx2_lag_get(s, "SLDR", lag_id);

    if (!lag) {
        return BAD_PARAM;
    }
    if (!write) {
        if (!lag->created) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: query of LAG %u, "
                          "which was not created\n", lag_id);
            return BAD_PARAM;
        }
        sx2_fset(pl, SX2_REG_SLDR_NUM_PORTS, lag->ndist);
        sx2_fset(pl, SX2_REG_SLDR_SYSTEM_PORT,
                 lag->ndist ? s->fp[lag->dist[0]].system_port : 0);
        return OK;
    }
    switch (op) {
    case SX2_SLDR_OP_CREATE:
        if (lag->created) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: LAG %u exists "
                          "already\n", lag_id);
            return BAD_PARAM;
        }
        lag->created = true;
        break;
    case SX2_SLDR_OP_DESTROY:
        if (!lag->created || !sx2_lag_empty(lag)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: destroy LAG %u: "
                          "%s\n", lag_id, lag->created ? "it still has "
                          "member ports (SLCOR removes them)" : "no such "
                          "LAG");
            return BAD_PARAM;
        }
        if (sx2_router_lag_has_rif(s, lag_id)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: destroy LAG %u: "
                          "a sub-port RIF is on it (RITR deletes it)\n",
                          lag_id);
            return BAD_PARAM;
        }
        memset(lag, 0, sizeof(*lag));
        break;
    case SX2_SLDR_OP_ADD_PORT_LIST:
    case SX2_SLDR_OP_REMOVE_PORT_LIST:
        if (!sx2_lag_get_created(s, "SLDR", lag_id)) {
            return BAD_PARAM;
        }
        return op == SX2_SLDR_OP_ADD_PORT_LIST ?
               sx2_sldr_dist_add(s, lag, lag_id, pl) :
               sx2_sldr_dist_remove(s, lag, lag_id, pl);
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLDR: op %u\n", op);
        return BAD_PARAM;
    }
    trace_switchx2_lag(lag_id, lag->created);
    return OK;
}

/*
 * SLCR - switch LAG configuration: the hash of the packets entering a
 * port (pp 1), or of every port (pp 0, which reads port 1's).  The CPU
 * port has one; the router port, which reg.h excludes, is not modelled.
 */
uint8_t sx2_reg_slcr(SwitchX2State *s, uint8_t *pl, bool write)
{
    bool per_port = sx2_fget(pl, SX2_REG_SLCR_PP) == SX2_SLCR_PP_PER_PORT;
    unsigned lp = per_port ? sx2_reg_local_port(pl) : 1;
    unsigned type = sx2_fget(pl, SX2_REG_SLCR_TYPE);
    uint32_t fields = sx2_fget(pl, SX2_REG_SLCR_LAG_HASH);
    SX2LagHash *h;
    unsigned i;

    if (lp > s->num_ports) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCR: local port %u does "
                      "not exist\n", lp);
        return BAD_PARAM;
    }
    h = &s->lag_hash[lp];
    if (write) {
        if (type > SX2_SLCR_TYPE_RANDOM || (fields & ~SX2_SLCR_HASH_DEFINED)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCR: hash type %u "
                          "fields 0x%x (types 0-2, fields 0x%x)\n", type,
                          fields, SX2_SLCR_HASH_DEFINED);
            return BAD_PARAM;
        }
        for (i = per_port ? lp : 0; i <= (per_port ? lp : s->num_ports);
             i++) {
            s->lag_hash[i].type = type;
            s->lag_hash[i].fields = fields;
        }
        s->lag_seed = sx2_fget(pl, SX2_REG_SLCR_SEED);
        trace_switchx2_lag_hash(per_port ? (int)lp : -1, type, fields,
                                s->lag_seed);
    }
    sx2_fset(pl, SX2_REG_SLCR_TYPE, h->type);
    sx2_fset(pl, SX2_REG_SLCR_LAG_HASH, h->fields);
    sx2_fset(pl, SX2_REG_SLCR_SEED, s->lag_seed);
    return OK;
}

static uint8_t sx2_slcor_add(SwitchX2State *s, SX2Port *p, SX2Lag *lag,
                             unsigned lag_id, unsigned index)
{
    if (p->lagged) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCOR: port %u is a member "
                      "of LAG %u already\n", p->local_port, p->lag_id);
        return BAD_PARAM;
    }
    if (index >= s->profile.max_port_per_lag ||
        index >= SX2_MAX_PORTS_PER_LAG || lag->member[index]) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCOR: port index %u of "
                      "LAG %u is %s\n", index, lag_id,
                      index < s->profile.max_port_per_lag ? "taken" :
                      "beyond the profile's max_port_per_lag");
        return BAD_PARAM;
    }
    lag->member[index] = p->local_port;
    p->lagged = true;
    p->lag_collecting = false;
    p->lag_id = lag_id;
    p->lag_index = index;
    return OK;
}

static uint8_t sx2_slcor_remove(SX2Port *p, SX2Lag *lag, unsigned lag_id)
{
    if (sx2_lag_dist_find(lag, p->local_port) >= 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCOR: port %u still "
                      "distributes for LAG %u (SLDR removes it first)\n",
                      p->local_port, lag_id);
        return BAD_PARAM;
    }
    lag->member[p->lag_index] = 0;
    p->lagged = false;
    p->lag_collecting = false;
    return OK;
}

/*
 * SLCOR - switch LAG collector: membership and the collector of a port.
 * reg.h: "Not supported for CPU port".
 */
uint8_t sx2_reg_slcor(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_port(s, "SLCOR", pl, true);
    unsigned lag_id = sx2_fget(pl, SX2_REG_SLCOR_LAG_ID);
    unsigned col = sx2_fget(pl, SX2_REG_SLCOR_COL);
    SX2Lag *lag;
    unsigned lp;
    uint8_t st;

    if (!p) {
        return BAD_PARAM;
    }
    lp = p->local_port;
    lag = sx2_lag_get_created(s, "SLCOR", lag_id);
    if (!lag) {
        return BAD_PARAM;
    }
    if (!write) {
        if (!p->lagged || p->lag_id != lag_id) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCOR: port %u is not "
                          "a member of LAG %u\n", lp, lag_id);
            return BAD_PARAM;
        }
        sx2_fset(pl, SX2_REG_SLCOR_COL, p->lag_collecting ?
                 SX2_SLCOR_COL_ENABLE : SX2_SLCOR_COL_DISABLE);
        sx2_fset(pl, SX2_REG_SLCOR_PORT_INDEX, p->lag_index);
        return OK;
    }
    if (col == SX2_SLCOR_COL_ADD_PORT) {
        st = sx2_slcor_add(s, p, lag, lag_id,
                           sx2_fget(pl, SX2_REG_SLCOR_PORT_INDEX));
    } else if (!p->lagged || p->lag_id != lag_id) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SLCOR: col %u for port %u, "
                      "not a member of LAG %u\n", col, lp, lag_id);
        st = BAD_PARAM;
    } else if (col == SX2_SLCOR_COL_REMOVE_PORT) {
        st = sx2_slcor_remove(p, lag, lag_id);
    } else {
        p->lag_collecting = col == SX2_SLCOR_COL_ENABLE;
        st = OK;
    }
    if (st == OK) {
        trace_switchx2_lag_member(lag_id, lp, p->lagged, p->lag_index,
                                  p->lag_collecting);
    }
    return st;
}

/*
 * Forwarding to a LAG
 *
 * The hash of a frame covers the fields SLCR selects for its ingress
 * port, in a fixed order, each only where the frame has it: IP fields
 * for IPv4 and IPv6, TCP and UDP ports for unfragmented TCP and UDP.
 * CRC hashes them with the seed (CRC-32C); XOR folds them into 32 bits
 * with the seed; random ignores them.  How the silicon combines the
 * fields is not public: only what a flow maps to is stable, not which
 * member (docs/switchx2-conformance.md).
 */
typedef struct SX2HashBuf {
    uint8_t b[64];
    size_t n;
} SX2HashBuf;

static void sx2_hash_add(SX2HashBuf *h, const void *p, size_t n)
{
    n = MIN(n, sizeof(h->b) - h->n);
    memcpy(h->b + h->n, p, n);
    h->n += n;
}

/* IPv4 or IPv6 source, destination, protocol, flow label and L4 ports */
static void sx2_hash_l3(SX2HashBuf *h, uint32_t f, const uint8_t *ip,
                        size_t room, bool v6)
{
    size_t ihl = v6 ? 40 : (ip[0] & 0xF) * 4;
    unsigned alen = v6 ? 16 : 4;
    uint8_t proto = v6 ? ip[6] : ip[9];
    bool first_fragment = v6 || !(lduw_be_p(ip + 6) & 0x1FFF);
    bool more = !v6 && (lduw_be_p(ip + 6) & 0x3FFF);

    if (f & SX2_SLCR_HASH_SIP) {
        sx2_hash_add(h, ip + (v6 ? 8 : 12), alen);
    }
    if (f & SX2_SLCR_HASH_DIP) {
        sx2_hash_add(h, ip + (v6 ? 24 : 16), alen);
    }
    if (f & SX2_SLCR_HASH_IPPROTO) {
        sx2_hash_add(h, &proto, 1);
    }
    if (v6 && (f & SX2_SLCR_HASH_FLOWLABEL)) {
        uint32_t label = ldl_be_p(ip) & 0xFFFFF;

        sx2_hash_add(h, &label, sizeof(label));
    }
    if ((proto != IPPROTO_TCP && proto != IPPROTO_UDP) || !first_fragment ||
        more || ihl < 20 || room < ihl + 4) {
        return;
    }
    if (f & SX2_SLCR_HASH_SPORT) {
        sx2_hash_add(h, ip + ihl, 2);
    }
    if (f & SX2_SLCR_HASH_DPORT) {
        sx2_hash_add(h, ip + ihl + 2, 2);
    }
}

uint32_t sx2_lag_hash(SwitchX2State *s, const SX2Port *in,
                      const uint8_t *buf, size_t len, size_t l3off,
                      uint16_t ethertype, uint16_t vid)
{
    const SX2LagHash *cfg = &s->lag_hash[in->local_port];
    uint32_t f = cfg->fields;
    bool v4 = ethertype == ETH_P_IP && len >= l3off + 20 &&
              (buf[l3off] >> 4) == 4;
    bool v6 = ethertype == ETH_P_IPV6 && len >= l3off + 40;
    bool ip = v4 || v6;
    SX2HashBuf h = { .n = 0 };
    uint32_t x = s->lag_seed;
    size_t i;

    if (cfg->type == SX2_SLCR_TYPE_RANDOM) {
        return g_random_int();
    }
    if (f & SX2_SLCR_HASH_IN_PORT) {
        sx2_hash_add(&h, &in->local_port, 1);
    }
    if (f & (ip ? SX2_SLCR_HASH_SMAC_IP : SX2_SLCR_HASH_SMAC_NONIP)) {
        sx2_hash_add(&h, buf + 6, 6);
    }
    if (f & (ip ? SX2_SLCR_HASH_DMAC_IP : SX2_SLCR_HASH_DMAC_NONIP)) {
        sx2_hash_add(&h, buf, 6);
    }
    if (f & (ip ? SX2_SLCR_HASH_ETHERTYPE_IP : SX2_SLCR_HASH_ETHERTYPE_NONIP)) {
        sx2_hash_add(&h, &ethertype, sizeof(ethertype));
    }
    if (f & (ip ? SX2_SLCR_HASH_VLANID_IP : SX2_SLCR_HASH_VLANID_NONIP)) {
        sx2_hash_add(&h, &vid, sizeof(vid));
    }
    if (ip) {
        sx2_hash_l3(&h, f, buf + l3off, len - l3off, v6);
    }
    if (cfg->type == SX2_SLCR_TYPE_CRC) {
        return crc32c(x, h.b, h.n);
    }
    for (i = 0; i < h.n; i++) {
        x ^= (uint32_t)h.b[i] << (8 * (i % 4));
    }
    return x;
}

/*
 * The port a frame with @hash leaves LAG @lag_id by: one of its
 * distributors, among those in @allowed if given (a flood set); 0 if
 * there is none.
 */
unsigned sx2_lag_pick(SwitchX2State *s, unsigned lag_id, uint32_t hash,
                      const SX2PortSet *allowed)
{
    const SX2Lag *lag;
    uint8_t cand[SX2_MAX_PORTS_PER_LAG];
    unsigned i, n = 0;

    if (lag_id >= SX2_MAX_LAGS || !s->lag[lag_id].created) {
        return 0;
    }
    lag = &s->lag[lag_id];
    for (i = 0; i < lag->ndist; i++) {
        if (!allowed || sx2_portset_test(allowed, lag->dist[i])) {
            cand[n++] = lag->dist[i];
        }
    }
    return n ? cand[hash % n] : 0;
}
