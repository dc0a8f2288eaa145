/*
 * Mellanox SwitchX-2 switch ASIC emulation: filtering database
 *
 * The FDB maps {MAC, FID} to a local port.  Entries live in a fixed
 * array of fdb-size slots; a hash table indexes them by key.  The slot
 * index doubles as the SFD dump record locator: entries never move
 * between slots, so a dump that walks the slots in order never returns
 * an entry twice.
 *
 * Learning adds dynamic entries and queues LEARNED_MAC notifications,
 * a once-a-second timer ages dynamic entries out and queues
 * AGED_OUT_MAC notifications; SFN hands the queue to the driver.
 *
 * Registers: SFD (add, remove, dump), SFN (notifications), SFDAT
 * (ageing time), SFDF (flush).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "net/eth.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

static uint64_t sx2_fdb_key(const uint8_t *mac, uint16_t fid)
{
    uint64_t key = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        key = (key << 8) | mac[i];
    }
    return (key << 16) | fid;
}

static uint64_t sx2_key_mac(uint64_t key)
{
    return key >> 16;
}

static uint16_t sx2_key_fid(uint64_t key)
{
    return key & 0xFFFF;
}

static void sx2_key_mac_bytes(uint64_t key, uint8_t *mac)
{
    unsigned i;

    for (i = 0; i < 6; i++) {
        mac[i] = key >> (8 * (7 - i));
    }
}

static int64_t sx2_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/*
 * Notification queue.  LEARNED_MAC records are controlled learning:
 * the device never installs a learned entry itself, it raises one
 * record per {MAC, FID} and waits for the driver's SFD edit (or
 * remove); see sx2_fdb_learn().  AGED_OUT_MAC records report entries
 * the device removed.
 */
static bool sx2_sfn_full(SwitchX2State *s)
{
    return s->sfn_count >= SX2_SFN_QUEUE_SIZE;
}

static bool sx2_sfn_type_learned(uint8_t type)
{
    return type == SX2_SFN_TYPE_LEARNED_MAC ||
           type == SX2_SFN_TYPE_LEARNED_MAC_LAG;
}

/* @learned: a LEARNED_MAC record, else AGED_OUT_MAC; of a LAG for @dest */
static void sx2_sfn_push(SwitchX2State *s, bool learned, uint64_t key,
                         uint16_t dest)
{
    bool lag = sx2_dest_is_lag(dest);
    SX2FdbNotif *n;

    assert(!sx2_sfn_full(s));
    n = &s->sfn[(s->sfn_head + s->sfn_count) % SX2_SFN_QUEUE_SIZE];
    if (learned) {
        n->type = lag ? SX2_SFN_TYPE_LEARNED_MAC_LAG : SX2_SFN_TYPE_LEARNED_MAC;
    } else {
        n->type = lag ? SX2_SFN_TYPE_AGED_OUT_MAC_LAG
                      : SX2_SFN_TYPE_AGED_OUT_MAC;
    }
    n->key = key;
    n->dest = dest;
    n->system_port = lag ? 0 : s->fp[dest].system_port;
    s->sfn_count++;
}

static const SX2FdbNotif *sx2_sfn_pop(SwitchX2State *s)
{
    const SX2FdbNotif *n;

    if (!s->sfn_count) {
        return NULL;
    }
    n = &s->sfn[s->sfn_head];
    s->sfn_head = (s->sfn_head + 1) % SX2_SFN_QUEUE_SIZE;
    s->sfn_count--;
    return n;
}

/* Which queued records a flush or an SFD write takes back */
typedef struct SX2SfnMatch {
    bool by_key;
    uint64_t key;
    bool learned;               /* LEARNED_MAC records */
    bool aged;                  /* AGED_OUT_MAC records */
    uint16_t fid;               /* 0: any */
    int dest;                   /* -1: any */
} SX2SfnMatch;

static bool sx2_sfn_matches(const SX2SfnMatch *m, uint8_t type, uint64_t key,
                            uint16_t dest)
{
    if (sx2_sfn_type_learned(type) ? !m->learned : !m->aged) {
        return false;
    }
    if (m->by_key) {
        return key == m->key;
    }
    return (!m->fid || (key & 0xFFFF) == m->fid) &&
           (m->dest < 0 || dest == m->dest);
}

static gboolean sx2_learn_pending_matches(gpointer k, gpointer v,
                                          gpointer opaque)
{
    const SX2LearnPending *lp = v;

    return sx2_sfn_matches(opaque, SX2_SFN_TYPE_LEARNED_MAC, lp->key,
                           lp->dest);
}

