/*
 * Mellanox SwitchX-2 switch ASIC emulation: PCI device
 *
 * PCI function, QOM type and properties, BAR0 decoding, MSI-X, device
 * reset and the firmware-initiated software reset (MRSR).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "monitor/monitor.h"
#include "switchx2.h"
#include "trace.h"

#define SX2_DEFAULT_FW_VERSION  "9.4.5070"
#define SX2_DEFAULT_PSID        "MT_0000000036"

/*
 * Run @fn as a guest access to the device would run: with the device's
 * reentrancy guard engaged, so that a DMA of ours landing on our own BAR
 * is refused instead of re-entering the model.  For entry points that
 * are neither MMIO nor guarded bottom halves: net link changes, timers.
 */
void sx2_run_guarded(SwitchX2State *s, SX2GuardedFn *fn, void *opaque)
{
    MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
    bool was_engaged = guard->engaged_in_io;

    guard->engaged_in_io = true;
    fn(s, opaque);
    guard->engaged_in_io = was_engaged;
}

void sx2_irq_notify(SwitchX2State *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (!msix_enabled(pdev)) {
        trace_switchx2_irq_suppressed(0);
        return;
    }
    trace_switchx2_irq(0);
    msix_notify(pdev, 0);
}

/*
 * Everything the ASIC forgets on a software reset.  PCI configuration
 * space (BARs, bus mastering, MSI-X enable) is owned by the PCI core
 * and survives, as it must for the driver to keep talking to us.
 */
void sx2_state_reset(SwitchX2State *s)
{
    s->reset_pending = false;
    sx2_fault_reset(s);
    sx2_emad_reset(s);
    sx2_cmd_reset(s);
    sx2_dma_reset(s);
    sx2_reg_reset(s);
    s->cpu_drops = 0;
    memset(&s->cpu_cnt, 0, sizeof(s->cpu_cnt));
    /*
     * tx_depth is not reset: it counts transmits now on the C stack, and
     * a bus reset can run under one (a DMA write that reaches a bridge's
     * configuration space through MMCONFIG, say): the unwinding
     * transmits decrement it back to 0.
     */
}

static void sx2_soft_reset_bh(void *opaque)
{
    SwitchX2State *s = opaque;

    trace_switchx2_reset(s->reset_why ? s->reset_why : "software");
    sx2_state_reset(s);
}

/*
 * MRSR command 1 and the legacy SW_RESET bit: the same reset, in a
 * bottom half, so that the answer to the MRSR write goes out first.
 * Until it runs, commands answer RUNNING_RESET and doorbells and
 * frames are ignored.  There is no readiness indication (FW_READY
 * reads 0): drivers wait a fixed time, as upstream did.
 */
void sx2_schedule_soft_reset(SwitchX2State *s, const char *why)
{
    s->reset_pending = true;
    s->reset_why = why;
    qemu_bh_schedule(s->reset_bh);
}

static uint64_t sx2_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    SwitchX2State *s = opaque;
    uint64_t val = 0;
    int64_t ns;

    if (addr >= SX2_CIR_BASE && addr < SX2_CIR_END) {
        val = sx2_cir_read(s, addr);
    } else if (addr == SX2_FW_READY) {
        val = 0;    /* no readiness indication on SwitchX-2 */
    } else if (addr == SX2_FRC_OFFSET || addr == SX2_FRC_OFFSET + 4) {
        ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        val = addr == SX2_FRC_OFFSET ? (uint32_t)(ns >> 32) : (uint32_t)ns;
    } else if (addr == SX2_UTC_SEC_OFFSET || addr == SX2_UTC_NSEC_OFFSET) {
        ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
        if (addr == SX2_UTC_SEC_OFFSET) {
            val = (uint32_t)(ns / NANOSECONDS_PER_SECOND);
        } else {
            val = (uint32_t)(ns % NANOSECONDS_PER_SECOND);
        }
    } else if (addr >= SX2_DB_PAGE_OFFSET &&
               addr < SX2_DB_PAGE_OFFSET + SX2_DB_PAGE_SIZE) {
        /* Doorbells are write-only */
        val = 0;
    } else {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: read of unknown BAR0 offset 0x%" HWADDR_PRIx
                      "\n", addr);
    }
    trace_switchx2_mmio_read(addr, val);
    return val;
}

