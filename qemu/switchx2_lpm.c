/*
 * Mellanox SwitchX-2 switch ASIC emulation: longest prefix match
 *
 * RALTA allocates LPM trees, RALST gives a tree its bins (the prefix
 * lengths the tree can hold, as a binary search tree), RALTB binds a
 * virtual router's IPv4 or IPv6 table to a tree, and RALUE writes the
 * routes.  A lookup finds the longest prefix among a virtual router's
 * routes: the bins are the device's search structure, and a route
 * whose prefix length is no bin of its tree is never found by the
 * silicon, so the model refuses to write it (the driver must grow the
 * tree first, as Spectrum's does).  The default route (length 0) needs
 * no bin.
 *
 * No SwitchX note exists on these registers (SX2-SILICON section 5):
 * the model follows reg.h and the order Spectrum-1 uses them in, and
 * offers no more: no markers the driver would have to write, no
 * activity, no IP-in-IP decapsulation (RALUE ip2me_v).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/xxhash.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

static unsigned sx2_lpm_addr_bits(unsigned proto)
{
    return proto == SX2_L3_PROTO_IPV4 ? 32 : 128;
}

/* @addr with the bits past @plen cleared, in network order */
static void sx2_lpm_mask(uint8_t *addr, unsigned plen)
{
    unsigned i;

    for (i = 0; i < 16; i++) {
        if (plen >= 8 * (i + 1)) {
            continue;
        }
        addr[i] &= plen > 8 * i ? 0xff << (8 - (plen - 8 * i)) : 0;
    }
}

static guint sx2_lpm_key_hash(gconstpointer k)
{
    const SX2RouteKey *key = k;

    return qemu_xxhash4(key->vr << 16 | key->proto << 8 | key->plen,
                        ldl_he_p(key->addr) ^ ldl_he_p(key->addr + 4) ^
                        ldl_he_p(key->addr + 8) ^ ldl_he_p(key->addr + 12));
}

static gboolean sx2_lpm_key_equal(gconstpointer a, gconstpointer b)
{
    return !memcmp(a, b, sizeof(SX2RouteKey));
}

void sx2_lpm_init(SwitchX2State *s)
{
    s->lpm.routes = g_hash_table_new_full(sx2_lpm_key_hash,
                                          sx2_lpm_key_equal, NULL, g_free);
}

void sx2_lpm_fini(SwitchX2State *s)
{
    if (s->lpm.routes) {
        g_hash_table_destroy(s->lpm.routes);
        s->lpm.routes = NULL;
    }
}

void sx2_lpm_reset(SwitchX2State *s)
{
    g_hash_table_remove_all(s->lpm.routes);
    s->lpm.count = 0;
    memset(s->lpm.tree, 0, sizeof(s->lpm.tree));
    memset(s->lpm.vr_tree, 0, sizeof(s->lpm.vr_tree));
    memset(s->lpm.plen_routes, 0, sizeof(s->lpm.plen_routes));
}

static bool sx2_lpm_proto_ok(const char *reg, unsigned proto)
{
    if (proto != SX2_L3_PROTO_IPV4 && proto != SX2_L3_PROTO_IPV6) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: protocol %u\n", reg,
                      proto);
        return false;
    }
    return true;
}

static SX2LpmTree *sx2_lpm_tree(SwitchX2State *s, const char *reg,
                                unsigned tree_id)
{
    if (tree_id < 1 || tree_id >= SX2_LPM_TREES) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: tree %u (1..%u)\n",
                      reg, tree_id, SX2_LPM_TREES - 1);
        return NULL;
    }
    return &s->lpm.tree[tree_id];
}

/* Whether a virtual router is bound to tree @tree_id */
static bool sx2_lpm_tree_bound(const SwitchX2State *s, unsigned tree_id)
{
    unsigned vr, proto;

    for (vr = 0; vr < SX2_MAX_VRS; vr++) {
        for (proto = 0; proto < 2; proto++) {
            if (s->lpm.vr_tree[vr][proto] == tree_id) {
                return true;
            }
        }
    }
    return false;
}

/*
 * RALTA - LPM tree allocation
 */