/*
 * Take back the queued records @m matches, and forget the outstanding
 * LEARNED_MAC notifications it matches: the queue keeps its order.
 */
static unsigned sx2_sfn_forget(SwitchX2State *s, const SX2SfnMatch *m,
                               const char *why)
{
    uint32_t i, kept = 0, n = s->sfn_count;

    for (i = 0; i < n; i++) {
        SX2FdbNotif *src = &s->sfn[(s->sfn_head + i) % SX2_SFN_QUEUE_SIZE];

        if (sx2_sfn_matches(m, src->type, src->key, src->dest)) {
            continue;
        }
        if (kept != i) {
            s->sfn[(s->sfn_head + kept) % SX2_SFN_QUEUE_SIZE] = *src;
        }
        kept++;
    }
    s->sfn_count = kept;
    if (m->learned) {
        if (m->by_key) {
            g_hash_table_remove(s->learn_pending, &m->key);
        } else {
            g_hash_table_foreach_remove(s->learn_pending,
                                        sx2_learn_pending_matches,
                                        (gpointer)m);
        }
    }
    if (n != kept) {
        trace_switchx2_sfn_forget(n - kept, s->sfn_count, why);
    }
    return n - kept;
}

/*
 * Raise a LEARNED_MAC record for {@key} seen on @dest (a port or a LAG),
 * unless one is outstanding.  A record that cannot be raised (queue full, or
 * too many outstanding) is counted and traced; the next frame from the
 * source tries again.
 */
static void sx2_learn_notify(SwitchX2State *s, uint64_t key,
                             uint16_t dest, bool moved)
{
    SX2LearnPending *lp;

    if (g_hash_table_contains(s->learn_pending, &key)) {
        trace_switchx2_fdb_learn(sx2_key_mac(key), sx2_key_fid(key),
                                 dest, "held: a notification is "
                                 "outstanding");
        return;
    }
    if (sx2_sfn_full(s) ||
        g_hash_table_size(s->learn_pending) >= SX2_LEARN_PENDING_MAX) {
        s->sfn_dropped++;
        trace_switchx2_sfn_overflow(SX2_SFN_TYPE_LEARNED_MAC,
                                    sx2_key_mac(key), sx2_key_fid(key),
                                    s->sfn_dropped);
        return;
    }
    sx2_sfn_push(s, true, key, dest);
    lp = g_new0(SX2LearnPending, 1);
    lp->key = key;
    lp->dest = dest;
    lp->queued = true;
    g_hash_table_insert(s->learn_pending, &lp->key, lp);
    trace_switchx2_fdb_learn(sx2_key_mac(key), sx2_key_fid(key), dest,
                             moved ? "notified: moved from another port"
                                   : "notified: new source");
}

/*
 * Table
 */
static void sx2_age_arm(SwitchX2State *s)
{
    if ((s->fdb_dynamic || g_hash_table_size(s->learn_pending)) &&
        !timer_pending(s->age_timer)) {
        timer_mod(s->age_timer, sx2_now() + NANOSECONDS_PER_SECOND);
    }
}

static SX2FdbEntry *sx2_fdb_find(SwitchX2State *s, uint64_t key)
{
    return g_hash_table_lookup(s->fdb_index, &key);
}

static SX2FdbEntry *sx2_fdb_insert(SwitchX2State *s, uint64_t key)
{
    SX2FdbEntry *e;

    if (!s->fdb_nfree) {
        return NULL;
    }
    e = &s->fdb[s->fdb_free[--s->fdb_nfree]];
    memset(e, 0, sizeof(*e));
    e->key = key;
    e->used = true;
    g_hash_table_insert(s->fdb_index, &e->key, e);
    return e;
}

static void sx2_fdb_set(SwitchX2State *s, SX2FdbEntry *e, bool dynamic,
                        uint8_t action, uint16_t dest)
{
    s->fdb_dynamic += (int)dynamic - (int)e->dynamic;
    e->dynamic = dynamic;
    e->action = action;
    e->dest = dest;
    e->last_seen = sx2_now();
    trace_switchx2_fdb_add(sx2_key_mac(e->key), sx2_key_fid(e->key),
                           dest, dynamic);
    sx2_age_arm(s);
}

