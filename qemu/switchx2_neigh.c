/*
 * Mellanox SwitchX-2 switch ASIC emulation: next hops and neighbours
 *
 * RATR writes the adjacency table, the next hops remote routes point
 * at ("For SwitchX and SwitchX-2, the adjacency table is linear and
 * used for adjacency entries only", reg.h); RAUHT writes the unicast
 * host table, the neighbours local routes resolve through, by {RIF,
 * IP address}.  Both give the router a destination MAC and an egress
 * RIF, or a trap/discard action; the routing stage reads them with
 * sx2_adj_entry() and sx2_host_lookup() and marks them active.
 *
 * Ethernet adjacencies only (MPLS and IP-in-IP are reserved for
 * SwitchX/-2, IPoIB is an InfiniBand router's), no flow counters, no
 * mirroring trap actions (docs/switchx2-conformance.md).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/xxhash.h"
#include "qemu/guest-random.h"
#include "net/eth.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

/* Over every key byte and a seed, as the LPM's (switchx2_lpm.c) */
static uint32_t sx2_host_seed;

static guint sx2_host_key_hash(gconstpointer k)
{
    const SX2HostKey *key = k;

    return qemu_xxhash6(ldq_he_p(key->addr), ldq_he_p(key->addr + 8),
                        key->rif << 8 | key->proto, sx2_host_seed);
}

static gboolean sx2_host_key_equal(gconstpointer a, gconstpointer b)
{
    return !memcmp(a, b, sizeof(SX2HostKey));
}

void sx2_neigh_init(SwitchX2State *s)
{
    while (!sx2_host_seed) {
        qemu_guest_getrandom_nofail(&sx2_host_seed, sizeof(sx2_host_seed));
    }
    s->neigh.adj = g_new0(SX2Adj, SX2_ADJ_SIZE);
    s->neigh.hosts = g_hash_table_new_full(sx2_host_key_hash,
                                           sx2_host_key_equal, NULL, g_free);
}

void sx2_neigh_fini(SwitchX2State *s)
{
    g_free(s->neigh.adj);
    s->neigh.adj = NULL;
    if (s->neigh.hosts) {
        g_hash_table_destroy(s->neigh.hosts);
        s->neigh.hosts = NULL;
    }
}

void sx2_neigh_reset(SwitchX2State *s)
{
    memset(s->neigh.adj, 0, sizeof(SX2Adj) * SX2_ADJ_SIZE);
    g_hash_table_remove_all(s->neigh.hosts);
    memset(&s->neigh.dump, 0, sizeof(s->neigh.dump));
}

/* Trap actions the router implements: forward, trap, discard */
static bool sx2_rtr_trap_action_ok(const char *reg, unsigned action)
{
    if (action == SX2_RTR_TRAP_MIRROR_TO_CPU ||
        action == SX2_RTR_TRAP_MIRROR) {
        qemu_log_mask(LOG_UNIMP, "switchx2: %s: trap_action %u: no "
                      "mirroring from the router\n", reg, action);
        return false;
    }
    if (action != SX2_RTR_TRAP_NOP && action != SX2_RTR_TRAP_TRAP &&
        action != SX2_RTR_TRAP_DISCARD_ERROR) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: trap_action %u\n",
                      reg, action);
        return false;
    }
    return true;
}

/*
 * A next hop's or neighbour's trap ID: "Trap-ID is RTR_EGRESS0 or
 * RTR_EGRESS1" (reg.h RATR and RAUHT trap_id); reserved, and not read,
 * unless the entry traps.
 */
static bool sx2_rtr_egress_trap_id_ok(const char *reg, unsigned action,
                                      unsigned trap_id)
{
    if (action == SX2_RTR_TRAP_TRAP && trap_id != SX2_TRAP_RTR_EGRESS0 &&
        trap_id != SX2_TRAP_RTR_EGRESS1) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: trap_id 0x%x "
                      "(RTR_EGRESS0 0x%x or RTR_EGRESS1 0x%x)\n", reg, trap_id,
                      SX2_TRAP_RTR_EGRESS0, SX2_TRAP_RTR_EGRESS1);
        return false;
    }
    return true;
}

/* A RIF a next hop or neighbour may leave by */
static bool sx2_neigh_rif_ok(SwitchX2State *s, const char *reg,
                             unsigned rif)
{
    if (rif >= s->router.max_rifs || !s->router.rif[rif].valid) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: RIF %u does not "
                      "exist\n", reg, rif);
        return false;
    }
    return true;
}

