/*
 * Mellanox SwitchX-2 switch ASIC emulation: device state
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_SWITCHX2_H
#define HW_NET_SWITCHX2_H

#include "qemu/units.h"
#include "hw/pci/pci.h"
#include "net/net.h"
#include "qom/object.h"
#include "qemu/timer.h"
#include "qemu/queue.h"
#include "qemu/bitmap.h"
#include "qemu/log.h"
#include "switchx2_hw.h"

#define TYPE_SWITCHX2 "switchx2"
OBJECT_DECLARE_SIMPLE_TYPE(SwitchX2State, SWITCHX2)

/*
 * Big-endian field helpers.  Every caller passes offsets that are
 * compile-time constants or have been bounds checked against the
 * buffer it owns.
 */
static inline uint32_t sx2_get32(const uint8_t *buf, unsigned off)
{
    return ldl_be_p(buf + off);
}

static inline void sx2_set32(uint8_t *buf, unsigned off, uint32_t val)
{
    stl_be_p(buf + off, val);
}

static inline uint64_t sx2_get64(const uint8_t *buf, unsigned off)
{
    return ldq_be_p(buf + off);
}

static inline void sx2_set64(uint8_t *buf, unsigned off, uint64_t val)
{
    stq_be_p(buf + off, val);
}

static inline uint32_t sx2_fget(const uint8_t *buf, unsigned off,
                                unsigned shift, unsigned bits)
{
    uint32_t mask = bits >= 32 ? UINT32_MAX : (1u << bits) - 1;

    return (sx2_get32(buf, off) >> shift) & mask;
}

static inline void sx2_fset(uint8_t *buf, unsigned off, unsigned shift,
                            unsigned bits, uint32_t val)
{
    uint32_t mask = bits >= 32 ? UINT32_MAX : (1u << bits) - 1;
    uint32_t word = sx2_get32(buf, off);

    word &= ~(mask << shift);
    word |= (val & mask) << shift;
    sx2_set32(buf, off, word);
}

/* Descriptor queue (SDQ or RDQ) */
typedef struct SX2DescQueue {
    bool hw_owned;
    bool error;             /* moved to error state by 2ERR_DQ */
    uint8_t cqn;
    uint8_t tclass;
    bool lp_ignore_wqe;     /* SDQ: local processing regardless of WQE */
    uint8_t log2_pages;
    uint16_t count;         /* elements */
    uint16_t prod;          /* written by the driver through a doorbell */
    uint16_t cons;          /* advanced by the device */
    uint64_t pa[SX2_AQ_MAX_PAGES];
} SX2DescQueue;

/*
 * A ring the device produces into and the driver consumes from: the
 * common part of completion and event queues.
 */
typedef struct SX2Ring {
    bool hw_owned;
    bool armed;
    uint8_t log_size;
    uint16_t count;
    uint16_t prod;          /* advanced by the device */
    uint16_t cons;          /* written by the driver through a doorbell */
    uint64_t pa[SX2_AQ_MAX_PAGES];
} SX2Ring;

/* Completion queue */
typedef struct SX2CompQueue {
    SX2Ring ring;
    uint8_t eqn;
} SX2CompQueue;

/* Event queue */
typedef struct SX2EventQueue {
    SX2Ring ring;
    bool always_armed;
    bool int_msix;
} SX2EventQueue;

/*
 * Port counters kept by the MAC; PPCNT exports them per group.  Frames
 * on the wire are at least 60 bytes plus a 4-byte FCS: QEMU hands over
 * frames without FCS and often unpadded, so a short frame is counted as
 * the padded frame the far end's MAC would have sent.  "Good" frames
 * are those the MAC accepted (not too long, not shorter than a header).
 */
typedef struct SX2PortCounters {
    uint64_t rx_frames;         /* good frames */
    uint64_t rx_octets;         /* good frames, header to FCS */
    uint64_t rx_payload;        /* good frames, MAC client data and pad */
    uint64_t rx_ucast;          /* good frames by destination */
    uint64_t rx_mcast;
    uint64_t rx_bcast;
    uint64_t rx_discards;       /* dropped after good reception */
    uint64_t rx_too_long;       /* larger than the port MTU */
    uint64_t rx_undersize;      /* shorter than an Ethernet header */
    uint64_t rx_security;       /* secure port: source on another port */
    uint64_t rx_all_octets;     /* every frame, good or not, with FCS */
    uint64_t rx_oversize;       /* every frame over 1518 octets with FCS */
    uint64_t rx_hist[10];       /* every frame: 64,65-127,...,8192-10239 */
    uint64_t tx_frames;
    uint64_t tx_octets;         /* header to FCS */
    uint64_t tx_payload;        /* MAC client data and pad */
    uint64_t tx_ucast;
    uint64_t tx_mcast;
    uint64_t tx_bcast;
    uint64_t tx_discards;       /* link down, MTU, backend refused */
    uint64_t tx_too_long;
} SX2PortCounters;

/*
 * PPCNT groups a clear can reset on its own: the groups with counters,
 * for priority / traffic class 0 where the group is per priority or TC
 * (the others read 0 and have nothing to clear).
 */