static void sx2_fdb_remove(SwitchX2State *s, SX2FdbEntry *e, const char *why)
{
    trace_switchx2_fdb_remove(sx2_key_mac(e->key), sx2_key_fid(e->key), why);
    g_hash_table_remove(s->fdb_index, &e->key);
    s->fdb_dynamic -= e->dynamic;
    e->used = false;
    e->dynamic = false;
    s->fdb_free[s->fdb_nfree++] = e - s->fdb;
}

/* The MAC and FID of an entry, for the host's view of the table */
void sx2_fdb_entry_key(const SX2FdbEntry *e, uint8_t *mac, uint16_t *fid)
{
    sx2_key_mac_bytes(e->key, mac);
    *fid = sx2_key_fid(e->key);
}

const SX2FdbEntry *sx2_fdb_lookup(SwitchX2State *s, const uint8_t *mac,
                                  uint16_t fid)
{
    return sx2_fdb_find(s, sx2_fdb_key(mac, fid));
}

/*
 * Flush the entries that match; fid 0 and dest -1 match any.
 * Flushed entries are not reported through SFN, and the queued and
 * outstanding notifications that match are flushed too (reg.h SFDF:
 * "FDB notifications are flushed as well").
 */
static unsigned sx2_fdb_flush(SwitchX2State *s, uint16_t fid, int dest,
                              bool statics)
{
    SX2SfnMatch m = {
        .learned = true, .aged = true, .fid = fid, .dest = dest,
    };
    unsigned i, n = 0;

    sx2_sfn_forget(s, &m, "SFDF");

    for (i = 0; i < s->fdb_size; i++) {
        SX2FdbEntry *e = &s->fdb[i];

        if (!e->used || (!e->dynamic && !statics) ||
            (fid && sx2_key_fid(e->key) != fid) ||
            (dest >= 0 && (e->mc || e->dest != dest))) {
            continue;
        }
        sx2_fdb_remove(s, e, "flush");
        n++;
    }
    return n;
}

/*
 * Source MAC of a received frame.  A source is learned on the ingress
 * port, or on its LAG if it is a member.  A dynamic entry there is
 * refreshed by any frame.  If @learn (port mode and {port, VID}
 * allow it), a source with no entry, or with a dynamic entry on another
 * port (a station that moved), raises a LEARNED_MAC notification: the
 * device never installs or moves a learned entry itself, the driver
 * does with an SFD edit (controlled learning).  Static entries are
 * never touched or reported.
 */
void sx2_fdb_learn(SwitchX2State *s, SX2Port *in, const uint8_t *mac,
                   uint16_t fid, bool learn)
{
    uint64_t key = sx2_fdb_key(mac, fid);
    SX2FdbEntry *e = sx2_fdb_find(s, key);
    uint16_t dest = sx2_port_dest(in);

    if (e && !e->dynamic) {
        return;
    }
    if (e && e->dest == dest) {
        e->last_seen = sx2_now();
        return;
    }
    if (!learn) {
        return;
    }
    if (!e && !s->fdb_nfree) {
        /* Nowhere to put it: the driver's edit could only fail */
        s->learn_full_drops++;
        trace_switchx2_fdb_full(sx2_key_mac(key), fid);
        return;
    }
    sx2_learn_notify(s, key, dest, e != NULL);
    sx2_age_arm(s);
}

/*
 * Secure mode (SPMLR 3): whether {@mac, @fid} is in the FDB on a port
 * (or LAG) other than the ingress port's (the CPU counts as another
 * port), static or dynamic: the frame is then a port security violation.
 */
bool sx2_fdb_source_elsewhere(SwitchX2State *s, SX2Port *in,
                              const uint8_t *mac, uint16_t fid)
{
    const SX2FdbEntry *e = sx2_fdb_find(s, sx2_fdb_key(mac, fid));

    return e && e->dest != sx2_port_dest(in);
}

/*
 * Ageing, once per second of virtual time while dynamic entries exist
 */
static gboolean sx2_learn_pending_expired(gpointer k, gpointer v,
                                          gpointer opaque)
{
    const SX2LearnPending *lp = v;
    int64_t limit = *(int64_t *)opaque;

    if (lp->queued || lp->since > limit) {
        return false;
    }
    trace_switchx2_fdb_learn(sx2_key_mac(lp->key), sx2_key_fid(lp->key),
                             lp->dest, "unanswered for the ageing "
                             "time: may be raised again");
    return true;
}