static bool sx2_neigh_mac_ok(const char *reg, const uint8_t *mac)
{
    if (!is_unicast_ether_addr(mac)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: %02x:%02x:%02x:%02x:"
                      "%02x:%02x is no unicast MAC\n", reg, mac[0], mac[1],
                      mac[2], mac[3], mac[4], mac[5]);
        return false;
    }
    return true;
}

/* RATR: what SwitchX-2 (or the model) lacks, refused with LOG_UNIMP */
static bool sx2_ratr_supported(const uint8_t *pl)
{
    unsigned type = sx2_fget(pl, SX2_REG_RATR_TYPE);

    if (type != SX2_RATR_TYPE_ETHERNET) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RATR: type %u: Ethernet "
                      "adjacencies only (MPLS and IP-in-IP reserved for "
                      "SwitchX-2, IPoIB not modelled)\n", type);
        return false;
    }
    if (sx2_fget(pl, SX2_REG_RATR_CNT_TYPE)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RATR: counter_set_type %u: no "
                      "flow counters\n", sx2_fget(pl, SX2_REG_RATR_CNT_TYPE));
        return false;
    }
    return sx2_rtr_trap_action_ok("RATR",
                                  sx2_fget(pl, SX2_REG_RATR_TRAP_ACTION)) &&
           sx2_rtr_egress_trap_id_ok("RATR",
                                     sx2_fget(pl, SX2_REG_RATR_TRAP_ACTION),
                                     sx2_fget(pl, SX2_REG_RATR_TRAP_ID));
}

static uint8_t sx2_ratr_write(SwitchX2State *s, const uint8_t *pl,
                              SX2Adj *adj, unsigned index)
{
    SX2Adj n = { 0 };

    if (sx2_fget(pl, SX2_REG_RATR_OP) != SX2_RATR_OP_WRITE) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RATR: op %u: write (1) only, "
                      "no activity\n", sx2_fget(pl, SX2_REG_RATR_OP));
        return BAD_PARAM;
    }
    if (!sx2_ratr_supported(pl)) {
        return BAD_PARAM;
    }
    n.valid = sx2_fget(pl, SX2_REG_RATR_V);
    n.trap_action = sx2_fget(pl, SX2_REG_RATR_TRAP_ACTION);
    n.trap_id = sx2_fget(pl, SX2_REG_RATR_TRAP_ID);
    n.erif = sx2_fget(pl, SX2_REG_RATR_ERIF);
    memcpy(n.dmac, pl + SX2_REG_RATR_DMAC, 6);
    if (n.valid && n.trap_action == SX2_RTR_TRAP_NOP &&
        (!sx2_neigh_rif_ok(s, "RATR", n.erif) ||
         !sx2_neigh_mac_ok("RATR", n.dmac))) {
        return BAD_PARAM;
    }
    *adj = n;
    trace_switchx2_adj(index, n.valid, n.erif, n.trap_action);
    return OK;
}

/*
 * RATR - the adjacency table, by 24-bit index
 */
uint8_t sx2_reg_ratr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned index = sx2_fget(pl, SX2_REG_RATR_ADJ_HIGH) << 16 |
                     sx2_fget(pl, SX2_REG_RATR_ADJ_LOW);
    unsigned op = sx2_fget(pl, SX2_REG_RATR_OP);
    SX2Adj *adj;

    if (index >= SX2_ADJ_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RATR: adjacency %u (0..%u)"
                      "\n", index, SX2_ADJ_SIZE - 1);
        return BAD_PARAM;
    }
    adj = &s->neigh.adj[index];
    if (write) {
        return sx2_router_write_ok(s, "RATR") ?
               sx2_ratr_write(s, pl, adj, index) : BAD_PARAM;
    }
    if (op != SX2_RATR_OP_READ && op != SX2_RATR_OP_READ_CLEAR) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RATR: query op %u\n", op);
        return BAD_PARAM;
    }
    sx2_fset(pl, SX2_REG_RATR_V, adj->valid);
    sx2_fset(pl, SX2_REG_RATR_A, adj->active);
    sx2_fset(pl, SX2_REG_RATR_TYPE, SX2_RATR_TYPE_ETHERNET);
    sx2_fset(pl, SX2_REG_RATR_ERIF, adj->erif);
    sx2_fset(pl, SX2_REG_RATR_TRAP_ACTION, adj->trap_action);
    sx2_fset(pl, SX2_REG_RATR_TRAP_ID, adj->trap_id);
    memcpy(pl + SX2_REG_RATR_DMAC, adj->dmac, 6);
    if (op == SX2_RATR_OP_READ_CLEAR) {
        adj->active = false;
    }
    return OK;
}