uint8_t sx2_reg_ralta(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned proto = sx2_fget(pl, SX2_REG_RALTA_PROTOCOL);
    unsigned tree_id = sx2_fget(pl, SX2_REG_RALTA_TREE_ID);
    SX2LpmTree *t = sx2_lpm_tree(s, "RALTA", tree_id);

    if (!t) {
        return BAD_PARAM;
    }
    if (!write) {
        sx2_fset(pl, SX2_REG_RALTA_OP, t->allocated ? SX2_RALTA_OP_ALLOCATE :
                                                      SX2_RALTA_OP_DEALLOCATE);
        sx2_fset(pl, SX2_REG_RALTA_PROTOCOL, t->proto);
        return OK;
    }
    if (!sx2_router_write_ok(s, "RALTA")) {
        return BAD_PARAM;
    }
    switch (sx2_fget(pl, SX2_REG_RALTA_OP)) {
    case SX2_RALTA_OP_ALLOCATE:
        if (!sx2_lpm_proto_ok("RALTA", proto)) {
            return BAD_PARAM;
        }
        if (t->allocated) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALTA: tree %u is "
                          "allocated already\n", tree_id);
            return BAD_PARAM;
        }
        memset(t, 0, sizeof(*t));
        t->allocated = true;
        t->proto = proto;
        t->root_bin = SX2_RALST_NO_BIN;
        break;
    case SX2_RALTA_OP_DEALLOCATE:
        if (sx2_lpm_tree_bound(s, tree_id)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALTA: tree %u is "
                          "bound to a virtual router (RALTB)\n", tree_id);
            return BAD_PARAM;
        }
        memset(t, 0, sizeof(*t));
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALTA: op %u\n",
                      sx2_fget(pl, SX2_REG_RALTA_OP));
        return BAD_PARAM;
    }
    trace_switchx2_lpm_tree(tree_id, t->allocated, t->proto);
    return OK;
}

/*
 * The bins reachable from @root in @left/@right, each at most once, as
 * a bitmap of prefix lengths; false if the structure is no tree.
 */
static bool sx2_lpm_walk_bins(const uint8_t *left, const uint8_t *right,
                              unsigned bin, unsigned depth,
                              unsigned long *bins)
{
    if (bin == SX2_RALST_NO_BIN) {
        return true;
    }
    if (bin < 1 || bin > SX2_RALST_BIN_COUNT || test_bit(bin, bins) ||
        depth > SX2_RALST_BIN_COUNT) {
        return false;
    }
    set_bit(bin, bins);
    return sx2_lpm_walk_bins(left, right, left[bin - 1], depth + 1, bins) &&
           sx2_lpm_walk_bins(left, right, right[bin - 1], depth + 1, bins);
}

/* A bin beyond the protocol's address, or one holding routes, lost */
static bool sx2_ralst_bins_ok(SwitchX2State *s, unsigned tree_id,
                              const SX2LpmTree *t, const unsigned long *bins)
{
    unsigned bits = sx2_lpm_addr_bits(t->proto);
    unsigned plen, vr;

    for (plen = bits + 1; plen <= SX2_RALST_BIN_COUNT; plen++) {
        if (test_bit(plen, bins)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALST: tree %u: bin "
                          "%u is longer than an address\n", tree_id, plen);
            return false;
        }
    }
    for (vr = 0; vr < SX2_MAX_VRS; vr++) {
        if (s->lpm.vr_tree[vr][t->proto] != tree_id) {
            continue;
        }
        for (plen = 1; plen <= bits; plen++) {
            if (s->lpm.plen_routes[vr][t->proto][plen] &&
                !test_bit(plen, bins)) {
                qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALST: tree %u "
                              "drops bin %u, which routes of virtual router "
                              "%u use\n", tree_id, plen, vr);
                return false;
            }
        }
    }
    return true;
}

/*
 * RALST - LPM tree structure: the root bin and each bin's children
 */