/*
 * An entry idle for the ageing time is removed and reported, if its
 * AGED_OUT_MAC record fits in the queue; otherwise it stays (and
 * forwards) until a later tick finds room, counted in age_deferred.
 * LEARNED_MAC notifications popped and left unanswered that long
 * expire.
 */
static void sx2_age_tick(void *opaque)
{
    SwitchX2State *s = opaque;
    int64_t limit = sx2_now() - (int64_t)s->age_time * NANOSECONDS_PER_SECOND;
    unsigned i;

    for (i = 0; i < s->fdb_size && s->fdb_dynamic; i++) {
        SX2FdbEntry *e = &s->fdb[i];

        if (!e->used || !e->dynamic || e->last_seen > limit) {
            continue;
        }
        if (sx2_sfn_full(s)) {
            s->age_deferred++;
            trace_switchx2_sfn_overflow(SX2_SFN_TYPE_AGED_OUT_MAC,
                                        sx2_key_mac(e->key),
                                        sx2_key_fid(e->key),
                                        s->age_deferred);
            continue;
        }
        trace_switchx2_fdb_age(sx2_key_mac(e->key), sx2_key_fid(e->key),
                               e->dest);
        sx2_sfn_push(s, false, e->key, e->dest);
        sx2_fdb_remove(s, e, "aged out");
    }
    g_hash_table_foreach_remove(s->learn_pending, sx2_learn_pending_expired,
                                &limit);
    sx2_age_arm(s);
}

void sx2_fdb_init(SwitchX2State *s)
{
    s->fdb = g_new0(SX2FdbEntry, s->fdb_size);
    s->fdb_free = g_new(uint32_t, s->fdb_size);
    s->fdb_index = g_hash_table_new(g_int64_hash, g_int64_equal);
    s->sfn = g_new0(SX2FdbNotif, SX2_SFN_QUEUE_SIZE);
    s->learn_pending = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                             NULL, g_free);
    s->age_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, sx2_age_tick, s);
}

void sx2_fdb_fini(SwitchX2State *s)
{
    if (s->age_timer) {
        timer_free(s->age_timer);
        s->age_timer = NULL;
    }
    if (s->fdb_index) {
        g_hash_table_destroy(s->fdb_index);
        s->fdb_index = NULL;
    }
    if (s->learn_pending) {
        g_hash_table_destroy(s->learn_pending);
        s->learn_pending = NULL;
    }
    g_free(s->fdb);
    s->fdb = NULL;
    g_free(s->fdb_free);
    s->fdb_free = NULL;
    g_free(s->sfn);
    s->sfn = NULL;
}

void sx2_fdb_reset(SwitchX2State *s)
{
    uint32_t i;

    if (!s->fdb) {
        return;
    }
    timer_del(s->age_timer);
    g_hash_table_remove_all(s->fdb_index);
    memset(s->fdb, 0, sizeof(SX2FdbEntry) * s->fdb_size);
    /* Hand out low slots first so that dumps come in insertion order */
    for (i = 0; i < s->fdb_size; i++) {
        s->fdb_free[i] = s->fdb_size - 1 - i;
    }
    s->fdb_nfree = s->fdb_size;
    s->fdb_dynamic = 0;
    s->age_time = SX2_AGE_TIME_DEFAULT;
    s->learn_full_drops = 0;
    s->sfn_head = 0;
    s->sfn_count = 0;
    s->sfn_dropped = 0;
    s->age_deferred = 0;
    g_hash_table_remove_all(s->learn_pending);
}

/*
 * SFDAT - ageing time
 */
uint8_t sx2_reg_sfdat(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned swid = sx2_fget(pl, SX2_REG_SFDAT_SWID);

    if (swid != 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFDAT: swid %u\n", swid);
        return BAD_PARAM;
    }
    if (write) {
        unsigned t = sx2_fget(pl, SX2_REG_SFDAT_AGE_TIME);

        if (t < SX2_AGE_TIME_MIN || t > SX2_AGE_TIME_MAX) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFDAT: age time %u s "
                          "is out of range\n", t);
            return BAD_PARAM;
        }
        s->age_time = t;
    }
    sx2_fset(pl, SX2_REG_SFDAT_AGE_TIME, s->age_time);
    return OK;
}

/*
 * SFD - add, update, remove and dump entries
 */
typedef enum {
    SX2_SFD_APPLIED,
    SX2_SFD_FULL,
    SX2_SFD_MALFORMED,
} SX2SfdResult;

/*
 * The MID of a multicast record, or -1.  SwitchX-2 has no port group
 * table (max_pgt 0): pgi must say "use the MID".
 */
