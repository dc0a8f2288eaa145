/*
 * Mellanox SwitchX-2 switch ASIC emulation: front panel ports
 *
 * Each local port 1..ports is a QEMU NIC whose peer is the netdev given
 * by the portN property.  The port MAC counts frames, enforces the port
 * MTU and tracks the operational state: up iff the port is
 * administratively up, has lanes mapped and its netdev link is up.
 * Operational state changes are reported to the CPU as PUDE events.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "net/eth.h"
#include "switchx2.h"
#include "trace.h"

/* Transmits one frame may cause through hubs back into the switch */
#define SX2_MAX_TX_DEPTH    4

/* Frames the device takes between two pauses (see sx2_rx_budget_spend) */
#define SX2_RX_BUDGET       64

/* Frames a port's egress buffer holds behind one its peer queued */
#define SX2_TX_FIFO_MAX     256

typedef struct SX2TxFrame {
    size_t len;
    uint8_t data[];
} SX2TxFrame;

static void sx2_port_tx_flush(SX2Port *p);

SX2Port *sx2_port_get(SwitchX2State *s, uint32_t local_port)
{
    if (local_port < 1 || local_port > s->num_ports) {
        return NULL;
    }
    return &s->fp[local_port];
}

void sx2_port_mac(SwitchX2State *s, unsigned local_port, uint8_t *mac)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        v = (v << 8) | s->base_mac.a[i];
    }
    v += local_port;
    for (i = 0; i < 6; i++) {
        mac[5 - i] = v >> (8 * i);
    }
}

uint32_t sx2_port_eth_cap(const SX2Port *p)
{
    switch (p->width) {
    case 4:
        return SX2_ETH_CAP_1G | SX2_ETH_CAP_10G | SX2_ETH_CAP_40G;
    case 2:
    case 1:
        return SX2_ETH_CAP_1G | SX2_ETH_CAP_10G;
    default:
        return 0;
    }
}

/* The link mode the port trains to: the fastest one enabled */
uint32_t sx2_port_eth_oper(const SX2Port *p)
{
    static const uint32_t pref[] = {
        SX2_ETH_40GBASE_CR4, SX2_ETH_40GBASE_SR4, SX2_ETH_40GBASE_LR4_ER4,
        SX2_ETH_40GBASE_KR4, SX2_ETH_10GBASE_CR, SX2_ETH_10GBASE_SR,
        SX2_ETH_10GBASE_ER_LR, SX2_ETH_10GBASE_KR, SX2_ETH_10GBASE_CX4,
        SX2_ETH_10GBASE_KX4, SX2_ETH_1000BASE_KX, SX2_ETH_SGMII,
    };
    uint32_t en = p->eth_proto_admin & sx2_port_eth_cap(p);
    unsigned i;

    for (i = 0; i < ARRAY_SIZE(pref); i++) {
        if (en & pref[i]) {
            return pref[i];
        }
    }
    return 0;
}

static bool sx2_port_link_ok(SX2Port *p)
{
    NetClientState *nc;

    if (!p->nic) {
        return false;
    }
    nc = qemu_get_queue(p->nic);
    return nc->peer && !nc->link_down && !nc->peer->link_down &&
           !sx2_fault_link_held_down(p);
}

/*
 * The NIC at the far end of this port's cable, or NULL. A switch port is
 * cabled to a guest NIC through a QEMU hub of exactly two ports (NICs
 * cannot peer with each other); anything else is not a cable.
 */