/* The adjacency @index (below SX2_ADJ_SIZE), marked active */
SX2Adj *sx2_adj_entry(SwitchX2State *s, unsigned index)
{
    SX2Adj *adj = &s->neigh.adj[index];

    adj->active = true;
    return adj;
}

static void sx2_rauht_key(const uint8_t *pl, SX2HostKey *k)
{
    memset(k, 0, sizeof(*k));
    k->rif = sx2_fget(pl, SX2_REG_RAUHT_RIF);
    k->proto = sx2_fget(pl, SX2_REG_RAUHT_TYPE);
    if (k->proto == SX2_L3_PROTO_IPV4) {
        stl_be_p(k->addr, sx2_fget(pl, SX2_REG_RAUHT_DIP4));
    } else {
        memcpy(k->addr, pl + SX2_REG_RAUHT_DIP6, 16);
    }
}

/* How many neighbours (RAUHT entries) RIF @rif has */
unsigned sx2_host_rif_count(SwitchX2State *s, unsigned rif)
{
    GHashTableIter it;
    SX2Host *h;
    unsigned n = 0;

    g_hash_table_iter_init(&it, s->neigh.hosts);
    while (g_hash_table_iter_next(&it, NULL, (gpointer *)&h)) {
        n += h->key.rif == rif;
    }
    return n;
}

/* RAUHT DELETE_ALL: every neighbour of one RIF */
static void sx2_host_delete_rif(SwitchX2State *s, unsigned rif)
{
    GHashTableIter it;
    SX2Host *h;

    g_hash_table_iter_init(&it, s->neigh.hosts);
    while (g_hash_table_iter_next(&it, NULL, (gpointer *)&h)) {
        if (h->key.rif == rif) {
            g_hash_table_iter_remove(&it);
        }
    }
}

/*
 * RAUHT ADD ("a new entry ... Activity bit is set for new entries"; an
 * add of an existing entry replaces it, keeping its activity, as
 * Spectrum re-adds a neighbour whose MAC changed) and UPDATE ("update an
 * existing route entry": of an entry that does not exist, refused)
 */
static uint8_t sx2_rauht_add(SwitchX2State *s, const uint8_t *pl,
                             const SX2HostKey *key, bool update)
{
    SX2Host *h = g_hash_table_lookup(s->neigh.hosts, key);
    SX2Host n = { .key = *key, .active = true };

    if (sx2_fget(pl, SX2_REG_RAUHT_CNT_TYPE)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RAUHT: counter_set_type %u: no "
                      "flow counters\n", sx2_fget(pl, SX2_REG_RAUHT_CNT_TYPE));
        return BAD_PARAM;
    }
    n.trap_action = sx2_fget(pl, SX2_REG_RAUHT_TRAP_ACTION);
    n.trap_id = sx2_fget(pl, SX2_REG_RAUHT_TRAP_ID);
    memcpy(n.mac, pl + SX2_REG_RAUHT_MAC, 6);
    if (!sx2_rtr_trap_action_ok("RAUHT", n.trap_action) ||
        !sx2_rtr_egress_trap_id_ok("RAUHT", n.trap_action, n.trap_id) ||
        !sx2_neigh_rif_ok(s, "RAUHT", key->rif) ||
        (n.trap_action == SX2_RTR_TRAP_NOP &&
         !sx2_neigh_mac_ok("RAUHT", n.mac))) {
        return BAD_PARAM;
    }
    if (update && !h) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RAUHT: update of a "
                      "neighbour on RIF %u that does not exist\n", key->rif);
        return BAD_PARAM;
    }
    if (h) {
        n.active = h->active;
        *h = n;
    } else if (g_hash_table_size(s->neigh.hosts) >= SX2_HOST_SIZE) {
        trace_switchx2_host_full(key->rif);
        return SX2_EMAD_STATUS_RESOURCE_NOT_AVAIL;
    } else {
        h = g_memdup2(&n, sizeof(n));
        g_hash_table_insert(s->neigh.hosts, &h->key, h);
    }
    trace_switchx2_host(key->rif, key->proto, n.trap_action);
    return OK;
}