static int sx2_sfd_rec_mid(SwitchX2State *s, const uint8_t *rec,
                           unsigned idx)
{
    unsigned pgi = sx2_fget(rec, SX2_SFD_REC_MC_PGI);
    unsigned mid = sx2_fget(rec, SX2_SFD_REC_MC_MID);

    if (!is_multicast_ether_addr(rec + SX2_SFD_REC_MAC_OFF)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: multicast "
                      "record for a unicast address\n", idx);
        return -1;
    }
    if (pgi != SX2_SFD_MC_PGI_MID) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: mc_pgi 0x%x: no "
                      "port group table on SwitchX-2, only 0x1FFF (the "
                      "MID)\n", idx, pgi);
        return -1;
    }
    if (mid >= s->smid_count) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: MID %u "
                      "does not exist (the profile's max_mid is %u)\n", idx,
                      mid, s->smid_count);
        return -1;
    }
    return mid;
}

/* The destination of a unicast or unicast LAG record, or -1 */
static int sx2_sfd_rec_dest(SwitchX2State *s, const uint8_t *rec,
                            unsigned idx)
{
    unsigned sys = sx2_fget(rec, SX2_SFD_REC_SYSTEM_PORT);
    unsigned lag_id = sx2_fget(rec, SX2_SFD_REC_LAG_ID);
    int lp;

    if (sx2_fget(rec, SX2_SFD_REC_TYPE) == SX2_SFD_REC_TYPE_MULTICAST) {
        return sx2_sfd_rec_mid(s, rec, idx);
    }
    if (sx2_fget(rec, SX2_SFD_REC_TYPE) == SX2_SFD_REC_TYPE_UNICAST_LAG) {
        if (lag_id >= s->profile.max_lag || !s->lag[lag_id].created) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: LAG %u "
                          "was not created (SLDR)\n", idx, lag_id);
            return -1;
        }
        return sx2_dest_lag(lag_id);
    }
    lp = sx2_local_port_of_system_port(s, sys);
    if (lp < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: system "
                      "port %u maps to no port\n", idx, sys);
    }
    return lp;
}

/*
 * Whether a record's fields are ones the model applies.  Malformed values
 * are LOG_GUEST_ERROR; values the silicon or model does not support on
 * SwitchX-2 are LOG_UNIMP.  Either stops processing at this record.
 */
static bool sx2_sfd_rec_ok(SwitchX2State *s, unsigned op, const uint8_t *rec,
                           unsigned idx, int *dest)
{
    unsigned type = sx2_fget(rec, SX2_SFD_REC_TYPE);
    unsigned policy = sx2_fget(rec, SX2_SFD_REC_POLICY);
    unsigned action = sx2_fget(rec, SX2_SFD_REC_ACTION);
    unsigned fid = sx2_fget(rec, SX2_SFD_REC_FID);

    if (type != SX2_SFD_REC_TYPE_UNICAST &&
        type != SX2_SFD_REC_TYPE_UNICAST_LAG &&
        type != SX2_SFD_REC_TYPE_MULTICAST) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: type %u: only "
                      "unicast, unicast LAG and multicast records are "
                      "implemented\n", idx, type);
        return false;
    }
    if (fid >= SX2_VFID_BASE) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: fid %u: no "
                      "vFIDs on SwitchX-2\n", idx, fid);
        return false;
    }
    if (!sx2_fid_valid(fid)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: FID %u "
                      "does not exist (1..%u)\n", idx, fid, SX2_VID_MAX);
        return false;
    }
    if (sx2_fget(rec, SX2_SFD_REC_SET_VID)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: set_vid 1: VID "
                      "rewrite not supported on SwitchX-2\n", idx);
        return false;
    }
    if (op == SX2_SFD_OP_WRITE_REMOVE) {
        return true;
    }
    switch (policy) {
    case SX2_SFD_POLICY_STATIC:
    case SX2_SFD_POLICY_DYNAMIC:
        break;
    case SX2_SFD_POLICY_DYNAMIC_MLAG:
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: policy 1 "
                      "(dynamic MLAG): not implemented\n", idx);
        return false;
    default:
        /*
         * 2: absent from the policy enum of every reg.h; only the
         * fid_vid note names it ("dynamic entries (policy 2,3) use FID")
         * and nothing says what it does.
         */
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: policy %u: not "
                      "in reg.h's policy enum (named only by the fid_vid "
                      "note), semantics undocumented\n", idx, policy);
        return false;
    }
    switch (action) {
    case SX2_SFD_ACTION_NOP:
    case SX2_SFD_ACTION_TRAP:
    case SX2_SFD_ACTION_DISCARD_ERROR:
        break;
    case SX2_SFD_ACTION_FORWARD_IP_ROUTER:
        if (sx2_router_attached(s) && type == SX2_SFD_REC_TYPE_UNICAST &&
            policy == SX2_SFD_POLICY_STATIC) {
            /* The router's MAC in a FID: unicast to it is routed */
            break;
        }
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: action "
                      "FORWARD_IP_ROUTER needs a router and a static unicast "
                      "record\n", idx);
        return false;
    case SX2_SFD_ACTION_MIRROR_TO_CPU:
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: action %u: not "
                      "implemented (no forward-and-trap)\n", idx, action);
        return false;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: action %u "
                      "is reserved\n", idx, action);
        return false;
    }
    if (type == SX2_SFD_REC_TYPE_MULTICAST &&
        policy != SX2_SFD_POLICY_STATIC) {
        /* Groups are not learned: nothing would age or report them */
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: record %u: dynamic "
                      "multicast record: not implemented\n", idx);
        return false;
    }
    if (policy == SX2_SFD_POLICY_DYNAMIC && action != SX2_SFD_ACTION_NOP) {
        /* reg.h, sfd_rec_action: dynamic entries only forward */
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: record %u: dynamic "
                      "entry with action %u: dynamic entries can only "
                      "have action NOP\n", idx, action);
        return false;
    }
    *dest = sx2_sfd_rec_dest(s, rec, idx);
    return *dest >= 0;
}