enum {
    SX2_PPCNT_SLOT_IEEE_8023,
    SX2_PPCNT_SLOT_RFC_2863,
    SX2_PPCNT_SLOT_RFC_2819,
    SX2_PPCNT_SLOT_RFC_3635,
    SX2_PPCNT_SLOT_EXT,
    SX2_PPCNT_SLOT_DISCARD,
    SX2_PPCNT_SLOT_PRIO,
    SX2_PPCNT_SLOT_TC,
    SX2_PPCNT_SLOT_TC_CONG,
    SX2_PPCNT_SLOTS
};
#define SX2_PPCNT_COUNTERS      31      /* 64-bit counters after 0x08 */

/*
 * What the CPU port saw.  Not silicon counters: exported only to the
 * host (QMP query-switchx2), reset with the device.
 */
typedef struct SX2CpuCounters {
    uint64_t trapped[SX2_TRAP_ID_MAX];  /* delivered to an RDQ */
    uint64_t dropped[SX2_TRAP_ID_MAX];  /* for the CPU, not delivered */
    uint64_t sent;                      /* packets the CPU sent (SDQs) */
    uint64_t sent_emads;                /* ... of which EMADs */
} SX2CpuCounters;

typedef struct SwitchX2State SwitchX2State;

/* Registers the refuse-reg knob can name at once */
#define SX2_REFUSE_REG_MAX  64

/*
 * Fault injection knobs: a host-side test facility, not silicon
 * behaviour.  Each is a QOM property (see switchx2_fault.c); all but
 * EMAD_DELAY_MS, EMAD_REG and EMAD_SKIP count the upcoming events to
 * affect.
 */
typedef enum SX2Fault {
    SX2_FAULT_EMAD_DROP,
    SX2_FAULT_EMAD_BUSY,
    SX2_FAULT_EMAD_ERROR,
    SX2_FAULT_EMAD_DELAY_MS,
    SX2_FAULT_CMD_TIMEOUT,
    SX2_FAULT_CMD_ERROR,
    SX2_FAULT_CQE_ERROR,
    SX2_FAULT_CQE_BAD_LENGTH,
    SX2_FAULT_RDQ_BAD_PORT,
    SX2_FAULT_PUDE_FLAP,
    SX2_FAULT_EMAD_REG,
    SX2_FAULT_EMAD_SKIP,
    SX2_FAULT_WQE_BYTE_COUNT,
    SX2_FAULT_CQE_FOREIGN_DQ,
    SX2_FAULT_MAX_VID_FLOOD_TABLES,
    SX2_FAULT_NO_ROUTER,
    SX2_FAULT_MAX
} SX2Fault;

/* An EMAD response held back by fault-emad-delay-ms */
typedef struct SX2DelayedEmad {
    QSIMPLEQ_ENTRY(SX2DelayedEmad) next;
    int64_t deadline;           /* QEMU_CLOCK_VIRTUAL ns */
    size_t len;
    uint8_t frame[];
} SX2DelayedEmad;

/*
 * Consumer of the packets the CPU sends on an SDQ: @pkt starts with the
 * TX header, @lp is the WQE's (or the SDQ's) local processing bit.
 */
typedef void SX2SdqConsumer(SwitchX2State *s, const uint8_t *pkt,
                            size_t len, bool lp);

/* One local port; index 0 is the CPU port (no netdev) */
typedef struct SX2Port {
    SwitchX2State *s;
    uint8_t local_port;
    NICConf conf;               /* netdev backend (portN property) */
    NICState *nic;
    /*
     * Egress buffer: while a frame waits in the peer's net queue, the
     * frames after it wait here, in order (sx2_port_transmit).
     */
    GQueue tx_fifo;
    bool tx_waiting;

    /* Configuration, reset by sx2_port_reset() */
    uint8_t swid;
    uint16_t system_port;
    uint8_t admin_status;
    uint8_t oper_status;
    uint8_t event_mode;         /* PAOS.e */
    uint16_t admin_mtu;
    uint8_t proto_mask;
    bool an_disable;
    uint32_t eth_proto_admin;
    uint16_t ib_proto_admin;
    uint16_t ib_width_admin;
    bool rxtx_differ;           /* PMLP.rxtx */
    uint8_t width;
    uint8_t module[SX2_LANES_PER_PORT];
    uint8_t tx_lane[SX2_LANES_PER_PORT];
    uint8_t rx_lane[SX2_LANES_PER_PORT];
    uint8_t learn_mode;
    uint8_t ib_port;
    uint8_t mac[6];
    uint8_t stp[SX2_REG_SPMS_STATE_BYTES];  /* SPMS bit-array layout */
    /* VLAN configuration (SPVID, SPAFT, SPVM, SPVMLR) */
    uint16_t pvid;
    bool allow_untagged;
    bool allow_prio_tagged;
    bool allow_tagged;
    bool prio_tag;              /* SPVM.pt */
    uint64_t vlan_i[SX2_NUM_VIDS / 64];     /* ingress member */
    uint64_t vlan_e[SX2_NUM_VIDS / 64];     /* egress member */
    uint64_t vlan_u[SX2_NUM_VIDS / 64];     /* egress untagged */
    uint64_t learn_vid[SX2_NUM_VIDS / 64];  /* SPVMLR learn_enable */
    SX2PortCounters cnt;
    /* PPCNT: what each group read at its last clear */
    uint64_t ppcnt_base[SX2_PPCNT_SLOTS][SX2_PPCNT_COUNTERS];
    bool far_end_forced_down;   /* we took the cable's far-end NIC down */
    /* LAG membership (SLCOR), kept by switchx2_lag.c */
    bool lagged;
    bool lag_collecting;
    uint16_t lag_id;
    uint8_t lag_index;
    /* Mirroring (MPAR), kept by switchx2_span.c: by SX2_MPAR_* */
    bool span_enabled[2];
    uint8_t span_pa[2];
} SX2Port;