static uint8_t sx2_rauht_write(SwitchX2State *s, const uint8_t *pl,
                               const SX2HostKey *key)
{
    unsigned op = sx2_fget(pl, SX2_REG_RAUHT_OP);
    SX2Host *h = g_hash_table_lookup(s->neigh.hosts, key);

    if (op == SX2_RAUHT_OP_ADD || op == SX2_RAUHT_OP_UPDATE) {
        return sx2_rauht_add(s, pl, key, op == SX2_RAUHT_OP_UPDATE);
    }
    if (op == SX2_RAUHT_OP_DELETE_ALL) {
        /* "In this command, dip field is reserved": none is no error */
        sx2_host_delete_rif(s, key->rif);
        return OK;
    }
    if (op != SX2_RAUHT_OP_CLEAR_ACTIVITY && op != SX2_RAUHT_OP_DELETE) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RAUHT: op %u\n", op);
        return BAD_PARAM;
    }
    if (!h) {
        /* Silent for RAUHT; RALUE's words: "the operation fails" */
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RAUHT: %s of a neighbour "
                      "on RIF %u that does not exist\n",
                      op == SX2_RAUHT_OP_DELETE ? "delete" : "clear activity",
                      key->rif);
        return BAD_PARAM;
    }
    if (op == SX2_RAUHT_OP_DELETE) {
        g_hash_table_remove(s->neigh.hosts, key);
    } else {
        h->active = false;
    }
    return OK;
}

/*
 * RAUHT - the unicast host table, by {RIF, IPv4 or IPv6 address}
 */
uint8_t sx2_reg_rauht(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2HostKey key;
    SX2Host *h;

    sx2_rauht_key(pl, &key);
    if (key.proto != SX2_L3_PROTO_IPV4 && key.proto != SX2_L3_PROTO_IPV6) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RAUHT: type %u\n",
                      key.proto);
        return BAD_PARAM;
    }
    if (write) {
        return sx2_router_write_ok(s, "RAUHT") ?
               sx2_rauht_write(s, pl, &key) : BAD_PARAM;
    }
    h = g_hash_table_lookup(s->neigh.hosts, &key);
    if (!h) {
        return BAD_PARAM;
    }
    sx2_fset(pl, SX2_REG_RAUHT_A, h->active);
    sx2_fset(pl, SX2_REG_RAUHT_TRAP_ACTION, h->trap_action);
    sx2_fset(pl, SX2_REG_RAUHT_TRAP_ID, h->trap_id);
    memcpy(pl + SX2_REG_RAUHT_MAC, h->mac, 6);
    /* Query op 1 is CLEAR_ON_READ */
    if (sx2_fget(pl, SX2_REG_RAUHT_OP) == 1) {
        h->active = false;
    }
    return OK;
}

/* The neighbour @addr of RIF @rif, marked active; NULL if unknown */
SX2Host *sx2_host_lookup(SwitchX2State *s, unsigned rif, unsigned proto,
                         const uint8_t *addr)
{
    SX2HostKey key = { .rif = rif, .proto = proto };
    SX2Host *h;

    memcpy(key.addr, addr, proto == SX2_L3_PROTO_IPV4 ? 4 : 16);
    h = g_hash_table_lookup(s->neigh.hosts, &key);
    if (h) {
        h->active = true;
    }
    return h;
}

/* Neighbours in a stable order (that of their keys' bytes) */
gint sx2_host_key_cmp(gconstpointer a, gconstpointer b)
{
    return memcmp(a, b, sizeof(SX2HostKey));
}

/* g_ptr_array_sort() of SX2Host pointers, in key order */
static gint sx2_host_ptr_cmp(gconstpointer a, gconstpointer b)
{
    const SX2Host *const *ha = a, *const *hb = b;

    return sx2_host_key_cmp(&(*ha)->key, &(*hb)->key);
}

/* Whether a RAUHTD request's filters take @h */
static bool sx2_rauhtd_takes(const uint8_t *pl, const SX2Host *h)
{
    unsigned filter = sx2_fget(pl, SX2_REG_RAUHTD_FILTER_FIELDS);

    if (h->key.proto != sx2_fget(pl, SX2_REG_RAUHTD_TYPE)) {
        return false;
    }
    if ((filter & SX2_RAUHTD_FILTER_A) &&
        h->active != sx2_fget(pl, SX2_REG_RAUHTD_ENTRY_A)) {
        return false;
    }
    return !(filter & SX2_RAUHTD_FILTER_RIF) ||
           h->key.rif == sx2_fget(pl, SX2_REG_RAUHTD_ENTRY_RIF);
}