static SX2SfdResult sx2_sfd_apply(SwitchX2State *s, unsigned op,
                                  const uint8_t *rec, unsigned idx)
{
    unsigned policy = sx2_fget(rec, SX2_SFD_REC_POLICY);
    unsigned action = sx2_fget(rec, SX2_SFD_REC_ACTION);
    unsigned fid = sx2_fget(rec, SX2_SFD_REC_FID);
    uint64_t key = sx2_fdb_key(rec + SX2_SFD_REC_MAC_OFF, fid);
    SX2FdbEntry *e;
    int dest = -1;

    if (!sx2_sfd_rec_ok(s, op, rec, idx, &dest)) {
        return SX2_SFD_MALFORMED;
    }
    e = sx2_fdb_find(s, key);
    if (op == SX2_SFD_OP_WRITE_REMOVE) {
        /* reg.h: also removes the learning and aged-out notifications */
        SX2SfnMatch m = {
            .by_key = true, .key = key, .learned = true, .aged = true,
        };

        if (e) {
            sx2_fdb_remove(s, e, "SFD");
        }
        sx2_sfn_forget(s, &m, "SFD remove");
        return SX2_SFD_APPLIED;
    }
    if (!e) {
        e = sx2_fdb_insert(s, key);
        if (!e) {
            trace_switchx2_fdb_full(sx2_key_mac(key), fid);
            return SX2_SFD_FULL;
        }
    }
    sx2_fdb_set(s, e, policy == SX2_SFD_POLICY_DYNAMIC, action, dest);
    e->mc = sx2_fget(rec, SX2_SFD_REC_TYPE) == SX2_SFD_REC_TYPE_MULTICAST;
    {
        /* reg.h: edit removes the learning notification of the key */
        SX2SfnMatch m = { .by_key = true, .key = key, .learned = true };

        sx2_sfn_forget(s, &m, "SFD edit");
    }
    return SX2_SFD_APPLIED;
}

static void sx2_sfd_fill(SwitchX2State *s, uint8_t *rec,
                         const SX2FdbEntry *e)
{
    bool lag = !e->mc && sx2_dest_is_lag(e->dest);

    sx2_fset(rec, SX2_SFD_REC_TYPE, e->mc ? SX2_SFD_REC_TYPE_MULTICAST :
                                    lag ? SX2_SFD_REC_TYPE_UNICAST_LAG :
                                    SX2_SFD_REC_TYPE_UNICAST);
    sx2_fset(rec, SX2_SFD_REC_POLICY, e->dynamic ? SX2_SFD_POLICY_DYNAMIC
                                                 : SX2_SFD_POLICY_STATIC);
    sx2_fset(rec, SX2_SFD_REC_A, 1);
    sx2_key_mac_bytes(e->key, rec + SX2_SFD_REC_MAC_OFF);
    sx2_fset(rec, SX2_SFD_REC_FID, sx2_key_fid(e->key));
    sx2_fset(rec, SX2_SFD_REC_ACTION, e->action);
    if (e->mc) {
        sx2_fset(rec, SX2_SFD_REC_MC_PGI, SX2_SFD_MC_PGI_MID);
        sx2_fset(rec, SX2_SFD_REC_MC_MID, e->dest);
    } else if (lag) {
        sx2_fset(rec, SX2_SFD_REC_LAG_ID, sx2_dest_lag_id(e->dest));
    } else {
        sx2_fset(rec, SX2_SFD_REC_SYSTEM_PORT, s->fp[e->dest].system_port);
    }
}