typedef struct SX2TrapGroup {
    bool valid;
    uint8_t swid;
    bool pide;                  /* police with policer pid */
    uint8_t pid;
    uint8_t priority;           /* ignored by SwitchX-2 */
    uint8_t cpu_tclass;
    uint8_t rdq;
} SX2TrapGroup;

typedef struct SX2Trap {
    bool set;                   /* written by HPKT since the reset */
    uint8_t action;
    uint8_t group;
} SX2Trap;

/* A trap group policer (QPCR), a token bucket in QEMU_CLOCK_VIRTUAL */
typedef struct SX2Policer {
    bool set;                   /* configured by QPCR since the reset */
    bool bytes;                 /* limits bits, else packets */
    uint8_t ir_units;
    uint8_t cbs;
    uint8_t violate_action;
    uint32_t cir;
    uint64_t violate_count;
    double tokens;              /* packets or bits in the bucket */
    int64_t last;               /* ns the bucket was last filled at */
} SX2Policer;

/* SFGC: the flood table one packet type uses (802.1Q FIDs only) */
typedef struct SX2FloodCfg {
    bool valid;
    uint8_t table_type;         /* SX2_FT_TYPE_VID or SX2_FT_TYPE_SINGLE */
    uint8_t flood_table;
    uint16_t mid;
    uint8_t counter_set_type;
    uint32_t counter_index;
} SX2FloodCfg;

/* Flood table membership: bit N = local port N (0 = CPU) */
typedef struct SX2PortSet {
    uint64_t lo;                /* ports 0..63 */
    uint8_t hi;                 /* port 64 */
} SX2PortSet;

/*
 * Where an FDB entry sends, and what a source is learned on: a local
 * port (0 = the CPU), or a LAG, numbered from SX2_DEST_LAG_BASE on.
 */
#define SX2_DEST_LAG_BASE   0x100

static inline uint16_t sx2_dest_lag(unsigned lag_id)
{
    return SX2_DEST_LAG_BASE + lag_id;
}

static inline bool sx2_dest_is_lag(uint16_t dest)
{
    return dest >= SX2_DEST_LAG_BASE;
}

static inline unsigned sx2_dest_lag_id(uint16_t dest)
{
    return dest - SX2_DEST_LAG_BASE;
}

/* Whether @p accepts what it receives: a LAG member only while collecting */
static inline bool sx2_port_collects(const SX2Port *p)
{
    return !p->lagged || p->lag_collecting;
}

/* What a frame received on @p is learned on: its LAG if it is a member */
static inline uint16_t sx2_port_dest(const SX2Port *p)
{
    return p->lagged ? sx2_dest_lag(p->lag_id) : p->local_port;
}

/* One FDB slot; the slot index is the SFD record locator */
typedef struct SX2FdbEntry {
    uint64_t key;               /* MAC << 16 | FID */
    bool used;
    bool dynamic;
    uint8_t action;
    uint16_t dest;              /* a local port (0: the CPU), a LAG, */
    bool mc;                    /* or, for a multicast record, a MID */
    int64_t last_seen;          /* QEMU_CLOCK_VIRTUAL ns, dynamic only */
} SX2FdbEntry;

/* One pending SFN record */
typedef struct SX2FdbNotif {
    uint64_t key;               /* MAC << 16 | FID */
    uint8_t type;
    uint16_t dest;              /* learning port or LAG, or the aged entry's */
    uint16_t system_port;       /* as it was when the record was raised */
} SX2FdbNotif;

/*
 * A LEARNED_MAC notification the driver has not answered yet (by an SFD
 * edit or remove of its key).  While one is outstanding for a key, no
 * other is raised for it; once popped by SFN and left unanswered for
 * the ageing time, it expires and the next frame raises a new one.
 */
typedef struct SX2LearnPending {
    uint64_t key;               /* hash key: MAC << 16 | FID */
    uint16_t dest;
    bool queued;                /* still in the SFN queue */
    int64_t since;              /* popped at (QEMU_CLOCK_VIRTUAL ns) */
} SX2LearnPending;

typedef struct SX2Profile {
    bool set;
    uint8_t swid_type[SX2_NUM_SWIDS];
    uint8_t swid_props[SX2_NUM_SWIDS];
    uint16_t max_mid;
    uint16_t max_system_port;
    uint8_t max_flood_tables;
    uint8_t max_vid_flood_tables;
    uint8_t flood_mode;
    uint16_t max_lag;
    uint16_t max_port_per_lag;
} SX2Profile;

/* A LAG descriptor (SLDR) and its member ports (SLCOR) */
typedef struct SX2Lag {
    bool created;
    /* Member local port at each port index, 0 where there is none */
    uint8_t member[SX2_MAX_PORTS_PER_LAG];
    /* Distributor list: the members SLDR added, in that order */
    uint8_t dist[SX2_MAX_PORTS_PER_LAG];
    uint8_t ndist;
} SX2Lag;

/* A port analyzer (MPAT): where mirrored copies go, local SPAN only */
typedef struct SX2Analyzer {
    bool enabled;
    uint8_t session_id;
    uint16_t system_port;
    uint8_t local_port;         /* of system_port, 0 while unset */
    bool qos;
    bool be;
    uint64_t mirrored;          /* copies sent */
} SX2Analyzer;