static NetClientState *sx2_port_far_end(SX2Port *p)
{
    NetClientState *nc = qemu_get_queue(p->nic);
    g_autofree NetClientState **ports = NULL;
    NetClientState *far = NULL;
    int hub, id, n, i;

    if (!nc->peer || nc->peer->info->type != NET_CLIENT_DRIVER_HUBPORT ||
        net_hub_id_for_client(nc->peer, &hub) < 0) {
        return NULL;
    }
    /* Every client but the NICs: the hub ports are among them. */
    n = qemu_find_net_clients_except(NULL, NULL, NET_CLIENT_DRIVER_NIC, 0);
    ports = g_new0(NetClientState *, MAX(n, 1));
    n = qemu_find_net_clients_except(NULL, ports, NET_CLIENT_DRIVER_NIC, n);
    for (i = 0; i < n; i++) {
        if (ports[i] == nc->peer ||
            ports[i]->info->type != NET_CLIENT_DRIVER_HUBPORT ||
            net_hub_id_for_client(ports[i], &id) < 0 || id != hub) {
            continue;
        }
        if (far || !ports[i]->peer ||
            ports[i]->peer->info->type != NET_CLIENT_DRIVER_NIC) {
            return NULL;
        }
        far = ports[i]->peer;
    }
    return far;
}

/*
 * A port that is administratively down has its transmitter off: the link
 * partner loses carrier. QEMU's hubs do not carry link state, so tell the
 * far-end NIC directly, and give back only the link we took.
 */
static void sx2_port_drive_far_end(SX2Port *p, bool signal)
{
    NetClientState *far;

    if (!p->nic || signal == !p->far_end_forced_down) {
        return;
    }
    far = sx2_port_far_end(p);
    if (!far) {
        p->far_end_forced_down = false;
        return;
    }
    if (!signal && far->link_down) {
        return;     /* already down for another reason: not ours */
    }
    far->link_down = !signal;
    p->far_end_forced_down = !signal;
    trace_switchx2_far_end_link(p->local_port, far->name, signal);
    if (far->info->link_status_changed) {
        far->info->link_status_changed(far);
    }
}

static void sx2_port_send_pude(SX2Port *p)
{
    uint8_t pude[SX2_REG_PUDE_LEN] = { 0 };

    sx2_fset(pude, SX2_REG_PUDE_SWID, p->swid);
    sx2_fset(pude, SX2_REG_PUDE_LOCAL_PORT, p->local_port);
    sx2_fset(pude, SX2_REG_PUDE_ADMIN_STATUS, p->admin_status);
    sx2_fset(pude, SX2_REG_PUDE_OPER_STATUS, p->oper_status);
    trace_switchx2_pude(p->local_port, p->oper_status);
    sx2_emad_send_event(p->s, SX2_TRAP_PUDE, SX2_REG_PUDE_ID, pude,
                        sizeof(pude), p->local_port);
    if (p->event_mode == SX2_EVENT_SINGLE) {
        p->event_mode = SX2_EVENT_NONE;
    }
}

void sx2_port_update_oper(SX2Port *p)
{
    bool admin_up = p->admin_status == SX2_ADMIN_UP ||
                    p->admin_status == SX2_ADMIN_UP_ONCE;
    uint8_t oper;

    sx2_port_drive_far_end(p, admin_up && p->width);
    oper = admin_up && p->width && sx2_port_eth_oper(p) &&
           sx2_port_link_ok(p) ? SX2_OPER_UP : SX2_OPER_DOWN;
    if (oper == p->oper_status) {
        return;
    }
    p->oper_status = oper;
    trace_switchx2_link(p->local_port, oper == SX2_OPER_UP);
    if (oper != SX2_OPER_UP) {
        sx2_port_tx_flush(p);
    }
    if (p->event_mode != SX2_EVENT_NONE) {
        sx2_port_send_pude(p);
    }
}