static uint8_t sx2_sfd_dump(SwitchX2State *s, uint8_t *pl)
{
    uint32_t slot = sx2_fget(pl, SX2_REG_SFD_RECORD_LOCATOR);
    uint8_t *recs = pl + SX2_REG_SFD_BASE_LEN;
    unsigned n = 0;

    memset(recs, 0, SX2_REG_SFD_REC_LEN * SX2_REG_SFD_REC_MAX);
    for (; slot < s->fdb_size && n < SX2_REG_SFD_REC_MAX; slot++) {
        if (s->fdb[slot].used) {
            sx2_sfd_fill(s, recs + n * SX2_REG_SFD_REC_LEN, &s->fdb[slot]);
            n++;
        }
    }
    sx2_fset(pl, SX2_REG_SFD_RECORD_LOCATOR, slot);
    sx2_fset(pl, SX2_REG_SFD_NUM_REC, n);
    return OK;
}

uint8_t sx2_reg_sfd(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned op = sx2_fget(pl, SX2_REG_SFD_OP);
    unsigned n = sx2_fget(pl, SX2_REG_SFD_NUM_REC);
    unsigned i;

    if (!write) {
        if (op != SX2_SFD_OP_QUERY_DUMP) {
            qemu_log_mask(LOG_UNIMP, "switchx2: SFD: query op %u is not "
                          "implemented\n", op);
            return BAD_PARAM;
        }
        return sx2_sfd_dump(s, pl);
    }
    if (op != SX2_SFD_OP_WRITE_EDIT && op != SX2_SFD_OP_WRITE_REMOVE) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFD: write op %u is not "
                      "implemented\n", op);
        return BAD_PARAM;
    }
    if (n > SX2_REG_SFD_REC_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFD: %u records, at most "
                      "%u\n", n, SX2_REG_SFD_REC_MAX);
        return BAD_PARAM;
    }
    for (i = 0; i < n; i++) {
        uint8_t *rec = pl + SX2_REG_SFD_BASE_LEN + i * SX2_REG_SFD_REC_LEN;

        if (sx2_sfd_apply(s, op, rec, i) != SX2_SFD_APPLIED) {
            break;
        }
    }
    sx2_fset(pl, SX2_REG_SFD_NUM_REC, i);
    return OK;
}

/*
 * SFN - pop learned / aged out notifications.  num_rec asks for up to
 * 64 records and answers how many came; end is an operation bit of the
 * request ("forces the current session to end"), never an indication:
 * records leave the queue as they are returned, so there is no session
 * to end, and responses carry end = 0.
 */
