/*
 * Mellanox SwitchX-2 switch ASIC emulation: EMAD register access
 *
 * Register accesses arrive either in an ACCESS_REG command mailbox or
 * as EMAD Ethernet frames sent by the CPU on an SDQ.  Both carry the
 * same TLV sequence: an operation TLV (register ID, method, status,
 * transaction ID), optionally a string TLV, the register TLV with the
 * payload, and an end TLV.  The device answers in place: it sets the
 * response bit and the status, and updates the payload.  EMAD answers
 * and asynchronous events (e.g. PUDE) travel back to the CPU as frames
 * trapped with the ETHEMAD / event trap IDs.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "switchx2.h"
#include "trace.h"

#define SX2_OP_TLV_BYTES        (SX2_OP_TLV_LEN_DW * 4)
#define SX2_STRING_TLV_BYTES    (SX2_STRING_TLV_LEN_DW * 4)

/* Source MAC the device uses for the frames it originates */
static const uint8_t sx2_emad_dev_mac[6] = { 0x00, 0x02, 0xc9, 0x01, 0x02,
                                             0x03 };
static const uint8_t sx2_emad_host_mac[6] = { 0x01, 0x02, 0xc9, 0x00, 0x00,
                                              0x01 };

static const char *sx2_emad_status_str(uint8_t status)
{
    switch (status) {
    case SX2_EMAD_STATUS_SUCCESS:            return "success";
    case SX2_EMAD_STATUS_BUSY:               return "busy";
    case SX2_EMAD_STATUS_VERSION_NOT_SUPP:   return "version not supported";
    case SX2_EMAD_STATUS_UNKNOWN_TLV:        return "unknown TLV";
    case SX2_EMAD_STATUS_REG_NOT_SUPP:       return "register not supported";
    case SX2_EMAD_STATUS_CLASS_NOT_SUPP:     return "class not supported";
    case SX2_EMAD_STATUS_METHOD_NOT_SUPP:    return "method not supported";
    case SX2_EMAD_STATUS_BAD_PARAMETER:      return "bad parameter";
    case SX2_EMAD_STATUS_RESOURCE_NOT_AVAIL: return "resource not available";
    case SX2_EMAD_STATUS_INTERNAL_ERROR:     return "internal error";
    default:                                 return "unknown";
    }
}

/* Whether buf[0] holds an operation TLV of a request: one to answer */
static bool sx2_op_tlv_ok(const uint8_t *buf, size_t len, const char *via)
{
    if (len < SX2_OP_TLV_BYTES ||
        sx2_fget(buf, SX2_TLV_TYPE) != SX2_TLV_OP ||
        sx2_fget(buf, SX2_TLV_LEN) != SX2_OP_TLV_LEN_DW) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s register access "
                      "without a valid operation TLV\n", via);
        return false;
    }
    if (sx2_fget(buf, SX2_OP_TLV_R)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s register access is a "
                      "response, ignored\n", via);
        return false;
    }
    return true;
}

/*
 * The register's handler on @plen bytes of payload at @pl: in place, or,
 * for an older layout's shorter payload (SX2RegInfo.min_len), on a copy
 * padded with zeros to the register's length, of which only @plen bytes
 * go back.
 */
static uint8_t sx2_reg_call(SwitchX2State *s, const SX2RegInfo *reg,
                            uint8_t *pl, size_t plen, bool write)
{
    g_autofree uint8_t *full = NULL;
    uint8_t status;

    if (plen >= reg->len) {
        return reg->handler(s, pl, write);
    }
    full = g_malloc0(reg->len);
    memcpy(full, pl, plen);
    status = reg->handler(s, full, write);
    memcpy(pl, full, plen);
    return status;
}

/*
 * Process the TLV sequence that starts with the operation TLV at buf[0].
 * Returns false if no usable operation TLV is present, in which case
 * nothing was modified and there is no one to answer.
 */