void sx2_port_reset(SX2Port *p)
{
    SwitchX2State *s = p->s;
    unsigned i;

    if (!s) {
        return;
    }
    sx2_port_tx_flush(p);
    p->swid = 0;
    p->system_port = p->local_port;
    p->admin_status = SX2_ADMIN_DOWN;
    p->oper_status = SX2_OPER_DOWN;
    p->event_mode = SX2_EVENT_NONE;
    p->admin_mtu = SX2_DEFAULT_MTU + ETH_HLEN + 4 + 4;
    p->proto_mask = SX2_PTYS_PROTO_ETH;
    p->an_disable = false;
    p->rxtx_differ = false;
    p->width = p->local_port >= 1 && p->local_port <= s->num_ports ?
               SX2_LANES_PER_PORT : 0;
    sx2_port_drive_far_end(p, false);
    for (i = 0; i < SX2_LANES_PER_PORT; i++) {
        p->module[i] = p->width ? p->local_port - 1 : 0;
        p->tx_lane[i] = p->width ? i : 0;
        p->rx_lane[i] = p->width ? i : 0;
    }
    p->eth_proto_admin = sx2_port_eth_cap(p);
    p->ib_proto_admin = SX2_IB_PROTO_CAP;
    p->ib_width_admin = SX2_IB_WIDTH_CAP;
    p->learn_mode = SX2_LEARN_DISABLE;
    p->ib_port = 0;
    sx2_port_mac(s, p->local_port, p->mac);
    /* Every VID discarding, the reg.h default: 2 bits of 0b01 per VID */
    memset(p->stp, 0x55, sizeof(p->stp));
    sx2_vlan_port_reset(p);
    memset(&p->cnt, 0, sizeof(p->cnt));
    memset(p->ppcnt_base, 0, sizeof(p->ppcnt_base));
}

/* A frame of @len bytes (no FCS) on the wire: padded, with its FCS */
static size_t sx2_wire_len(size_t len)
{
    return MAX(len, SX2_MIN_FRAME) + SX2_FCS_LEN;
}

/*
 * IEEE 802.3 aOctets*OK count "data and padding octets": the frame
 * without destination, source, 802.1Q tag, length/type and FCS.
 */
static size_t sx2_payload_len(const uint8_t *buf, size_t len)
{
    size_t hdr = ETH_HLEN;

    if (len >= ETH_HLEN + 4 && lduw_be_p(buf + 12) == ETH_P_VLAN) {
        hdr += 4;
    }
    return sx2_wire_len(len) - SX2_FCS_LEN - hdr;
}

/* RFC 2819: every frame received, good or bad, by length with FCS */
static void sx2_count_rx_any(SX2PortCounters *c, size_t wire)
{
    static const size_t hist_max[] = { 64, 127, 255, 511, 1023, 1518,
                                       2047, 4095, 8191, 10239 };
    unsigned i;

    c->rx_all_octets += wire;
    c->rx_oversize += wire > SX2_RMON_MAX_FRAME;
    for (i = 0; wire >= 64 && i < ARRAY_SIZE(hist_max); i++) {
        if (wire <= hist_max[i]) {
            c->rx_hist[i]++;
            break;
        }
    }
}

static void sx2_count(SX2PortCounters *c, const uint8_t *buf, size_t len,
                      bool rx)
{
    bool bcast = is_broadcast_ether_addr(buf);
    bool mcast = !bcast && is_multicast_ether_addr(buf);
    size_t wire = sx2_wire_len(len);

    if (rx) {
        c->rx_frames++;
        c->rx_octets += wire;
        c->rx_payload += sx2_payload_len(buf, len);
        c->rx_bcast += bcast;
        c->rx_mcast += mcast;
        c->rx_ucast += !bcast && !mcast;
        sx2_count_rx_any(c, wire);
    } else {
        c->tx_frames++;
        c->tx_octets += wire;
        c->tx_payload += sx2_payload_len(buf, len);
        c->tx_bcast += bcast;
        c->tx_mcast += mcast;
        c->tx_ucast += !bcast && !mcast;
    }
}

static void sx2_port_tx_done(NetClientState *nc, ssize_t len);

/*
 * Put a frame on the wire.  A peer that cannot take it now queues it
 * and calls sx2_port_tx_done() once it did; until then the port sends
 * nothing else, or a later frame could overtake it (QEMU delivers a new
 * frame at once when the peer has room, whatever its queue holds).
 */
