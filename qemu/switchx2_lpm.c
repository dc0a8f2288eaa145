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
#include "qemu/guest-random.h"
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

/*
 * The key hash: over every byte of the key and a seed drawn at the first
 * realize (qemu_guest_getrandom, reproducible with -seed).  No two keys
 * fold into one value by construction, and a guest that cannot know the
 * seed cannot choose routes that share a bucket and make each lookup
 * walk them all.  GHashTable's hash has no user data: one seed for
 * every device.
 */
static uint32_t sx2_lpm_seed;

static guint sx2_lpm_key_hash(gconstpointer k)
{
    const SX2RouteKey *key = k;

    return qemu_xxhash6(ldq_he_p(key->addr), ldq_he_p(key->addr + 8),
                        key->vr << 16 | key->proto << 8 | key->plen,
                        sx2_lpm_seed);
}

static gboolean sx2_lpm_key_equal(gconstpointer a, gconstpointer b)
{
    return !memcmp(a, b, sizeof(SX2RouteKey));
}

void sx2_lpm_init(SwitchX2State *s)
{
    while (!sx2_lpm_seed) {
        qemu_guest_getrandom_nofail(&sx2_lpm_seed, sizeof(sx2_lpm_seed));
    }
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
 * The bins reachable from @bin in @left/@right as a bitmap of prefix
 * lengths; false if the structure is no sorted binary tree ("The
 * structure of the tree must be sorted as a sorted binary tree", reg.h
 * RALST): every bin of a node's left subtree shorter than the node,
 * every bin of its right subtree longer, each bin once.  Every bin lies
 * strictly between @lo and @hi, so each level narrows the range and the
 * walk ends within SX2_RALST_BIN_COUNT levels.
 */
static bool sx2_lpm_walk_bins(const uint8_t *left, const uint8_t *right,
                              unsigned bin, unsigned lo, unsigned hi,
                              unsigned long *bins)
{
    if (bin == SX2_RALST_NO_BIN) {
        return true;
    }
    if (bin < 1 || bin > SX2_RALST_BIN_COUNT || bin <= lo || bin >= hi ||
        test_bit(bin, bins)) {
        return false;
    }
    set_bit(bin, bins);
    return sx2_lpm_walk_bins(left, right, left[bin - 1], lo, bin, bins) &&
           sx2_lpm_walk_bins(left, right, right[bin - 1], bin, hi, bins);
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
    /*
     * Root bin 0 is the default action alone: a tree with no bins, as
     * Spectrum writes one whose only prefix length is 0 (its root is
     * the longest length used); reg.h's own word for it is 0xff.
     */
    if (root && !sx2_lpm_walk_bins(left, right, root, 0,
                                   SX2_RALST_BIN_COUNT + 1, bins)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALST: tree %u: the bins "
                      "from root %u are no sorted binary tree (each left "
                      "child shorter, each right child longer, each bin "
                      "once)\n", tree_id, root);
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
    unsigned trap_action = sx2_fget(pl, SX2_REG_RALUE_TRAP_ACTION);

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
    if (trap_action == SX2_RTR_TRAP_MIRROR_TO_CPU ||
        trap_action == SX2_RTR_TRAP_MIRROR) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RALUE: trap_action %u: no "
                      "mirroring from the router\n", trap_action);
        return false;
    }
    return true;
}

/*
 * ECMP sizes reg.h allows: "The valid range is 1-64, 512, 1024, 2048
 * and 4096" (RALUE ecmp_size, v4.14 and v6.1).
 */
static bool sx2_lpm_ecmp_size_ok(unsigned size)
{
    return (size >= 1 && size <= SX2_ECMP_MAX) || size == 512 ||
           size == 1024 || size == 2048 || size == 4096;
}

/* A block of next hops @adj_index .. + @size - 1 a route may point at */
static bool sx2_lpm_ecmp_ok(const char *reg, uint32_t adj_index,
                            unsigned size)
{
    if (!sx2_lpm_ecmp_size_ok(size) ||
        adj_index + size > SX2_ADJ_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: adjacencies %u..+%u "
                      "(ECMP 1..%u, 512, 1024, 2048 or 4096 of %u "
                      "entries)\n", reg, adj_index, size, SX2_ECMP_MAX,
                      SX2_ADJ_SIZE);
        return false;
    }
    return true;
}

/*
 * The trap action and ID of a route: IP2ME takes "only NOP and MIRROR"
 * (the model has no mirror: NOP), a route that traps reports
 * "RTR_INGRESS0 or RTR_INGRESS1" (reg.h RALUE trap_action, trap_id).
 * For the other actions trap_id is reserved and not read.
 */