uint8_t sx2_reg_ralst(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned tree_id = sx2_fget(pl, SX2_REG_RALST_TREE_ID);
    SX2LpmTree *t = sx2_lpm_tree(s, "RALST", tree_id);
    DECLARE_BITMAP(bins, SX2_RALST_BIN_COUNT + 1);
    uint8_t left[SX2_RALST_BIN_COUNT], right[SX2_RALST_BIN_COUNT];
    unsigned root = sx2_fget(pl, SX2_REG_RALST_ROOT_BIN);
    unsigned i;

    if (!t) {
        return BAD_PARAM;
    }
    if (!write) {
        sx2_fset(pl, SX2_REG_RALST_ROOT_BIN, t->root_bin);
        for (i = 0; i < SX2_RALST_BIN_COUNT; i++) {
            pl[SX2_REG_RALST_BINS + 2 * i] = t->left[i];
            pl[SX2_REG_RALST_BINS + 2 * i + 1] = t->right[i];
        }
        return OK;
    }
    if (!t->allocated) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALST: tree %u is not "
                      "allocated\n", tree_id);
        return BAD_PARAM;
    }
    for (i = 0; i < SX2_RALST_BIN_COUNT; i++) {
        left[i] = pl[SX2_REG_RALST_BINS + 2 * i];
        right[i] = pl[SX2_REG_RALST_BINS + 2 * i + 1];
    }
    bitmap_zero(bins, SX2_RALST_BIN_COUNT + 1);
    if (!sx2_lpm_walk_bins(left, right, root, 0, bins)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALST: tree %u: the bins "
                      "from root %u are no tree\n", tree_id, root);
        return BAD_PARAM;
    }
    if (!sx2_ralst_bins_ok(s, tree_id, t, bins)) {
        return BAD_PARAM;
    }
    t->root_bin = root;
    memcpy(t->left, left, sizeof(left));
    memcpy(t->right, right, sizeof(right));
    bitmap_copy(t->bins, bins, SX2_RALST_BIN_COUNT + 1);
    trace_switchx2_lpm_tree_bins(tree_id, root, bitmap_count_one(bins,
                                 SX2_RALST_BIN_COUNT + 1));
    return OK;
}

/*
 * RALTB - binds a virtual router's IPv4 or IPv6 routes to a tree.
 * Tree 0 is the default tree: the default route alone.
 */
uint8_t sx2_reg_raltb(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned vr = sx2_fget(pl, SX2_REG_RALTB_VR);
    unsigned proto = sx2_fget(pl, SX2_REG_RALTB_PROTOCOL);
    unsigned tree_id = sx2_fget(pl, SX2_REG_RALTB_TREE_ID);
    unsigned plen;

    if (vr >= SX2_MAX_VRS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALTB: virtual router %u "
                      "(0..%u)\n", vr, SX2_MAX_VRS - 1);
        return BAD_PARAM;
    }
    if (!sx2_lpm_proto_ok("RALTB", proto)) {
        return BAD_PARAM;
    }
    if (!write) {
        sx2_fset(pl, SX2_REG_RALTB_TREE_ID, s->lpm.vr_tree[vr][proto]);
        return OK;
    }
    if (!sx2_router_write_ok(s, "RALTB")) {
        return BAD_PARAM;
    }
    if (tree_id) {
        SX2LpmTree *t = sx2_lpm_tree(s, "RALTB", tree_id);

        if (!t || !t->allocated || t->proto != proto) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALTB: tree %u is no "
                          "allocated tree of protocol %u\n", tree_id, proto);
            return BAD_PARAM;
        }
    }
    for (plen = 1; plen <= sx2_lpm_addr_bits(proto); plen++) {
        if (s->lpm.plen_routes[vr][proto][plen] &&
            (!tree_id || !test_bit(plen, s->lpm.tree[tree_id].bins))) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALTB: virtual router "
                          "%u has /%u routes, tree %u no such bin\n", vr,
                          plen, tree_id);
            return BAD_PARAM;
        }
    }
    s->lpm.vr_tree[vr][proto] = tree_id;
    trace_switchx2_lpm_bind(vr, proto, tree_id);
    return OK;
}

/* RALUE: what the model does not implement, refused with LOG_UNIMP */
static bool sx2_ralue_supported(const uint8_t *pl)
{
    unsigned type = sx2_fget(pl, SX2_REG_RALUE_ENTRY_TYPE);

    if (type != SX2_RALUE_ENTRY_ROUTE) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RALUE: entry_type %u: routes "
                      "(2) only, the device keeps its own markers\n", type);
        return false;
    }
    if (sx2_fget(pl, SX2_REG_RALUE_ACTION_TYPE) == SX2_RALUE_ACTION_IP2ME &&
        sx2_fget(pl, SX2_REG_RALUE_IP2ME_V)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RALUE: ip2me_v: no IP-in-IP "
                      "decapsulation\n");
        return false;
    }
    return true;
}