static void sx2_port_wire_send(SX2Port *p, const uint8_t *buf, size_t len)
{
    trace_switchx2_tx(p->local_port, len);
    sx2_count(&p->cnt, buf, len, false);
    if (!qemu_send_packet_async(qemu_get_queue(p->nic), buf, len,
                                sx2_port_tx_done)) {
        p->tx_waiting = true;
    }
}

/* Hold a frame in the egress buffer, or drop it there when it is full */
static void sx2_port_tx_hold(SX2Port *p, const uint8_t *buf, size_t len)
{
    SX2TxFrame *f;

    if (g_queue_get_length(&p->tx_fifo) >= SX2_TX_FIFO_MAX) {
        trace_switchx2_tx_drop(p->local_port, len, "egress buffer full");
        p->cnt.tx_discards++;
        return;
    }
    f = g_malloc(sizeof(*f) + len);
    f->len = len;
    memcpy(f->data, buf, len);
    g_queue_push_tail(&p->tx_fifo, f);
}

/* Empty the egress buffer, dropping what it holds (link down, reset) */
static void sx2_port_tx_flush(SX2Port *p)
{
    SX2TxFrame *f;

    while ((f = g_queue_pop_head(&p->tx_fifo))) {
        trace_switchx2_tx_drop(p->local_port, f->len, "egress buffer flushed");
        p->cnt.tx_discards++;
        g_free(f);
    }
}

/* The peer took the queued frame: send what waited behind it */
static void sx2_port_tx_done(NetClientState *nc, ssize_t len)
{
    SX2Port *p = qemu_get_nic_opaque(nc);
    SX2TxFrame *f;

    p->tx_waiting = false;
    if (p->s->unplugging) {
        sx2_port_tx_flush(p);
        return;
    }
    /* Only a port that is up holds frames: link down flushes them */
    while (!p->tx_waiting && (f = g_queue_pop_head(&p->tx_fifo))) {
        sx2_port_wire_send(p, f->data, f->len);
        g_free(f);
    }
}

static void sx2_port_transmit(SX2Port *p, const uint8_t *buf, size_t len)
{
    uint8_t pad[SX2_MIN_FRAME];

    if (len < ETH_HLEN) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: port %u: runt frame of %zu "
                      "bytes not sent\n", p->local_port, len);
        p->cnt.tx_discards++;
        return;
    }
    if (p->oper_status != SX2_OPER_UP) {
        trace_switchx2_tx_drop(p->local_port, len, "link down");
        p->cnt.tx_discards++;
        return;
    }
    if (len > p->admin_mtu) {
        trace_switchx2_tx_drop(p->local_port, len, "exceeds MTU");
        p->cnt.tx_too_long++;
        p->cnt.tx_discards++;
        return;
    }
    if (len < SX2_MIN_FRAME) {
        memcpy(pad, buf, len);
        memset(pad + len, 0, SX2_MIN_FRAME - len);
        buf = pad;
        len = SX2_MIN_FRAME;
    }
    if (p->tx_waiting) {
        sx2_port_tx_hold(p, buf, len);
        return;
    }
    sx2_port_wire_send(p, buf, len);
}

/*
 * Transmit a frame out of a front panel port.  A hub may hand it
 * straight back to one of our ports, which may send again: the nesting
 * is bounded here.
 */
void sx2_port_egress(SX2Port *p, const uint8_t *buf, size_t len)
{
    SwitchX2State *s = p->s;

    if (s->tx_depth >= SX2_MAX_TX_DEPTH) {
        trace_switchx2_tx_drop(p->local_port, len, "nested transmit");
        p->cnt.tx_discards++;
        return;
    }
    s->tx_depth++;
    sx2_port_transmit(p, buf, len);
    s->tx_depth--;
}