uint8_t sx2_reg_sfn(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned want = sx2_fget(pl, SX2_REG_SFN_NUM_REC);
    unsigned swid = sx2_fget(pl, SX2_REG_SFN_SWID);
    uint8_t *recs = pl + SX2_REG_SFN_BASE_LEN;
    const SX2FdbNotif *nt;
    unsigned n = 0;

    if (write) {
        return SX2_EMAD_STATUS_METHOD_NOT_SUPP;
    }
    if (swid != 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFN: swid %u (the FDB "
                      "is swid 0's)\n", swid);
        return BAD_PARAM;
    }
    if (want > SX2_REG_SFN_REC_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFN: num_rec %u, at most "
                      "%u\n", want, SX2_REG_SFN_REC_MAX);
        return BAD_PARAM;
    }
    memset(recs, 0, SX2_REG_SFN_REC_LEN * SX2_REG_SFN_REC_MAX);
    while (n < want && (nt = sx2_sfn_pop(s))) {
        uint8_t *rec = recs + n * SX2_REG_SFN_REC_LEN;

        sx2_fset(rec, SX2_SFN_REC_TYPE, nt->type);
        sx2_key_mac_bytes(nt->key, rec + SX2_SFN_REC_MAC_OFF);
        sx2_fset(rec, SX2_SFN_REC_FID, sx2_key_fid(nt->key));
        if (sx2_dest_is_lag(nt->dest)) {
            sx2_fset(rec, SX2_SFN_REC_LAG_ID, sx2_dest_lag_id(nt->dest));
        } else {
            sx2_fset(rec, SX2_SFN_REC_SYSTEM_PORT, nt->system_port);
        }
        if (sx2_sfn_type_learned(nt->type)) {
            SX2LearnPending *lp = g_hash_table_lookup(s->learn_pending,
                                                      &nt->key);

            if (lp) {
                /* Handed to the driver: the answer is due from now on */
                lp->queued = false;
                lp->since = sx2_now();
            }
        }
        n++;
    }
    trace_switchx2_sfn(want, sx2_fget(pl, SX2_REG_SFN_END), n, s->sfn_count);
    sx2_fset(pl, SX2_REG_SFN_END, 0);
    sx2_fset(pl, SX2_REG_SFN_NUM_REC, n);
    sx2_age_arm(s);
    return OK;
}

/*
 * SFDF - flush by switch partition, FID, port, port and FID, LAG, or LAG
 * and FID
 */
uint8_t sx2_reg_sfdf(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned type = sx2_fget(pl, SX2_REG_SFDF_FLUSH_TYPE);
    bool statics = sx2_fget(pl, SX2_REG_SFDF_FLUSH_STATIC);
    unsigned fid = 0, sys = 0, lag_id = 0, n;
    int lp = -1;

    if (!write) {
        return OK;
    }
    switch (type) {
    case SX2_SFDF_FLUSH_SWID:
        break;
    case SX2_SFDF_FLUSH_FID:
        fid = sx2_fget(pl, SX2_REG_SFDF_FID);
        break;
    case SX2_SFDF_FLUSH_PORT:
        sys = sx2_fget(pl, SX2_REG_SFDF_SYSTEM_PORT);
        lp = sx2_local_port_of_system_port(s, sys);
        break;
    case SX2_SFDF_FLUSH_PORT_AND_FID:
        fid = sx2_fget(pl, SX2_REG_SFDF_FID);
        sys = sx2_fget(pl, SX2_REG_SFDF_PORT_FID_SYS_PORT);
        lp = sx2_local_port_of_system_port(s, sys);
        break;
    case SX2_SFDF_FLUSH_LAG:
        lag_id = sx2_fget(pl, SX2_REG_SFDF_LAG_ID);
        break;
    case SX2_SFDF_FLUSH_LAG_AND_FID:
        fid = sx2_fget(pl, SX2_REG_SFDF_FID);
        lag_id = sx2_fget(pl, SX2_REG_SFDF_LAG_FID_LAG_ID);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFDF: flush type %u is "
                      "reserved\n", type);
        return BAD_PARAM;
    }
    if (type == SX2_SFDF_FLUSH_FID || type == SX2_SFDF_FLUSH_PORT_AND_FID ||
        type == SX2_SFDF_FLUSH_LAG_AND_FID) {
        if (fid >= SX2_VFID_BASE) {
            qemu_log_mask(LOG_UNIMP, "switchx2: SFDF: fid %u: no vFIDs on "
                          "SwitchX-2\n", fid);
            return BAD_PARAM;
        }
        if (!sx2_fid_valid(fid)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFDF: FID %u does not "
                          "exist (1..%u)\n", fid, SX2_VID_MAX);
            return BAD_PARAM;
        }
    }
    if ((type == SX2_SFDF_FLUSH_PORT || type == SX2_SFDF_FLUSH_PORT_AND_FID) &&
        lp < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFDF: system port %u maps "
                      "to no port\n", sys);
        return BAD_PARAM;
    }
    if (type == SX2_SFDF_FLUSH_LAG || type == SX2_SFDF_FLUSH_LAG_AND_FID) {
        if (lag_id >= s->profile.max_lag) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFDF: LAG %u does not "
                          "exist (the profile's max_lag is %u)\n", lag_id,
                          s->profile.max_lag);
            return BAD_PARAM;
        }
        lp = sx2_dest_lag(lag_id);
    }
    n = sx2_fdb_flush(s, fid, lp, statics);
    trace_switchx2_fdb_flush(type, fid, lp, statics, n);
    return OK;
}