static bool sx2_ralue_trap_ok(const SX2Route *r)
{
    if (r->trap_action != SX2_RTR_TRAP_NOP &&
        r->trap_action != SX2_RTR_TRAP_TRAP &&
        r->trap_action != SX2_RTR_TRAP_DISCARD_ERROR) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: trap_action %u\n",
                      r->trap_action);
        return false;
    }
    if (r->action == SX2_RALUE_ACTION_IP2ME &&
        r->trap_action != SX2_RTR_TRAP_NOP) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: IP2ME with "
                      "trap_action %u (only NOP and MIRROR)\n",
                      r->trap_action);
        return false;
    }
    if (r->trap_action == SX2_RTR_TRAP_TRAP &&
        r->trap_id != SX2_TRAP_RTR_INGRESS0 &&
        r->trap_id != SX2_TRAP_RTR_INGRESS1) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: trap_id 0x%x (a "
                      "route traps with RTR_INGRESS0 0x%x or RTR_INGRESS1 "
                      "0x%x)\n", r->trap_id, SX2_TRAP_RTR_INGRESS0,
                      SX2_TRAP_RTR_INGRESS1);
        return false;
    }
    return true;
}

/* The route a RALUE write describes, checked; false: bad parameter */
static bool sx2_ralue_parse(SwitchX2State *s, const uint8_t *pl,
                            SX2Route *r)
{
    unsigned tree_id;

    r->action = sx2_fget(pl, SX2_REG_RALUE_ACTION_TYPE);
    r->trap_action = sx2_fget(pl, SX2_REG_RALUE_TRAP_ACTION);
    r->trap_id = sx2_fget(pl, SX2_REG_RALUE_TRAP_ID);
    if (sx2_fget(pl, SX2_REG_RALUE_BMP_LEN) != r->key.plen) {
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
    if (r->action > SX2_RALUE_ACTION_IP2ME) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: action_type %u\n",
                      r->action);
        return false;
    }
    if (!sx2_ralue_trap_ok(r)) {
        return false;
    }
    switch (r->action) {
    case SX2_RALUE_ACTION_REMOTE:
        r->adj_index = sx2_fget(pl, SX2_REG_RALUE_ADJ_INDEX);
        r->ecmp_size = sx2_fget(pl, SX2_REG_RALUE_ECMP_SIZE);
        /* "Reserved when trap_action is TRAP or DISCARD_ERROR" */
        return r->trap_action != SX2_RTR_TRAP_NOP ||
               sx2_lpm_ecmp_ok("RALUE", r->adj_index, r->ecmp_size);
    case SX2_RALUE_ACTION_LOCAL:
        r->local_erif = sx2_fget(pl, SX2_REG_RALUE_LOCAL_ERIF);
        if (r->trap_action == SX2_RTR_TRAP_NOP &&
            r->local_erif >= s->router.max_rifs) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: local RIF %u "
                          "does not exist\n", r->local_erif);
            return false;
        }
        return true;
    default:
        return true;
    }
}

/*
 * The LPM entries a route takes: "for IPv6 prefixes, if prefix_len>64
 * the entry consumes two entries in the physical HW table" (reg.h RALUE
 * prefix_len, v4.14 and v6.1).
 */
static unsigned sx2_lpm_route_cost(const SX2RouteKey *k)
{
    return k->proto == SX2_L3_PROTO_IPV6 && k->plen > 64 ? 2 : 1;
}

static void sx2_lpm_route_count(SwitchX2State *s, const SX2RouteKey *k,
                                int delta)
{
    s->lpm.plen_routes[k->vr][k->proto][k->plen] += delta;
    s->lpm.count += delta * (int)sx2_lpm_route_cost(k);
}