bool sx2_reg_access(SwitchX2State *s, uint8_t *buf, size_t len,
                    const char *via)
{
    const SX2RegInfo *reg;
    size_t off, string_off = 0, reg_off = 0, plen = 0;
    uint16_t reg_id;
    uint8_t method, status;
    uint64_t tid;

    if (!sx2_op_tlv_ok(buf, len, via)) {
        return false;
    }
    reg_id = sx2_fget(buf, SX2_OP_TLV_REGISTER_ID);
    method = sx2_fget(buf, SX2_OP_TLV_METHOD);
    tid = sx2_get64(buf, SX2_OP_TLV_TID_OFF);

    /* Optional string TLV, then the register TLV */
    off = SX2_OP_TLV_BYTES;
    if (off + 4 <= len && sx2_fget(buf + off, SX2_TLV_TYPE) == SX2_TLV_STRING) {
        if (sx2_fget(buf + off, SX2_TLV_LEN) != SX2_STRING_TLV_LEN_DW ||
            off + SX2_STRING_TLV_BYTES > len) {
            status = SX2_EMAD_STATUS_BAD_PARAMETER;
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: malformed string "
                          "TLV\n", via);
            goto out;
        }
        string_off = off;
        off += SX2_STRING_TLV_BYTES;
    }
    if (off + 4 > len || sx2_fget(buf + off, SX2_TLV_TYPE) != SX2_TLV_REG) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: register 0x%04x access "
                      "without a register TLV\n", via, reg_id);
        status = SX2_EMAD_STATUS_UNKNOWN_TLV;
        goto out;
    }
    plen = sx2_fget(buf + off, SX2_TLV_LEN);
    if (plen < 1 || off + plen * 4 > len) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: register 0x%04x TLV "
                      "length %zu dwords overruns the %zu byte buffer\n",
                      via, reg_id, plen, len);
        status = SX2_EMAD_STATUS_BAD_PARAMETER;
        plen = 0;
        goto out;
    }
    plen = (plen - 1) * 4;
    reg_off = off + 4;

    if (sx2_fget(buf, SX2_OP_TLV_CLASS) != SX2_EMAD_CLASS_REG_ACCESS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: EMAD class %u\n", via,
                      sx2_fget(buf, SX2_OP_TLV_CLASS));
        status = SX2_EMAD_STATUS_CLASS_NOT_SUPP;
        goto out;
    }
    if (sx2_fget(buf, SX2_OP_TLV_DR)) {
        /* Direct route EMADs address other devices; there are none */
        status = SX2_EMAD_STATUS_BAD_PARAMETER;
        goto out;
    }
    if (method != SX2_EMAD_METHOD_QUERY && method != SX2_EMAD_METHOD_WRITE) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: register 0x%04x "
                      "method %u\n", via, reg_id, method);
        status = SX2_EMAD_STATUS_METHOD_NOT_SUPP;
        goto out;
    }
    reg = sx2_reg_find(reg_id);
    if (!reg) {
        status = SX2_EMAD_STATUS_REG_NOT_SUPP;
        goto out;
    }
    if (plen < (reg->min_len ? reg->min_len : reg->len)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: %s payload is %zu "
                      "bytes, register is %u\n", via, reg->name, plen,
                      reg->len);
        status = SX2_EMAD_STATUS_BAD_PARAMETER;
        goto out;
    }
    if (method == SX2_EMAD_METHOD_WRITE && sx2_fault_reg_refused(s, reg->id)) {
        /* Host-side knob: silicon without this register */
        qemu_log_mask(LOG_UNIMP, "switchx2: %s: write refused: the "
                      "refuse-reg knob makes this register absent\n",
                      reg->name);
        trace_switchx2_refuse_reg(via, reg->name);
        status = SX2_EMAD_STATUS_BAD_PARAMETER;
        goto out;
    }
    status = sx2_reg_call(s, reg, buf + reg_off, plen,
                          method == SX2_EMAD_METHOD_WRITE);