/*
 * Router, switchx2_router.c.  No source gives SwitchX-2's router sizes:
 * these are assumed (docs/switchx2-conformance.md, RGCR and RITR).
 */
#define SX2_MAX_RIFS                    256
#define SX2_MAX_VRS                     16
#define SX2_RIF_COUNTER_SETS            (2 * SX2_MAX_RIFS)

/* RICNT's counters, in register order */
enum {
    SX2_RIF_GOOD_UC_PKTS,
    SX2_RIF_GOOD_MC_PKTS,
    SX2_RIF_GOOD_BC_PKTS,
    SX2_RIF_GOOD_UC_BYTES,
    SX2_RIF_GOOD_MC_BYTES,
    SX2_RIF_GOOD_BC_BYTES,
    SX2_RIF_ERROR_PKTS,
    SX2_RIF_DISCARD_PKTS,
    SX2_RIF_ERROR_BYTES,
    SX2_RIF_DISCARD_BYTES,
    SX2_RIF_COUNTERS
};

enum { SX2_RIF_INGRESS, SX2_RIF_EGRESS };

typedef struct SX2Rif {
    bool valid;
    uint8_t type;               /* SX2_RITR_TYPE_VLAN or _SUB_PORT */
    bool ipv4;
    bool ipv6;
    uint16_t vr;
    uint16_t mtu;
    uint8_t mac[6];
    uint16_t vid;
    bool sp_lag;                /* sub-port: sp_port is a LAG ID */
    uint16_t sp_port;           /* sub-port: system port or LAG ID */
    bool counted[2];            /* by SX2_RIF_INGRESS / _EGRESS */
    uint32_t counter[2];
    bool lb_en;                 /* the unicast loopback filter */
    uint8_t mc;                 /* ipv4_mc, ipv6_mc, _mc_fe: inert */
} SX2Rif;

/* LPM (switchx2_lpm.c) and neighbour (switchx2_neigh.c) sizes: assumed */
#define SX2_LPM_TREES                   16      /* tree 0 is the default */
#define SX2_LPM_SIZE                    (128 * 1024)    /* lpm-size max */
#define SX2_ADJ_SIZE                    (16 * 1024)
#define SX2_ECMP_MAX                    64
#define SX2_HOST_SIZE                   (16 * 1024)

typedef struct SX2RouteKey {
    uint16_t vr;
    uint8_t proto;              /* SX2_L3_PROTO_* */
    uint8_t plen;
    uint8_t addr[16];           /* masked to plen, network order */
} SX2RouteKey;

typedef struct SX2Route {
    SX2RouteKey key;
    uint8_t action;             /* SX2_RALUE_ACTION_* */
    uint8_t trap_action;        /* SX2_RTR_TRAP_* */
    uint16_t trap_id;
    uint32_t adj_index;
    uint16_t ecmp_size;
    uint16_t local_erif;
} SX2Route;

typedef struct SX2LpmTree {
    bool allocated;
    uint8_t proto;
    uint8_t root_bin;
    uint8_t left[SX2_RALST_BIN_COUNT];
    uint8_t right[SX2_RALST_BIN_COUNT];
    DECLARE_BITMAP(bins, SX2_RALST_BIN_COUNT + 1);  /* prefix lengths */
} SX2LpmTree;

typedef struct SX2Lpm {
    GHashTable *routes;         /* SX2RouteKey -> SX2Route */
    uint32_t count;
    SX2LpmTree tree[SX2_LPM_TREES];
    uint8_t vr_tree[SX2_MAX_VRS][2];        /* by SX2_L3_PROTO_* */
    uint32_t plen_routes[SX2_MAX_VRS][2][129];
} SX2Lpm;

typedef struct SX2Adj {
    bool valid;
    bool active;
    uint8_t trap_action;
    uint8_t trap_id;
    uint16_t erif;
    uint8_t dmac[6];
} SX2Adj;

typedef struct SX2HostKey {
    uint16_t rif;
    uint8_t proto;
    uint8_t zero;
    uint8_t addr[16];
} SX2HostKey;

typedef struct SX2Host {
    SX2HostKey key;
    bool active;
    uint8_t trap_action;
    uint16_t trap_id;
    uint8_t mac[6];
} SX2Host;

/* A RAUHTD dump session: the type it dumps, where it stopped */
typedef struct SX2RauhtdSession {
    bool open;
    uint8_t type;               /* SX2_L3_PROTO_* */
    bool have_last;
    SX2HostKey last;            /* the last entry dumped */
} SX2RauhtdSession;

typedef struct SX2Neigh {
    SX2Adj *adj;                /* [SX2_ADJ_SIZE] */
    GHashTable *hosts;          /* SX2HostKey -> SX2Host */
    SX2RauhtdSession dump;
} SX2Neigh;

typedef struct SX2Router {
    bool ipv4_en;
    bool ipv6_en;
    uint16_t max_rifs;          /* RGCR: RIFs 0..max_rifs-1 exist */
    SX2Rif rif[SX2_MAX_RIFS];
    uint64_t counters[SX2_RIF_COUNTER_SETS][SX2_RIF_COUNTERS];
} SX2Router;