/*
 * Ingress budget.  Ports cabled into a loop (two on one hub, switches in
 * a ring) storm when flooding is on, as silicon does.  But each frame a
 * port takes is forwarded on QEMU's stack, and the net queue at once
 * delivers what comes back, so an unbounded storm would never return to
 * the main loop.  The whole device takes at most SX2_RX_BUDGET frames at
 * a time; past that its ports refuse frames, the net queues hold them,
 * and a timer refills the budget and flushes the queues.  Frames are
 * delayed, not dropped (until a net queue itself overflows).
 *
 * The timer waits as long as the spent budget kept the device busy.  A
 * storm runs on the main loop with the BQL held; refilled at once, it
 * would leave a vCPU too few chances at the BQL to run the guest that is
 * meant to stop it.  So forwarding takes at most half the main loop's
 * time, which only a storm reaches: a guest making the traffic is far
 * slower than the device forwarding it.
 */
static void sx2_rx_budget_spend(SwitchX2State *s, int64_t busy_ns)
{
    s->rx_busy_ns += busy_ns;
    if (--s->rx_budget == 0) {
        trace_switchx2_rx_budget_spent(SX2_RX_BUDGET, s->rx_busy_ns);
        timer_mod(s->rx_timer, qemu_clock_get_ns(QEMU_CLOCK_REALTIME) +
                  s->rx_busy_ns);
    }
}

/* The bottom half runs under the device's re-entrancy guard */
static void sx2_rx_resume_timer(void *opaque)
{
    SwitchX2State *s = opaque;

    qemu_bh_schedule(s->rx_bh);
}

static void sx2_rx_resume_bh(void *opaque)
{
    SwitchX2State *s = opaque;
    unsigned i, lp;

    s->rx_budget = SX2_RX_BUDGET;
    s->rx_busy_ns = 0;
    /* Start with another port each turn so that none starves the rest */
    s->rx_flush_next = s->rx_flush_next % s->num_ports + 1;
    trace_switchx2_rx_budget_resume(s->rx_flush_next);
    for (i = 0; i < s->num_ports; i++) {
        lp = (s->rx_flush_next - 1 + i) % s->num_ports + 1;
        if (s->fp[lp].nic) {
            qemu_flush_queued_packets(qemu_get_queue(s->fp[lp].nic));
        }
    }
}

static bool sx2_port_can_receive(NetClientState *nc)
{
    SX2Port *p = qemu_get_nic_opaque(nc);

    /*
     * Only the ingress budget holds frames back: otherwise, like the
     * silicon, the switch drops (and counts) what it cannot forward.
     */
    return p->s->unplugging || p->s->rx_budget > 0;
}

/* A frame on the wire of port @p: count it and forward it */
static void sx2_port_ingress(SX2Port *p, const uint8_t *buf, size_t size)
{
    SwitchX2State *s = p->s;

    if (s->reset_pending || p->oper_status != SX2_OPER_UP) {
        trace_switchx2_rx_port_drop(p->local_port, size, "port down");
        return;
    }
    if (size < ETH_HLEN) {
        /* Not even a header: a runt, which padding cannot make whole */
        trace_switchx2_rx_port_drop(p->local_port, size, "runt");
        p->cnt.rx_undersize++;
        sx2_count_rx_any(&p->cnt, size + SX2_FCS_LEN);
        return;
    }
    if (size > p->admin_mtu) {
        trace_switchx2_rx_port_drop(p->local_port, size, "exceeds MTU");
        p->cnt.rx_too_long++;
        sx2_count_rx_any(&p->cnt, sx2_wire_len(size));
        return;
    }
    sx2_count(&p->cnt, buf, size, true);
    trace_switchx2_rx(p->local_port, size);
    sx2_fwd_ingress(s, p, buf, size);
}