/* The route a RALUE write describes, checked; false: bad parameter */
static bool sx2_ralue_parse(SwitchX2State *s, const uint8_t *pl,
                            SX2Route *r)
{
    unsigned bits = sx2_lpm_addr_bits(r->key.proto);
    unsigned tree_id;

    r->action = sx2_fget(pl, SX2_REG_RALUE_ACTION_TYPE);
    r->trap_action = sx2_fget(pl, SX2_REG_RALUE_TRAP_ACTION);
    r->trap_id = sx2_fget(pl, SX2_REG_RALUE_TRAP_ID);
    if (r->key.plen > bits ||
        sx2_fget(pl, SX2_REG_RALUE_BMP_LEN) != r->key.plen) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: prefix /%u, "
                      "bmp_len %u\n", r->key.plen,
                      sx2_fget(pl, SX2_REG_RALUE_BMP_LEN));
        return false;
    }
    tree_id = s->lpm.vr_tree[r->key.vr][r->key.proto];
    if (r->key.plen && (!tree_id ||
                        !test_bit(r->key.plen, s->lpm.tree[tree_id].bins))) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: a /%u route of "
                      "virtual router %u: its tree %u has no such bin\n",
                      r->key.plen, r->key.vr, tree_id);
        return false;
    }
    if (r->trap_action != SX2_RTR_TRAP_NOP &&
        r->trap_action != SX2_RTR_TRAP_TRAP &&
        r->trap_action != SX2_RTR_TRAP_DISCARD_ERROR) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: trap_action %u\n",
                      r->trap_action);
        return false;
    }
    switch (r->action) {
    case SX2_RALUE_ACTION_REMOTE:
        r->adj_index = sx2_fget(pl, SX2_REG_RALUE_ADJ_INDEX);
        r->ecmp_size = sx2_fget(pl, SX2_REG_RALUE_ECMP_SIZE);
        if (r->trap_action == SX2_RTR_TRAP_NOP &&
            (r->ecmp_size < 1 || r->ecmp_size > SX2_ECMP_MAX ||
             r->adj_index + r->ecmp_size > SX2_ADJ_SIZE)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: adjacencies "
                          "%u..+%u (ECMP 1..%u of %u entries)\n",
                          r->adj_index, r->ecmp_size, SX2_ECMP_MAX,
                          SX2_ADJ_SIZE);
            return false;
        }
        return true;
    case SX2_RALUE_ACTION_LOCAL:
        r->local_erif = sx2_fget(pl, SX2_REG_RALUE_LOCAL_ERIF);
        if (r->trap_action == SX2_RTR_TRAP_NOP &&
            r->local_erif >= s->router.max_rifs) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: local RIF %u "
                          "does not exist\n", r->local_erif);
            return false;
        }
        return true;
    case SX2_RALUE_ACTION_IP2ME:
        return true;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: action_type %u\n",
                      r->action);
        return false;
    }
}

static void sx2_lpm_route_count(SwitchX2State *s, const SX2RouteKey *k,
                                int delta)
{
    s->lpm.plen_routes[k->vr][k->proto][k->plen] += delta;
    s->lpm.count += delta;
}

static void sx2_ralue_key(const uint8_t *pl, SX2RouteKey *k)
{
    memset(k, 0, sizeof(*k));
    k->vr = sx2_fget(pl, SX2_REG_RALUE_VR);
    k->proto = sx2_fget(pl, SX2_REG_RALUE_PROTOCOL);
    k->plen = sx2_fget(pl, SX2_REG_RALUE_PREFIX_LEN);
    if (k->proto == SX2_L3_PROTO_IPV4) {
        stl_be_p(k->addr, sx2_fget(pl, SX2_REG_RALUE_DIP4));
    } else {
        memcpy(k->addr, pl + SX2_REG_RALUE_DIP6, 16);
    }
}