/* LAG hash of the packets entering one port (SLCR) */
typedef struct SX2LagHash {
    uint8_t type;
    uint32_t fields;            /* SX2_SLCR_HASH_* */
} SX2LagHash;

struct SwitchX2State {
    PCIDevice parent_obj;

    MemoryRegion bar0;
    MemoryRegion mmio;
    MemoryRegion sw_reset;      /* SW_RESET, beside the MSI-X table */
    QEMUBH *reset_bh;

    /* Properties */
    uint32_t num_ports;
    uint32_t fdb_size;
    uint32_t lpm_size;          /* LPM entries (IPv6 /65../128 take 2) */
    MACAddr base_mac;
    char *fw_version;
    char *psid;

    /* Parsed from fw-version */
    uint16_t fw_major;
    uint16_t fw_minor;
    uint16_t fw_subminor;

    bool reset_pending;
    const char *reset_why;      /* what asked for the pending reset */

    /* Command interface registers */
    uint32_t cir_in_param_hi;
    uint32_t cir_in_param_lo;
    uint32_t cir_in_modifier;
    uint32_t cir_out_param_hi;
    uint32_t cir_out_param_lo;
    uint32_t cir_token;
    uint32_t cir_ctrl;

    /* Firmware area */
    uint32_t fa_pages;
    uint64_t fa_pa[SX2_FW_PAGES];

    SX2Profile profile;

    /* Asynchronous queues */
    SX2DescQueue sdq[SX2_NUM_SDQS];
    SX2DescQueue rdq[SX2_NUM_RDQS];
    SX2CompQueue cq[SX2_NUM_CQS];
    SX2EventQueue eq[SX2_NUM_EQS];
    SX2SdqConsumer *sdq_consumer;   /* registered by the CPU port */

    /* Switch registers */
    bool sgcr_llb;
    uint8_t spad_mac[6];
    SX2TrapGroup htgt[SX2_TRAP_GROUPS];
    SX2Policer policer[SX2_NUM_POLICERS];
    SX2Trap hpkt[SX2_TRAP_ID_MAX];
    SX2FloodCfg sfgc[SX2_SFGC_TYPE_MAX];
    /* Flood tables (SFTR), numbered per kind as the profile provisions */
    SX2PortSet ft_single[SX2_MAX_FLOOD_TABLES];
    SX2PortSet *ft_vid;         /* [SX2_MAX_FLOOD_TABLES][SX2_FT_VID_ENTRIES] */
    /* MID table (SMID): MIDs 0..smid_count-1 (profile max_mid) */
    SX2PortSet *smid;
    uint32_t smid_count;
    SX2PortSet smid_flood;      /* SX2_MID_FLOOD */
    /* Link aggregation, switchx2_lag.c: LAGs 0..profile max_lag-1 */
    SX2Lag lag[SX2_MAX_LAGS];
    SX2LagHash lag_hash[SX2_MAX_PORTS + 1];     /* by ingress local port */
    uint32_t lag_seed;
    /* Port mirroring, switchx2_span.c */
    SX2Analyzer analyzer[SX2_SPAN_ANALYZERS];
    /* Router: switchx2_router.c, switchx2_lpm.c, switchx2_neigh.c */
    SX2Router router;
    SX2Lpm lpm;
    SX2Neigh neigh;

    /* Filtering database, switchx2_fdb.c */
    SX2FdbEntry *fdb;           /* [fdb_size] */
    uint32_t *fdb_free;         /* stack of free slot indices */
    uint32_t fdb_nfree;
    uint32_t fdb_dynamic;       /* dynamic entries, for the ageing timer */
    GHashTable *fdb_index;      /* key -> SX2FdbEntry */
    QEMUTimer *age_timer;
    uint32_t age_time;          /* seconds */
    uint64_t learn_full_drops;
    SX2FdbNotif *sfn;           /* ring of SX2_SFN_QUEUE_SIZE */
    uint32_t sfn_head;
    uint32_t sfn_count;
    uint64_t sfn_dropped;       /* LEARNED_MAC records not raised: full */
    uint64_t age_deferred;      /* entries left to age later: queue full */
    GHashTable *learn_pending;  /* key -> SX2LearnPending */

    SX2Port fp[SX2_MAX_PORTS + 1];

    /* Ingress budget, switchx2_fp.c */
    unsigned rx_budget;         /* frames the ports may still take now */
    int64_t rx_busy_ns;         /* host time those taken so far kept us */
    unsigned rx_flush_next;     /* port whose queue is flushed first */
    QEMUBH *rx_bh;              /* refills the budget, flushes the queues */
    QEMUTimer *rx_timer;        /* schedules rx_bh after the pause */

    bool unplugging;            /* in unrealize: take no frames, no events */

    /* Fault injection, switchx2_fault.c */
    uint32_t fault[SX2_FAULT_MAX];
    char *refuse_reg;           /* refuse-reg knob, normalized */
    uint16_t refuse_ids[SX2_REFUSE_REG_MAX];
    unsigned refuse_n;
    QEMUTimer *cmd_timer;       /* ends a command fault-cmd-timeout holds */
    QEMUTimer *emad_timer;      /* sends the delayed EMAD responses */
    QSIMPLEQ_HEAD(, SX2DelayedEmad) emad_delayed;
    unsigned emad_delayed_count;
    QEMUTimer *flap_timer;      /* next step of fault-pude-flap */
    SX2PortSet flap_ports;      /* ports being flapped */
    bool flap_down;             /* ... and now held down */