static ssize_t sx2_port_receive(NetClientState *nc, const uint8_t *buf,
                                size_t size)
{
    SX2Port *p = qemu_get_nic_opaque(nc);
    SwitchX2State *s = p->s;
    int64_t start;

    if (s->unplugging) {
        return size;
    }
    if (!s->rx_budget) {
        return 0;       /* the net queue keeps it for sx2_rx_resume_bh() */
    }
    start = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    sx2_port_ingress(p, buf, size);
    sx2_rx_budget_spend(s, qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - start);
    return size;
}

static void sx2_port_link_changed_guarded(SwitchX2State *s, void *opaque)
{
    sx2_port_update_oper(opaque);
}

static void sx2_port_link_status_changed(NetClientState *nc)
{
    SX2Port *p = qemu_get_nic_opaque(nc);

    if (p->s->unplugging) {
        return;
    }
    /*
     * QMP set_link, or another switch's PAOS through the cable, gets
     * here: not a guest access to us, so nothing has engaged the guard,
     * yet the PUDE this may raise is DMA and MSI-X.
     */
    sx2_run_guarded(p->s, sx2_port_link_changed_guarded, p);
}

static NetClientInfo sx2_port_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = sx2_port_can_receive,
    .receive = sx2_port_receive,
    .link_status_changed = sx2_port_link_status_changed,
};

bool sx2_fp_realize(SwitchX2State *s, Error **errp)
{
    DeviceState *dev = DEVICE(s);
    unsigned i;

    for (i = 0; i <= SX2_MAX_PORTS; i++) {
        SX2Port *p = &s->fp[i];

        p->s = s;
        p->local_port = i;
        g_queue_init(&p->tx_fifo);
    }
    for (i = 1; i <= s->num_ports; i++) {
        SX2Port *p = &s->fp[i];
        g_autofree char *name = dev->id ? g_strdup_printf("%s.p%u",
                                                          dev->id, i) : NULL;

        sx2_port_mac(s, i, p->conf.macaddr.a);
        p->nic = qemu_new_nic(&sx2_port_info, &p->conf,
                              object_get_typename(OBJECT(s)), name,
                              &dev->mem_reentrancy_guard, p);
        qemu_format_nic_info_str(qemu_get_queue(p->nic), p->conf.macaddr.a);
    }
    s->rx_budget = SX2_RX_BUDGET;
    s->rx_busy_ns = 0;
    s->rx_flush_next = 0;
    s->rx_bh = qemu_bh_new_guarded(sx2_rx_resume_bh, s,
                                   &dev->mem_reentrancy_guard);
    s->rx_timer = timer_new_ns(QEMU_CLOCK_REALTIME, sx2_rx_resume_timer, s);
    return true;
}

/*
 * Unplug: give the far-end NICs back the links our ports took, then let
 * go of the ports.  s->unplugging is set: a frame or link change that
 * arrives meanwhile (a far end coming back up may be one of our own
 * ports) is ignored.
 */
void sx2_fp_unrealize(SwitchX2State *s)
{
    unsigned i;

    assert(s->unplugging);
    for (i = 1; i <= SX2_MAX_PORTS; i++) {
        if (s->fp[i].nic) {
            sx2_port_drive_far_end(&s->fp[i], true);
        }
    }
    if (s->rx_timer) {
        timer_free(s->rx_timer);
        s->rx_timer = NULL;
    }
    if (s->rx_bh) {
        qemu_bh_delete(s->rx_bh);
        s->rx_bh = NULL;
    }
    for (i = 1; i <= SX2_MAX_PORTS; i++) {
        NetClientState *nc;

        if (!s->fp[i].nic) {
            continue;
        }
        /*
         * Our frames still waiting in the peer's queue name us as sender;
         * purging one completes it, and sx2_port_tx_done() then empties
         * the egress buffer behind it.
         */
        nc = qemu_get_queue(s->fp[i].nic);
        qemu_purge_queued_packets(nc);
        /* This also completes the frames held for us (ingress budget) */
        qemu_del_nic(s->fp[i].nic);
        s->fp[i].nic = NULL;
    }
}