static void sx2_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    SwitchX2State *s = opaque;

    trace_switchx2_mmio_write(addr, val);
    if (addr >= SX2_CIR_BASE && addr < SX2_CIR_END) {
        sx2_cir_write(s, addr, val);
    } else if (addr >= SX2_DB_PAGE_OFFSET &&
               addr < SX2_DB_PAGE_OFFSET + SX2_DB_PAGE_SIZE) {
        if (s->reset_pending) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "switchx2: doorbell write during reset ignored\n");
            return;
        }
        sx2_doorbell_write(s, addr - SX2_DB_PAGE_OFFSET, val);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: write of 0x%" PRIx64 " to unknown BAR0 "
                      "offset 0x%" HWADDR_PRIx "\n", val, addr);
    }
}

/* SW_RESET (BAR0 0xF0010): bit 0 resets the device, as MRSR does */
static uint64_t sx2_sw_reset_read(void *opaque, hwaddr addr, unsigned size)
{
    trace_switchx2_mmio_read(SX2_SW_RESET + addr, 0);
    return 0;
}

static void sx2_sw_reset_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    SwitchX2State *s = opaque;

    trace_switchx2_mmio_write(SX2_SW_RESET + addr, val);
    if (val & ~(uint64_t)SX2_SW_RESET_RST_BIT) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW_RESET: reserved bits "
                      "0x%" PRIx64 " ignored\n",
                      val & ~(uint64_t)SX2_SW_RESET_RST_BIT);
    }
    if (val & SX2_SW_RESET_RST_BIT) {
        sx2_schedule_soft_reset(s, "software (SW_RESET)");
    }
}