    /* Frames that could not be delivered to the CPU */
    uint64_t cpu_drops;
    SX2CpuCounters cpu_cnt;
    unsigned tx_depth;          /* nested transmits now on the stack */
};

/* switchx2.c */
typedef void SX2GuardedFn(SwitchX2State *s, void *opaque);
void sx2_run_guarded(SwitchX2State *s, SX2GuardedFn *fn, void *opaque);
void sx2_irq_notify(SwitchX2State *s);
void sx2_schedule_soft_reset(SwitchX2State *s, const char *why);
void sx2_state_reset(SwitchX2State *s);

/* switchx2_fault.c */
void sx2_fault_class_init(ObjectClass *klass);
void sx2_fault_realize(SwitchX2State *s);
void sx2_fault_unrealize(SwitchX2State *s);
void sx2_fault_reset(SwitchX2State *s);
bool sx2_fault_take(SwitchX2State *s, SX2Fault f);
bool sx2_fault_emad_selected(SwitchX2State *s, uint16_t reg_id);
bool sx2_fault_link_held_down(SX2Port *p);
bool sx2_fault_reg_refused(SwitchX2State *s, uint16_t reg_id);
void sx2_fault_finalize(SwitchX2State *s);

/* switchx2_cmd.c */
uint32_t sx2_cir_read(SwitchX2State *s, hwaddr addr);
void sx2_cir_write(SwitchX2State *s, hwaddr addr, uint32_t val);
void sx2_cmd_reset(SwitchX2State *s);
void sx2_cmd_timeout(SwitchX2State *s, void *opaque);

/* switchx2_dma.c */
void sx2_doorbell_write(SwitchX2State *s, hwaddr off, uint32_t val);
void sx2_dma_set_sdq_consumer(SwitchX2State *s, SX2SdqConsumer *fn);
void sx2_dma_reset(SwitchX2State *s);
bool sx2_eq_post(SwitchX2State *s, unsigned eqn, uint8_t *eqe);
bool sx2_rdq_deliver(SwitchX2State *s, unsigned rdqn, uint32_t src,
                     uint16_t trap_id, const uint8_t *buf, size_t len);
uint8_t sx2_cmd_sw2hw_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn,
                         const uint8_t *mbox);
uint8_t sx2_cmd_hw2sw_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn);
uint8_t sx2_cmd_2err_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn);
uint8_t sx2_cmd_query_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn,
                         uint8_t *mbox);
uint8_t sx2_cmd_sw2hw_cq(SwitchX2State *s, uint32_t cqn, const uint8_t *mbox);
uint8_t sx2_cmd_hw2sw_cq(SwitchX2State *s, uint32_t cqn);
uint8_t sx2_cmd_query_cq(SwitchX2State *s, uint32_t cqn, uint8_t *mbox);
uint8_t sx2_cmd_sw2hw_eq(SwitchX2State *s, uint32_t eqn, const uint8_t *mbox);
uint8_t sx2_cmd_hw2sw_eq(SwitchX2State *s, uint32_t eqn);
uint8_t sx2_cmd_query_eq(SwitchX2State *s, uint32_t eqn, uint8_t *mbox);

/* switchx2_emad.c */
bool sx2_reg_access(SwitchX2State *s, uint8_t *buf, size_t len,
                    const char *via);
void sx2_emad_reset(SwitchX2State *s);
void sx2_emad_delayed_tick(SwitchX2State *s, void *opaque);
void sx2_emad_rx_from_cpu(SwitchX2State *s, const uint8_t *frame,
                          size_t len);
void sx2_emad_send_event(SwitchX2State *s, uint16_t trap_id, uint16_t reg_id,
                         const uint8_t *payload, size_t plen,
                         uint16_t sys_port);

/* switchx2_reg.c */
typedef struct SX2RegInfo {
    uint16_t id;
    uint16_t len;
    const char *name;
    /* Returns an EMAD status; payload is at least len bytes */
    uint8_t (*handler)(SwitchX2State *s, uint8_t *pl, bool write);
    /*
     * An older layout's shorter length the register also takes (0: none):
     * the fields beyond it read as 0, and only it is answered.
     */
    uint16_t min_len;
} SX2RegInfo;

const SX2RegInfo *sx2_reg_find(uint16_t id);
const SX2RegInfo *sx2_reg_find_name(const char *name);
void sx2_smid_resize(SwitchX2State *s, unsigned count);
SX2PortSet *sx2_smid_entry(SwitchX2State *s, unsigned mid);
const char *sx2_reg_name(uint16_t id);
SX2Port *sx2_reg_port(SwitchX2State *s, const char *reg, const uint8_t *pl,
                      bool cpu_unsupported);
void sx2_reg_reset(SwitchX2State *s);

/* switchx2_policer.c */
void sx2_policer_reset(SwitchX2State *s);
bool sx2_policer_usable(SwitchX2State *s, unsigned pid);
bool sx2_policer_admit(SwitchX2State *s, unsigned pid, size_t len);
double sx2_policer_rate(const SX2Policer *p);
double sx2_policer_burst(const SX2Policer *p);
uint8_t sx2_reg_qpcr(SwitchX2State *s, uint8_t *pl, bool write);