/* The key of a RALUE request; false if its prefix is no valid key */
static bool sx2_ralue_key(const uint8_t *pl, SX2RouteKey *k)
{
    uint8_t masked[16];

    memset(k, 0, sizeof(*k));
    k->vr = sx2_fget(pl, SX2_REG_RALUE_VR);
    k->proto = sx2_fget(pl, SX2_REG_RALUE_PROTOCOL);
    k->plen = sx2_fget(pl, SX2_REG_RALUE_PREFIX_LEN);
    if (k->vr >= SX2_MAX_VRS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: virtual router %u "
                      "(0..%u)\n", k->vr, SX2_MAX_VRS - 1);
        return false;
    }
    if (!sx2_lpm_proto_ok("RALUE", k->proto)) {
        return false;
    }
    if (k->plen > sx2_lpm_addr_bits(k->proto)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: prefix /%u is "
                      "longer than an address\n", k->plen);
        return false;
    }
    if (k->proto == SX2_L3_PROTO_IPV4) {
        /* dip[127:32] are reserved */
        stl_be_p(k->addr, sx2_fget(pl, SX2_REG_RALUE_DIP4));
    } else {
        memcpy(k->addr, pl + SX2_REG_RALUE_DIP6, 16);
    }
    /* "The least significant bits must be '0'": refused, not masked */
    memcpy(masked, k->addr, 16);
    sx2_lpm_mask(masked, k->plen);
    if (memcmp(masked, k->addr, 16)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: a /%u prefix with "
                      "bits set past its length\n", k->plen);
        return false;
    }
    return true;
}

static uint8_t sx2_ralue_write(SwitchX2State *s, const uint8_t *pl,
                               const SX2RouteKey *key)
{
    unsigned op = sx2_fget(pl, SX2_REG_RALUE_OP);
    SX2Route *old = g_hash_table_lookup(s->lpm.routes, key);
    SX2Route r = { .key = *key };

    switch (op) {
    case SX2_RALUE_OP_DELETE:
        if (!old) {
            /* "If entry doesn't exist, the operation fails" */
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALUE: delete of a "
                          "/%u route of virtual router %u that does not "
                          "exist\n", key->plen, key->vr);
            return BAD_PARAM;
        }
        sx2_lpm_route_count(s, key, -1);
        g_hash_table_remove(s->lpm.routes, key);
        trace_switchx2_lpm_route_del(key->vr, key->proto, key->plen);
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
    if (!old && s->lpm.count + sx2_lpm_route_cost(key) > s->lpm_size) {
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

    if (!sx2_ralue_key(pl, &key)) {
        return BAD_PARAM;
    }
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
 * RALEU - "updating the ECMP section in the action for multiple LPM
 * Unicast entries in a single operation ... all entries of a {virtual
 * router, protocol} tuple using the same ECMP group" (reg.h v4.14,
 * v6.1): every remote route of the tuple that forwards (trap action
 * NOP) through adjacency_index/ecmp_size moves to new_adjacency_index/
 * new_ecmp_size.  Write only; the new block is checked as RALUE checks
 * one; no route matching is no error (Spectrum sends it for every
 * virtual router of a group).
 */
uint8_t sx2_reg_raleu(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned proto = sx2_fget(pl, SX2_REG_RALEU_PROTOCOL);
    unsigned vr = sx2_fget(pl, SX2_REG_RALEU_VR);
    uint32_t adj = sx2_fget(pl, SX2_REG_RALEU_ADJ_INDEX);
    unsigned size = sx2_fget(pl, SX2_REG_RALEU_ECMP_SIZE);
    uint32_t new_adj = sx2_fget(pl, SX2_REG_RALEU_NEW_ADJ_INDEX);
    unsigned new_size = sx2_fget(pl, SX2_REG_RALEU_NEW_ECMP_SIZE);
    GHashTableIter it;
    SX2Route *r;
    unsigned n = 0;

    if (!write) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALEU is write only\n");
        return BAD_PARAM;
    }
    if (!sx2_router_write_ok(s, "RALEU") ||
        !sx2_lpm_proto_ok("RALEU", proto)) {
        return BAD_PARAM;
    }
    if (vr >= SX2_MAX_VRS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RALEU: virtual router %u "
                      "(0..%u)\n", vr, SX2_MAX_VRS - 1);
        return BAD_PARAM;
    }
    if (!sx2_lpm_ecmp_ok("RALEU", new_adj, new_size)) {
        return BAD_PARAM;
    }
    g_hash_table_iter_init(&it, s->lpm.routes);
    while (g_hash_table_iter_next(&it, NULL, (gpointer *)&r)) {
        if (r->key.vr == vr && r->key.proto == proto &&
            r->action == SX2_RALUE_ACTION_REMOTE &&
            r->trap_action == SX2_RTR_TRAP_NOP &&
            r->adj_index == adj && r->ecmp_size == size) {
            r->adj_index = new_adj;
            r->ecmp_size = new_size;
            n++;
        }
    }
    trace_switchx2_lpm_ecmp_update(vr, proto, adj, size, new_adj, new_size,
                                   n);
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