static const MemoryRegionOps sx2_sw_reset_ops = {
    .read = sx2_sw_reset_read,
    .write = sx2_sw_reset_write,
    .endianness = DEVICE_BIG_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
        .unaligned = false,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static const MemoryRegionOps sx2_mmio_ops = {
    .read = sx2_mmio_read,
    .write = sx2_mmio_write,
    .endianness = DEVICE_BIG_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
        .unaligned = false,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static bool sx2_parse_fw_version(SwitchX2State *s, Error **errp)
{
    unsigned int maj, min, sub;
    char tail;

    if (!s->fw_version) {
        s->fw_version = g_strdup(SX2_DEFAULT_FW_VERSION);
    }
    if (sscanf(s->fw_version, "%u.%u.%u%c", &maj, &min, &sub, &tail) != 3 ||
        maj > UINT16_MAX || min > UINT16_MAX || sub > UINT16_MAX) {
        error_setg(errp, "switchx2: fw-version '%s' is not of the form "
                   "MAJOR.MINOR.SUBMINOR (each 0..65535)", s->fw_version);
        return false;
    }
    s->fw_major = maj;
    s->fw_minor = min;
    s->fw_subminor = sub;
    return true;
}

static void sx2_realize(PCIDevice *pdev, Error **errp)
{
    SwitchX2State *s = SWITCHX2(pdev);
    unsigned i;
    int ret;

    if (s->num_ports < 1 || s->num_ports > SX2_MAX_PORTS) {
        error_setg(errp, "switchx2: ports=%u is out of range (1..%u)",
                   s->num_ports, SX2_MAX_PORTS);
        return;
    }
    for (i = s->num_ports + 1; i <= SX2_MAX_PORTS; i++) {
        if (s->fp[i].conf.peers.ncs[0]) {
            error_setg(errp, "switchx2: port%u has a netdev but the switch "
                       "has only %u ports", i, s->num_ports);
            return;
        }
    }
    if (s->fdb_size < 1 || s->fdb_size > SX2_FDB_SIZE_MAX) {
        error_setg(errp, "switchx2: fdb-size=%u is out of range (1..%u)",
                   s->fdb_size, SX2_FDB_SIZE_MAX);
        return;
    }
    if (s->lpm_size < 1 || s->lpm_size > SX2_LPM_SIZE) {
        error_setg(errp, "switchx2: lpm-size=%u is out of range (1..%u)",
                   s->lpm_size, SX2_LPM_SIZE);
        return;
    }
    if (s->base_mac.a[0] & 1) {
        error_setg(errp, "switchx2: mac must be a unicast address");
        return;
    }
    if ((unsigned)s->base_mac.a[5] + s->num_ports > 0xff) {
        /* Drivers add the local port number to the last octet */
        error_setg(errp, "switchx2: last octet of mac (0x%02x) plus the "
                   "number of ports (%u) must not exceed 0xff",
                   s->base_mac.a[5], s->num_ports);
        return;
    }
    if (!sx2_parse_fw_version(s, errp)) {
        return;
    }
    if (!s->psid) {
        s->psid = g_strdup(SX2_DEFAULT_PSID);
    }
    if (strlen(s->psid) > SX2_PSID_LEN) {
        error_setg(errp, "switchx2: psid '%s' is longer than %u characters",
                   s->psid, SX2_PSID_LEN);
        return;
    }

    memory_region_init(&s->bar0, OBJECT(s), "switchx2-bar0", SX2_BAR0_SIZE);
    memory_region_init_io(&s->mmio, OBJECT(s), &sx2_mmio_ops, s,
                          "switchx2-regs", SX2_MMIO_SIZE);
    memory_region_add_subregion(&s->bar0, 0, &s->mmio);
    memory_region_init_io(&s->sw_reset, OBJECT(s), &sx2_sw_reset_ops, s,
                          "switchx2-sw-reset", 4);
    memory_region_add_subregion(&s->bar0, SX2_SW_RESET, &s->sw_reset);
    pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->bar0);

    ret = msix_init(pdev, SX2_MSIX_VECTORS,
                    &s->bar0, 0, SX2_MSIX_TABLE_OFFSET,
                    &s->bar0, 0, SX2_MSIX_PBA_OFFSET, 0, errp);
    if (ret) {
        memory_region_del_subregion(&s->bar0, &s->sw_reset);
        memory_region_del_subregion(&s->bar0, &s->mmio);
        return;
    }
    msix_vector_use(pdev, 0);

    sx2_cpu_init(s);
    s->ft_vid = g_new0(SX2PortSet, SX2_MAX_FLOOD_TABLES * SX2_FT_VID_ENTRIES);
    sx2_fdb_init(s);
    sx2_router_init(s);
    s->reset_bh = qemu_bh_new_guarded(sx2_soft_reset_bh, s,
                                      &DEVICE(s)->mem_reentrancy_guard);

    if (!sx2_fp_realize(s, errp)) {
        qemu_bh_delete(s->reset_bh);
        s->reset_bh = NULL;
        sx2_router_fini(s);
        sx2_fdb_fini(s);
        g_free(s->ft_vid);
        s->ft_vid = NULL;
        msix_vector_unuse(pdev, 0);
        msix_uninit(pdev, &s->bar0, &s->bar0);
        memory_region_del_subregion(&s->bar0, &s->sw_reset);
        memory_region_del_subregion(&s->bar0, &s->mmio);
        return;
    }
    sx2_fault_realize(s);
    sx2_state_reset(s);
}

/*
 * Unrealize, also on hot-unplug: everything realize took is given back,
 * and the cables' far ends get back the links the ports took down.
 */
static void sx2_exit(PCIDevice *pdev)
{
    SwitchX2State *s = SWITCHX2(pdev);

    s->unplugging = true;
    sx2_fault_unrealize(s);
    sx2_fp_unrealize(s);
    if (s->reset_bh) {
        qemu_bh_delete(s->reset_bh);
        s->reset_bh = NULL;
    }
    sx2_router_fini(s);
    sx2_fdb_fini(s);
    g_free(s->ft_vid);
    s->ft_vid = NULL;
    sx2_smid_resize(s, 0);
    msix_vector_unuse(pdev, 0);
    msix_uninit(pdev, &s->bar0, &s->bar0);
    /* A subregion holds a reference to its owner, us: drop them */
    memory_region_del_subregion(&s->bar0, &s->sw_reset);
    memory_region_del_subregion(&s->bar0, &s->mmio);
}

static void sx2_qdev_reset(DeviceState *dev)
{
    SwitchX2State *s = SWITCHX2(dev);

    trace_switchx2_reset("device");
    if (s->reset_bh) {
        qemu_bh_cancel(s->reset_bh);
    }
    sx2_state_reset(s);
}

#define SX2_PORT_PROP(n) \
    DEFINE_PROP_NETDEV("port" #n, SwitchX2State, fp[n].conf.peers)

static Property sx2_properties[] = {
    DEFINE_PROP_UINT32("ports", SwitchX2State, num_ports, SX2_DEFAULT_PORTS),
    DEFINE_PROP_UINT32("fdb-size", SwitchX2State, fdb_size,
                       SX2_FDB_SIZE_DEFAULT),
    DEFINE_PROP_UINT32("lpm-size", SwitchX2State, lpm_size, SX2_LPM_SIZE),
    DEFINE_PROP_MACADDR("mac", SwitchX2State, base_mac),
    DEFINE_PROP_STRING("fw-version", SwitchX2State, fw_version),
    DEFINE_PROP_STRING("psid", SwitchX2State, psid),
    SX2_PORT_PROP(1), SX2_PORT_PROP(2), SX2_PORT_PROP(3), SX2_PORT_PROP(4),
    SX2_PORT_PROP(5), SX2_PORT_PROP(6), SX2_PORT_PROP(7), SX2_PORT_PROP(8),
    SX2_PORT_PROP(9), SX2_PORT_PROP(10), SX2_PORT_PROP(11),
    SX2_PORT_PROP(12), SX2_PORT_PROP(13), SX2_PORT_PROP(14),
    SX2_PORT_PROP(15), SX2_PORT_PROP(16), SX2_PORT_PROP(17),
    SX2_PORT_PROP(18), SX2_PORT_PROP(19), SX2_PORT_PROP(20),
    SX2_PORT_PROP(21), SX2_PORT_PROP(22), SX2_PORT_PROP(23),
    SX2_PORT_PROP(24), SX2_PORT_PROP(25), SX2_PORT_PROP(26),
    SX2_PORT_PROP(27), SX2_PORT_PROP(28), SX2_PORT_PROP(29),
    SX2_PORT_PROP(30), SX2_PORT_PROP(31), SX2_PORT_PROP(32),
    SX2_PORT_PROP(33), SX2_PORT_PROP(34), SX2_PORT_PROP(35),
    SX2_PORT_PROP(36), SX2_PORT_PROP(37), SX2_PORT_PROP(38),
    SX2_PORT_PROP(39), SX2_PORT_PROP(40), SX2_PORT_PROP(41),
    SX2_PORT_PROP(42), SX2_PORT_PROP(43), SX2_PORT_PROP(44),
    SX2_PORT_PROP(45), SX2_PORT_PROP(46), SX2_PORT_PROP(47),
    SX2_PORT_PROP(48), SX2_PORT_PROP(49), SX2_PORT_PROP(50),
    SX2_PORT_PROP(51), SX2_PORT_PROP(52), SX2_PORT_PROP(53),
    SX2_PORT_PROP(54), SX2_PORT_PROP(55), SX2_PORT_PROP(56),
    SX2_PORT_PROP(57), SX2_PORT_PROP(58), SX2_PORT_PROP(59),
    SX2_PORT_PROP(60), SX2_PORT_PROP(61), SX2_PORT_PROP(62),
    SX2_PORT_PROP(63), SX2_PORT_PROP(64),
    DEFINE_PROP_END_OF_LIST(),
};

/*
 * The device is not migratable: its DMA queue state, the FDB, the SFN
 * queue and the ageing timer are none of them migrated.
 */
static const VMStateDescription sx2_vmstate = {
    .name = TYPE_SWITCHX2,
    .unmigratable = 1,
};

static void sx2_instance_init(Object *obj)
{
    SwitchX2State *s = SWITCHX2(obj);
    static const uint8_t default_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x36,
                                            0x00 };

    memcpy(s->base_mac.a, default_mac, sizeof(default_mac));
}

static void sx2_instance_finalize(Object *obj)
{
    sx2_fault_finalize(SWITCHX2(obj));
}

static void sx2_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = sx2_realize;
    k->exit = sx2_exit;
    k->vendor_id = SX2_PCI_VENDOR_ID_MELLANOX;
    k->device_id = SX2_PCI_DEVICE_ID_SWITCHX2;
    k->revision = SX2_PCI_REVISION;
    k->subsystem_vendor_id = SX2_PCI_VENDOR_ID_MELLANOX;
    k->subsystem_id = SX2_PCI_DEVICE_ID_SWITCHX2;
    k->class_id = PCI_CLASS_NETWORK_OTHER;
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    dc->desc = "Mellanox SwitchX-2 Ethernet switch ASIC";
    dc->reset = sx2_qdev_reset;
    /* Hot-pluggable: sx2_exit() releases all that realize took */
    dc->hotpluggable = true;
    dc->vmsd = &sx2_vmstate;
    device_class_set_props(dc, sx2_properties);
    sx2_fault_class_init(klass);
}

static const TypeInfo sx2_info = {
    .name = TYPE_SWITCHX2,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(SwitchX2State),
    .instance_init = sx2_instance_init,
    .instance_finalize = sx2_instance_finalize,
    .class_init = sx2_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void sx2_register_types(void)
{
    type_register_static(&sx2_info);
    /* "info switchx2": the entry is in hmp-commands-info.hx */
    monitor_register_hmp("switchx2", true, sx2_hmp_info);
}

type_init(sx2_register_types)