/* switchx2_span.c */
void sx2_span_reset(SwitchX2State *s);
uint8_t sx2_reg_mpat(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_mpar(SwitchX2State *s, uint8_t *pl, bool write);
void sx2_span_mirror(SwitchX2State *s, const SX2Port *p, unsigned dir,
                     const uint8_t *buf, size_t len);

/* A received frame as the forwarding stage sees it (switchx2_fwd.c) */
typedef struct SX2Frame {
    const uint8_t *buf;
    size_t len;
    bool tagged;            /* carries an 802.1Q header (maybe VID 0) */
    uint16_t tci;           /* as received, 0 if untagged */
    uint16_t vid;           /* after PVID assignment */
    uint16_t fid;
    uint16_t ethertype;     /* after the tag */
    size_t l3off;
    bool routed;            /* from the router: may leave by its ingress port */
} SX2Frame;

/* The largest frame the router builds: the largest MTU plus a header */
#define SX2_ROUTED_MAX                  (SX2_MAX_MTU + 14)

/* What the router does with a frame (sx2_router_route()) */
typedef enum SX2RouteVerdict {
    SX2_ROUTE_DROP,
    SX2_ROUTE_TRAP,
    SX2_ROUTE_FORWARD,
} SX2RouteVerdict;

typedef struct SX2Routed {
    const char *why;            /* DROP: the reason */
    uint16_t trap_id;           /* TRAP */
    /* FORWARD: an untagged frame for VID @vid, out of the egress RIF */
    uint8_t buf[SX2_ROUTED_MAX];
    size_t len;
    uint16_t vid;
    bool sub_port;              /* the RIF is one port's or one LAG's */
    bool lag;
    uint16_t port;              /* sub_port: local port or LAG ID */
    /* Any verdict: packet traps that mirror the packet to the CPU */
    uint16_t mirror_trap[2];
    unsigned n_mirror;
} SX2Routed;

/*
 * Whether the device has a router: a switch partition the profile typed
 * "router port" (CONFIG_PROFILE swid type 8, SwitchX-2 only).  The one
 * place that says how the router attaches (docs/switchx2-conformance.md,
 * "Router registers"); inline, so that every stage may ask.
 */
static inline bool sx2_router_attached(const SwitchX2State *s)
{
    unsigned i;

    for (i = 0; i < SX2_NUM_SWIDS; i++) {
        if (s->profile.swid_type[i] == SX2_SWID_TYPE_ROUTER_PORT) {
            return true;
        }
    }
    return false;
}

/* Whether @reg may be written: the device has a router (GUEST_ERROR) */
static inline bool sx2_router_write_ok(const SwitchX2State *s,
                                       const char *reg)
{
    if (!sx2_router_attached(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: no router: the "
                      "profile types no switch partition router port\n",
                      reg);
        return false;
    }
    return true;
}

/* switchx2_router.c */
void sx2_router_init(SwitchX2State *s);
void sx2_router_fini(SwitchX2State *s);
void sx2_router_reset(SwitchX2State *s);
SX2RouteVerdict sx2_router_route(SwitchX2State *s, SX2Port *in,
                                 const SX2Frame *f, SX2Routed *out);
uint8_t sx2_reg_rgcr(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_ritr(SwitchX2State *s, uint8_t *pl, bool write);
bool sx2_router_lag_has_rif(const SwitchX2State *s, unsigned lag_id);
uint8_t sx2_reg_ricnt(SwitchX2State *s, uint8_t *pl, bool write);

/* switchx2_lpm.c */
void sx2_lpm_init(SwitchX2State *s);
void sx2_lpm_fini(SwitchX2State *s);
void sx2_lpm_reset(SwitchX2State *s);
uint8_t sx2_reg_ralta(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_ralst(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_raltb(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_ralue(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_raleu(SwitchX2State *s, uint8_t *pl, bool write);
const SX2Route *sx2_lpm_lookup(SwitchX2State *s, unsigned vr,
                               unsigned proto, const uint8_t *addr);

/* switchx2_neigh.c */
void sx2_neigh_init(SwitchX2State *s);
void sx2_neigh_fini(SwitchX2State *s);
void sx2_neigh_reset(SwitchX2State *s);
uint8_t sx2_reg_ratr(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_rauht(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_rauhtd(SwitchX2State *s, uint8_t *pl, bool write);
gint sx2_host_key_cmp(gconstpointer a, gconstpointer b);
SX2Adj *sx2_adj_entry(SwitchX2State *s, unsigned index);
unsigned sx2_host_rif_count(SwitchX2State *s, unsigned rif);
SX2Host *sx2_host_lookup(SwitchX2State *s, unsigned rif, unsigned proto,
                         const uint8_t *addr);

/* switchx2_lag.c */
void sx2_lag_reset(SwitchX2State *s);
uint8_t sx2_reg_sldr(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_slcr(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_slcor(SwitchX2State *s, uint8_t *pl, bool write);
uint32_t sx2_lag_hash(SwitchX2State *s, const SX2Port *in,
                      const uint8_t *buf, size_t len, size_t l3off,
                      uint16_t ethertype, uint16_t vid);
unsigned sx2_lag_pick(SwitchX2State *s, unsigned lag_id, uint32_t hash,
                      const SX2PortSet *allowed);
bool sx2_lag_port_distributes(SwitchX2State *s, const SX2Port *p);
bool sx2_lag_created(const SwitchX2State *s, unsigned lag_id);

/* switchx2_fdb.c */
void sx2_fdb_init(SwitchX2State *s);
void sx2_fdb_fini(SwitchX2State *s);
void sx2_fdb_reset(SwitchX2State *s);
const SX2FdbEntry *sx2_fdb_lookup(SwitchX2State *s, const uint8_t *mac,
                                  uint16_t fid);
void sx2_fdb_learn(SwitchX2State *s, SX2Port *in, const uint8_t *mac,
                   uint16_t fid, bool learn);
bool sx2_fdb_source_elsewhere(SwitchX2State *s, SX2Port *in,
                              const uint8_t *mac, uint16_t fid);
void sx2_fdb_entry_key(const SX2FdbEntry *e, uint8_t *mac, uint16_t *fid);
uint8_t sx2_reg_sfdat(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_sfd(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_sfn(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_sfdf(SwitchX2State *s, uint8_t *pl, bool write);

/* switchx2_vlan.c */
void sx2_vlan_port_reset(SX2Port *p);
int sx2_local_port_of_system_port(SwitchX2State *s, uint32_t sys);
uint8_t sx2_reg_spvid(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_spvm(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_spaft(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_svfa(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_svpe(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_sfmr(SwitchX2State *s, uint8_t *pl, bool write);
uint8_t sx2_reg_spvmlr(SwitchX2State *s, uint8_t *pl, bool write);

/* The 802.1Q FIDs, the only ones SwitchX-2 has: FID = VID, 1..4094 */
static inline bool sx2_fid_valid(uint32_t fid)
{
    return fid >= 1 && fid <= SX2_VID_MAX;
}

static inline bool sx2_vid_test(const uint64_t *map, unsigned vid)
{
    return (map[vid / 64] >> (vid % 64)) & 1;
}

static inline void sx2_vid_assign(uint64_t *map, unsigned vid, bool on)
{
    if (on) {
        map[vid / 64] |= 1ull << (vid % 64);
    } else {
        map[vid / 64] &= ~(1ull << (vid % 64));
    }
}

/* STP state of {port, VID}: SPMS layout, 2 bits per VID from VID 4095 down */
static inline uint8_t sx2_stp_state(const SX2Port *p, uint16_t vid)
{
    unsigned be = 4095 - (vid & 0xFFF);

    return (p->stp[be / 4] >> ((vid % 4) * 2)) & 3;
}

/* Combine a register's 8 bit local port and its 2 most significant bits */
static inline unsigned sx2_reg_local_port(const uint8_t *pl)
{
    return sx2_fget(pl, 0x00, 16, 8) | (sx2_fget(pl, 0x00, 12, 2) << 8);
}

/* switchx2_fp.c */
bool sx2_fp_realize(SwitchX2State *s, Error **errp);
void sx2_fp_unrealize(SwitchX2State *s);
void sx2_port_reset(SX2Port *p);
SX2Port *sx2_port_get(SwitchX2State *s, uint32_t local_port);
void sx2_port_update_oper(SX2Port *p);
void sx2_port_egress(SX2Port *p, const uint8_t *buf, size_t len);
void sx2_port_mac(SwitchX2State *s, unsigned local_port, uint8_t *mac);
uint32_t sx2_port_eth_cap(const SX2Port *p);
uint32_t sx2_port_eth_oper(const SX2Port *p);

/* switchx2_cpu.c: the CPU port, the only way frames reach the CPU */
void sx2_cpu_init(SwitchX2State *s);
bool sx2_cpu_trap_action_traps(uint8_t action);
bool sx2_trap_is_event(unsigned trap_id);
bool sx2_cpu_trap(SwitchX2State *s, uint16_t trap_id, uint32_t src,
                  const uint8_t *buf, size_t len);

/*
 * Where a frame for the CPU came from, as its CQE (v0) tells: the system
 * port, or for a LAG member the LAG (bits 15-4) and the member's port
 * index (bits 3-0) with the CQE's lag bit (SX2_CPU_SRC_LAG).
 */
#define SX2_CPU_SRC_LAG     (1u << 16)

static inline uint32_t sx2_cpu_src(const SX2Port *p)
{
    if (p->lagged) {
        return SX2_CPU_SRC_LAG | (uint32_t)p->lag_id << 4 | p->lag_index;
    }
    return p->system_port;
}

/* switchx2_hmp.c: "info switchx2"; QMP (switchx2_qmp.c) is declared by QAPI */
void sx2_hmp_info(Monitor *mon, const QDict *qdict);

/* switchx2_fwd.c */
void sx2_fwd_ingress(SwitchX2State *s, SX2Port *in, const uint8_t *buf,
                     size_t len);
void sx2_flood_reset(SwitchX2State *s);
unsigned sx2_flood_tables(SwitchX2State *s, unsigned kind);
int sx2_flood_table_swid(SwitchX2State *s, unsigned kind, unsigned table);
SX2PortSet *sx2_flood_entry(SwitchX2State *s, unsigned kind, unsigned table,
                            unsigned index);

static inline bool sx2_portset_test(const SX2PortSet *ps, unsigned port)
{
    return port < 64 ? (ps->lo >> port) & 1 : (port == 64 ? ps->hi & 1 : 0);
}

static inline void sx2_portset_assign(SX2PortSet *ps, unsigned port, bool on)
{
    if (port < 64) {
        ps->lo = on ? ps->lo | (1ull << port) : ps->lo & ~(1ull << port);
    } else if (port == 64) {
        ps->hi = on;
    }
}

#endif /* HW_NET_SWITCHX2_H */