/* Entry @e of record @rec of a RAUHTD answer: @h */
static void sx2_rauhtd_put(uint8_t *pl, unsigned rec, unsigned e,
                           const SX2Host *h)
{
    uint8_t *r = pl + SX2_RAUHTD_REC_OFF + rec * SX2_RAUHTD_REC_LEN;
    uint8_t *ent = r + e * SX2_RAUHTD_IPV4_ENT_LEN;

    sx2_fset(r, SX2_RAUHTD_REC_TYPE, h->key.proto);
    sx2_fset(r, SX2_RAUHTD_REC_NUM_ENTRIES, e);
    sx2_fset(ent, SX2_RAUHTD_ENT_A, h->active);
    sx2_fset(ent, SX2_RAUHTD_ENT_RIF, h->key.rif);
    if (h->key.proto == SX2_L3_PROTO_IPV4) {
        sx2_fset(ent, SX2_RAUHTD_IPV4_ENT_DIP, ldl_be_p(h->key.addr));
    } else {
        memcpy(r + SX2_RAUHTD_IPV6_ENT_DIP, h->key.addr, 16);
    }
}

/* Whether @k comes after the open dump session's last entry */
static bool sx2_rauhtd_after_cursor(const SX2RauhtdSession *d,
                                    const SX2HostKey *k)
{
    return !d->have_last || sx2_host_key_cmp(k, &d->last) > 0;
}

/*
 * The dump session a RAUHTD query continues.  reg.h: "For a given
 * session an entry is dumped no more than one time. The first RAUHTD
 * access after reset is a new session. A session ends when the num_rec
 * response is smaller than num_rec request or for IPv4 when the
 * num_entries is smaller than 4."  A query of the other type than the
 * open session's starts a new one (silent: assumed, as Spectrum dumps
 * one type to its end, then the other).
 */
static SX2RauhtdSession *sx2_rauhtd_session(SwitchX2State *s, unsigned type)
{
    SX2RauhtdSession *d = &s->neigh.dump;

    if (!d->open || d->type != type) {
        memset(d, 0, sizeof(*d));
        d->open = true;
        d->type = type;
        trace_switchx2_rauhtd_session(type);
    }
    return d;
}

/*
 * RAUHTD - a dump of the neighbours the filters take (the driver asks
 * for the active ones, and clears them as they are dumped, to keep used
 * neighbours alive): up to num_rec records, IPv4 four entries a record,
 * IPv6 one, in the order of their keys, each from where the session's
 * last answer stopped.  A short answer ends the session.
 */
uint8_t sx2_reg_rauhtd(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned type = sx2_fget(pl, SX2_REG_RAUHTD_TYPE);
    unsigned op = sx2_fget(pl, SX2_REG_RAUHTD_OP);
    unsigned max = sx2_fget(pl, SX2_REG_RAUHTD_NUM_REC);
    unsigned per_rec = type == SX2_L3_PROTO_IPV4 ? SX2_RAUHTD_IPV4_PER_REC
                                                 : 1;
    g_autoptr(GPtrArray) todo = g_ptr_array_new();
    SX2RauhtdSession *d;
    GHashTableIter it;
    SX2Host *h;
    unsigned i, n;

    if (write) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RAUHTD is query only\n");
        return BAD_PARAM;
    }
    if ((type != SX2_L3_PROTO_IPV4 && type != SX2_L3_PROTO_IPV6) ||
        (op != SX2_RAUHTD_OP_DUMP && op != SX2_RAUHTD_OP_DUMP_AND_CLEAR) ||
        max > SX2_RAUHTD_REC_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RAUHTD: type %u op %u "
                      "num_rec %u\n", type, op, max);
        return BAD_PARAM;
    }
    d = sx2_rauhtd_session(s, type);
    memset(pl + SX2_RAUHTD_REC_OFF, 0,
           SX2_REG_RAUHTD_LEN - SX2_RAUHTD_REC_OFF);
    g_hash_table_iter_init(&it, s->neigh.hosts);
    while (g_hash_table_iter_next(&it, NULL, (gpointer *)&h)) {
        if (sx2_rauhtd_takes(pl, h) && sx2_rauhtd_after_cursor(d, &h->key)) {
            g_ptr_array_add(todo, h);
        }
    }
    g_ptr_array_sort(todo, sx2_host_ptr_cmp);
    n = MIN(todo->len, max * per_rec);
    for (i = 0; i < n; i++) {
        h = g_ptr_array_index(todo, i);
        sx2_rauhtd_put(pl, i / per_rec, i % per_rec, h);
        if (op == SX2_RAUHTD_OP_DUMP_AND_CLEAR) {
            h->active = false;
        }
    }
    if (n) {
        d->last = ((SX2Host *)g_ptr_array_index(todo, n - 1))->key;
        d->have_last = true;
    }
    if (n < max * per_rec) {
        d->open = false;
    }
    sx2_fset(pl, SX2_REG_RAUHTD_NUM_REC, DIV_ROUND_UP(n, per_rec));
    trace_switchx2_rauhtd(type, n, d->open);
    return OK;
}