out:
    trace_switchx2_emad(via, reg_id, sx2_reg_name(reg_id), method, tid,
                        status);
    sx2_fset(buf, SX2_OP_TLV_R, 1);
    sx2_fset(buf, SX2_OP_TLV_STATUS, status);
    if (string_off && status != SX2_EMAD_STATUS_SUCCESS) {
        char *msg = g_strdup_printf("%s: %s", sx2_reg_name(reg_id),
                                    sx2_emad_status_str(status));

        memset(buf + string_off + 4, 0, SX2_STRING_TLV_STR_LEN);
        memcpy(buf + string_off + 4, msg,
               MIN(strlen(msg), SX2_STRING_TLV_STR_LEN - 1));
        g_free(msg);
    }
    return true;
}

/*
 * Answer an EMAD in place, or not: false if it carries no request.
 * fault-emad-error and fault-emad-busy answer the EMADs they select
 * (sx2_fault_emad_selected()) without executing them.
 */
static bool sx2_emad_answer(SwitchX2State *s, uint8_t *op, size_t len)
{
    uint8_t status;

    if (!sx2_op_tlv_ok(op, len, "emad")) {
        return false;
    }
    if (!sx2_fault_emad_selected(s, sx2_fget(op, SX2_OP_TLV_REGISTER_ID))) {
        return sx2_reg_access(s, op, len, "emad");
    }
    /* Selected: one of the two is armed */
    if (sx2_fault_take(s, SX2_FAULT_EMAD_ERROR)) {
        status = SX2_EMAD_STATUS_INTERNAL_ERROR;
    } else {
        sx2_fault_take(s, SX2_FAULT_EMAD_BUSY);
        status = SX2_EMAD_STATUS_BUSY;
    }
    sx2_fset(op, SX2_OP_TLV_R, 1);
    sx2_fset(op, SX2_OP_TLV_STATUS, status);
    return true;
}

static void sx2_emad_deliver(SwitchX2State *s, const uint8_t *resp,
                             size_t len)
{
    if (!sx2_cpu_trap(s, SX2_TRAP_ETHEMAD, SX2_CPU_PORT, resp, len)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: EMAD response could "
                      "not be delivered to the CPU\n");
    }
}

/*
 * Responses fault-emad-delay-ms holds back.  They leave in order: one
 * never overtakes an earlier one, whatever the delay was when each was
 * queued.  The queue is bounded; a response beyond it is lost.
 */
#define SX2_EMAD_DELAYED_MAX    256

static void sx2_emad_delay(SwitchX2State *s, const uint8_t *resp,
                           size_t len)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    SX2DelayedEmad *d, *last = QSIMPLEQ_LAST(&s->emad_delayed,
                                             SX2DelayedEmad, next);

    if (s->emad_delayed_count >= SX2_EMAD_DELAYED_MAX) {
        trace_switchx2_emad_delayed(s->emad_delayed_count, -1);
        return;
    }
    d = g_malloc(sizeof(*d) + len);
    d->deadline = now + (int64_t)s->fault[SX2_FAULT_EMAD_DELAY_MS] *
                        SCALE_MS;
    if (last && last->deadline > d->deadline) {
        d->deadline = last->deadline;
    }
    d->len = len;
    memcpy(d->frame, resp, len);
    QSIMPLEQ_INSERT_TAIL(&s->emad_delayed, d, next);
    s->emad_delayed_count++;
    trace_switchx2_emad_delayed(s->emad_delayed_count, d->deadline);
    if (d == QSIMPLEQ_FIRST(&s->emad_delayed)) {
        timer_mod(s->emad_timer, d->deadline);
    }
}

/* The emad_timer: send what is due, wait for the rest */
void sx2_emad_delayed_tick(SwitchX2State *s, void *opaque)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    SX2DelayedEmad *d;

    while ((d = QSIMPLEQ_FIRST(&s->emad_delayed)) && d->deadline <= now) {
        QSIMPLEQ_REMOVE_HEAD(&s->emad_delayed, next);
        s->emad_delayed_count--;
        sx2_emad_deliver(s, d->frame, d->len);
        g_free(d);
    }
    if (d) {
        timer_mod(s->emad_timer, d->deadline);
    }
}