static uint8_t sx2_ralue_write(SwitchX2State *s, const uint8_t *pl,
                               const SX2RouteKey *key)
{
    unsigned op = sx2_fget(pl, SX2_REG_RALUE_OP);
    SX2Route *old = g_hash_table_lookup(s->lpm.routes, key);
    SX2Route r = { .key = *key };

    switch (op) {
    case SX2_RALUE_OP_DELETE:
        if (old) {
            sx2_lpm_route_count(s, key, -1);
            g_hash_table_remove(s->lpm.routes, key);
            trace_switchx2_lpm_route_del(key->vr, key->proto, key->plen);
        }
        return OK;
    case SX2_RALUE_OP_WRITE:
        break;
    default:
        /* UPDATE (op_u_mask) and CLEAR_ACTIVITY: silent, not modelled */
        qemu_log_mask(LOG_UNIMP, "switchx2: RALUE: op %u: write (0) and "
                      "delete (3) only\n", op);
        return BAD_PARAM;
    }
    if (!sx2_ralue_supported(pl) || !sx2_ralue_parse(s, pl, &r)) {
        return BAD_PARAM;
    }
    if (!old && s->lpm.count >= SX2_LPM_SIZE) {
        trace_switchx2_lpm_full(key->vr, key->proto, key->plen);
        return SX2_EMAD_STATUS_RESOURCE_NOT_AVAIL;
    }
    if (old) {
        *old = r;
    } else {
        SX2Route *n = g_memdup2(&r, sizeof(r));

        g_hash_table_insert(s->lpm.routes, &n->key, n);
        sx2_lpm_route_count(s, key, 1);
    }
    trace_switchx2_lpm_route(key->vr, key->proto, key->plen, r.action,
                             r.trap_action);
    return OK;
}

/*
 * RALUE - LPM unicast routes, keyed by {virtual router, protocol,
 * prefix, prefix length}
 */
uint8_t sx2_reg_ralue(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2RouteKey key;
    SX2Route *r;

    sx2_ralue_key(pl, &key);
    if (key.vr >= SX2_MAX_VRS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: virtual router %u "
                      "(0..%u)\n", key.vr, SX2_MAX_VRS - 1);
        return BAD_PARAM;
    }
    if (!sx2_lpm_proto_ok("RALUE", key.proto) ||
        key.plen > sx2_lpm_addr_bits(key.proto)) {
        return BAD_PARAM;
    }
    sx2_lpm_mask(key.addr, key.plen);
    if (write) {
        return sx2_router_write_ok(s, "RALUE") ?
               sx2_ralue_write(s, pl, &key) : BAD_PARAM;
    }
    r = g_hash_table_lookup(s->lpm.routes, &key);
    if (!r) {
        return BAD_PARAM;
    }
    sx2_fset(pl, SX2_REG_RALUE_ENTRY_TYPE, SX2_RALUE_ENTRY_ROUTE);
    sx2_fset(pl, SX2_REG_RALUE_BMP_LEN, key.plen);
    sx2_fset(pl, SX2_REG_RALUE_ACTION_TYPE, r->action);
    sx2_fset(pl, SX2_REG_RALUE_TRAP_ACTION, r->trap_action);
    sx2_fset(pl, SX2_REG_RALUE_TRAP_ID, r->trap_id);
    if (r->action == SX2_RALUE_ACTION_REMOTE) {
        sx2_fset(pl, SX2_REG_RALUE_ADJ_INDEX, r->adj_index);
        sx2_fset(pl, SX2_REG_RALUE_ECMP_SIZE, r->ecmp_size);
    } else if (r->action == SX2_RALUE_ACTION_LOCAL) {
        sx2_fset(pl, SX2_REG_RALUE_LOCAL_ERIF, r->local_erif);
    }
    return OK;
}

/*
 * The route virtual router @vr has for @addr (@proto: 4 or 16 bytes in
 * network order), the longest prefix first; NULL if none.
 */
const SX2Route *sx2_lpm_lookup(SwitchX2State *s, unsigned vr,
                               unsigned proto, const uint8_t *addr)
{
    unsigned bits = sx2_lpm_addr_bits(proto);
    SX2RouteKey key;
    int plen;

    for (plen = bits; plen >= 0; plen--) {
        const SX2Route *r;

        if (!s->lpm.plen_routes[vr][proto][plen]) {
            continue;
        }
        memset(&key, 0, sizeof(key));
        key.vr = vr;
        key.proto = proto;
        key.plen = plen;
        memcpy(key.addr, addr, bits / 8);
        sx2_lpm_mask(key.addr, plen);
        r = g_hash_table_lookup(s->lpm.routes, &key);
        if (r) {
            return r;
        }
    }
    return NULL;
}