/* Device reset or unplug: the responses held back are lost */
void sx2_emad_reset(SwitchX2State *s)
{
    SX2DelayedEmad *d;

    if (s->emad_timer) {
        timer_del(s->emad_timer);
    }
    while ((d = QSIMPLEQ_FIRST(&s->emad_delayed))) {
        QSIMPLEQ_REMOVE_HEAD(&s->emad_delayed, next);
        g_free(d);
    }
    s->emad_delayed_count = 0;
}

/* Send a response, unless fault-emad-drop loses or -delay-ms holds it */
static void sx2_emad_respond(SwitchX2State *s, const uint8_t *resp,
                             size_t len)
{
    if (sx2_fault_take(s, SX2_FAULT_EMAD_DROP)) {
        return;
    }
    if (s->fault[SX2_FAULT_EMAD_DELAY_MS] ||
        !QSIMPLEQ_EMPTY(&s->emad_delayed)) {
        sx2_emad_delay(s, resp, len);
        return;
    }
    sx2_emad_deliver(s, resp, len);
}

void sx2_emad_rx_from_cpu(SwitchX2State *s, const uint8_t *frame, size_t len)
{
    uint8_t *resp;

    if (len < SX2_EMAD_ETH_HDR_LEN + SX2_OP_TLV_BYTES) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: truncated EMAD frame "
                      "(%zu bytes) dropped\n", len);
        return;
    }
    if (len > SX2_EMAD_MAX_FRAME) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: oversized EMAD frame "
                      "(%zu bytes) dropped\n", len);
        return;
    }
    if (sx2_fget(frame, SX2_EMAD_ETH_ETHERTYPE) != SX2_EMAD_ETHERTYPE) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: locally processed frame "
                      "with ethertype 0x%04x is not an EMAD, dropped\n",
                      sx2_fget(frame, SX2_EMAD_ETH_ETHERTYPE));
        return;
    }

    resp = g_memdup2(frame, len);
    if (sx2_emad_answer(s, resp + SX2_EMAD_ETH_HDR_LEN,
                        len - SX2_EMAD_ETH_HDR_LEN)) {
        /* Answer to whoever asked */
        memcpy(resp, frame + 6, 6);
        memcpy(resp + 6, frame, 6);
        sx2_emad_respond(s, resp, len);
    }
    g_free(resp);
}

void sx2_emad_send_event(SwitchX2State *s, uint16_t trap_id, uint16_t reg_id,
                         const uint8_t *payload, size_t plen,
                         uint16_t sys_port)
{
    size_t len = SX2_EMAD_ETH_HDR_LEN + SX2_OP_TLV_BYTES + 4 + plen + 4;
    g_autofree uint8_t *f = g_malloc0(len);
    uint8_t *op = f + SX2_EMAD_ETH_HDR_LEN;
    uint8_t *reg = op + SX2_OP_TLV_BYTES;

    memcpy(f, sx2_emad_host_mac, 6);
    memcpy(f + 6, sx2_emad_dev_mac, 6);
    sx2_fset(f, SX2_EMAD_ETH_ETHERTYPE, SX2_EMAD_ETHERTYPE);

    sx2_fset(op, SX2_TLV_TYPE, SX2_TLV_OP);
    sx2_fset(op, SX2_TLV_LEN, SX2_OP_TLV_LEN_DW);
    sx2_fset(op, SX2_OP_TLV_REGISTER_ID, reg_id);
    sx2_fset(op, SX2_OP_TLV_R, 0);
    sx2_fset(op, SX2_OP_TLV_METHOD, SX2_EMAD_METHOD_EVENT);
    sx2_fset(op, SX2_OP_TLV_CLASS, SX2_EMAD_CLASS_REG_ACCESS);

    sx2_fset(reg, SX2_TLV_TYPE, SX2_TLV_REG);
    sx2_fset(reg, SX2_TLV_LEN, plen / 4 + 1);
    memcpy(reg + 4, payload, plen);

    sx2_fset(reg + 4 + plen, SX2_TLV_TYPE, SX2_TLV_END);
    sx2_fset(reg + 4 + plen, SX2_TLV_LEN, SX2_END_TLV_LEN_DW);

    trace_switchx2_event(trap_id, reg_id, sys_port);
    sx2_cpu_trap(s, trap_id, sys_port, f, len);
}
