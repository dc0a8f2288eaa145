/*
 * Mellanox SwitchX-2 switch ASIC emulation: hardware interface
 *
 * BAR0 register map, command interface opcodes and statuses, mailbox
 * layouts, descriptor/completion/event element layouts, EMAD framing,
 * TX header fields, trap IDs and register IDs, as seen by the host
 * driver.  All multi-byte fields are big-endian.
 *
 * Field descriptors are written as "offset, shift, bits" triplets so
 * that they can be handed straight to sx2_fget()/sx2_fset().
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_SWITCHX2_HW_H
#define HW_NET_SWITCHX2_HW_H

/* PCI identity */
#define SX2_PCI_VENDOR_ID_MELLANOX      0x15b3
#define SX2_PCI_DEVICE_ID_SWITCHX2      0xc738
#define SX2_PCI_REVISION                0x00

/* Front panel / local port space */
#define SX2_MAX_PORTS                   64      /* local ports 1..64 */
#define SX2_DEFAULT_PORTS               36      /* SX1036 */
#define SX2_CPU_PORT                    0
#define SX2_LANES_PER_PORT              4
#define SX2_BASE_SPEED_MBPS             10000   /* per lane */
#define SX2_MAX_MTU                     10000
#define SX2_DEFAULT_MTU                 1500
#define SX2_MIN_FRAME                   60      /* without FCS */
#define SX2_FCS_LEN                     4
#define SX2_RMON_MAX_FRAME              1518    /* RFC 2819 oversize: above */
#define SX2_NUM_SWIDS                   8
#define SX2_SWID_ALL                    254
#define SX2_SWID_DISABLED               255

/*
 * BAR0
 */
#define SX2_BAR0_SIZE                   (1 * MiB)
#define SX2_MMIO_SIZE                   0xF0000 /* registers live below */
#define SX2_MSIX_TABLE_OFFSET           0xF0000
#define SX2_MSIX_PBA_OFFSET             0xF8000
#define SX2_MSIX_VECTORS                1

/* Command interface registers (CIR) */
#define SX2_CIR_BASE                    0x71000
#define SX2_CIR_IN_PARAM_HI             (SX2_CIR_BASE + 0x00)
#define SX2_CIR_IN_PARAM_LO             (SX2_CIR_BASE + 0x04)
#define SX2_CIR_IN_MODIFIER             (SX2_CIR_BASE + 0x08)
#define SX2_CIR_OUT_PARAM_HI            (SX2_CIR_BASE + 0x0C)
#define SX2_CIR_OUT_PARAM_LO            (SX2_CIR_BASE + 0x10)
#define SX2_CIR_TOKEN                   (SX2_CIR_BASE + 0x14)
#define SX2_CIR_CTRL                    (SX2_CIR_BASE + 0x18)
#define SX2_CIR_END                     (SX2_CIR_BASE + 0x1C)
#define SX2_CIR_CTRL_GO                 (1u << 23)
#define SX2_CIR_CTRL_EVREQ              (1u << 22)
#define SX2_CIR_CTRL_OPMOD_SHIFT        12
#define SX2_CIR_CTRL_OPMOD_MASK         0xF
#define SX2_CIR_CTRL_OPCODE_MASK        0xFFF
#define SX2_CIR_CTRL_STATUS_SHIFT       24

/*
 * Firmware ready / system status.  Upstream never polled it on
 * SwitchX-2 (v4.9-v5.10 skip the poll; v4.3: "Current firware does not
 * let us know when the reset is done"): it reads 0, never the magic
 * 0x5E later devices report.
 */
#define SX2_FW_READY                    0xA1844

/* Legacy software reset (v4.3-v4.14 pci.h): write bit 0 to reset */
#define SX2_SW_RESET                    0xF0010
#define SX2_SW_RESET_RST_BIT            (1u << 0)

/* Free running clock and UTC (offsets reported by QUERY_FW) */
#define SX2_FRC_OFFSET                  0xA1000 /* H at +0, L at +4 */
#define SX2_UTC_SEC_OFFSET              0xA1010
#define SX2_UTC_NSEC_OFFSET             0xA1014

/* Doorbell page (offset reported by QUERY_FW) */
#define SX2_DB_PAGE_OFFSET              0x80000
#define SX2_DB_SDQ                      0x000
#define SX2_DB_RDQ                      0x200
#define SX2_DB_CQ                       0x400
#define SX2_DB_EQ                       0x600
#define SX2_DB_ARM_CQ                   0x800
#define SX2_DB_ARM_EQ                   0xA00
#define SX2_DB_TYPE_SIZE                0x200
#define SX2_DB_PAGE_SIZE                0xC00

/*
 * Asynchronous queues
 */
#define SX2_PAGE_SIZE                   4096
#define SX2_AQ_MAX_PAGES                8
#define SX2_LOG2_MAX_DQ_PAGES           3       /* 2^3 = SX2_AQ_MAX_PAGES */
#define SX2_NUM_SDQS                    4
#define SX2_NUM_RDQS                    24
#define SX2_NUM_CQS                     (SX2_NUM_SDQS + SX2_NUM_RDQS)
#define SX2_NUM_EQS                     2
#define SX2_EQ_ASYNC                    0       /* command completions */
#define SX2_EQ_COMP                     1
#define SX2_WQE_SIZE                    32
#define SX2_CQE_SIZE                    16      /* CQE version 0 */
#define SX2_EQE_SIZE                    16
#define SX2_LOG_MAX_DQ_SZ               10      /* 1024 WQEs = 8 pages */
#define SX2_LOG_MAX_CQ_SZ               11      /* 2048 CQEs = 8 pages */
#define SX2_LOG_MAX_EQ_SZ               11
#define SX2_WQE_SG_ENTRIES              3
#define SX2_MAX_SG_SQ                   3
#define SX2_MAX_SG_RQ                   3

/* WQE */
#define SX2_WQE_C                       0x00, 31, 1
#define SX2_WQE_LP                      0x00, 30, 1
#define SX2_WQE_TYPE                    0x00, 23, 4
#define SX2_WQE_TYPE_ETHERNET           0xA
#define SX2_WQE_BYTE_COUNT_OFF(i)       (0x02 + 2 * (i))        /* 14 bits */
#define SX2_WQE_BYTE_COUNT_MASK         0x3FFF
#define SX2_WQE_ADDR_OFF(i)             (0x08 + 8 * (i))

/* CQE, version 0 */
#define SX2_CQE_LAG                     0x00, 23, 1
#define SX2_CQE_SYSTEM_PORT             0x00, 0, 16
#define SX2_CQE_WQE_COUNTER             0x04, 16, 16
#define SX2_CQE_BYTE_COUNT              0x04, 0, 14
#define SX2_CQE_TRAP_ID                 0x08, 0, 10
#define SX2_CQE_CRC                     0x0C, 8, 1
#define SX2_CQE_E                       0x0C, 7, 1
#define SX2_CQE_SR                      0x0C, 6, 1
#define SX2_CQE_DQN                     0x0C, 1, 5
#define SX2_CQE_OWNER                   0x0C, 0, 1

/* EQE */
#define SX2_EQE_EVENT_TYPE              0x0C, 24, 8
#define SX2_EQE_EVENT_SUB_TYPE          0x0C, 16, 8
#define SX2_EQE_CQN                     0x0C, 8, 7
#define SX2_EQE_OWNER                   0x0C, 0, 1
#define SX2_EQE_CMD_TOKEN               0x00, 16, 16
#define SX2_EQE_CMD_STATUS              0x00, 0, 8
#define SX2_EQE_CMD_OUT_PARAM_H         0x04, 0, 32
#define SX2_EQE_CMD_OUT_PARAM_L         0x08, 0, 32
#define SX2_EQE_TYPE_COMP               0x00
#define SX2_EQE_TYPE_CMD                0x0A

/*
 * Command interface
 */
#define SX2_MBOX_SIZE                   4096

enum {
    SX2_CMD_QUERY_AQ_CAP        = 0x003,
    SX2_CMD_QUERY_FW            = 0x004,
    SX2_CMD_QUERY_BOARDINFO     = 0x006,
    SX2_CMD_SW2HW_EQ            = 0x013,
    SX2_CMD_HW2SW_EQ            = 0x014,
    SX2_CMD_QUERY_EQ            = 0x015,
    SX2_CMD_SW2HW_CQ            = 0x016,
    SX2_CMD_HW2SW_CQ            = 0x017,
    SX2_CMD_QUERY_CQ            = 0x018,
    SX2_CMD_2ERR_DQ             = 0x01E,
    SX2_CMD_QUERY_DQ            = 0x022,
    SX2_CMD_ACCESS_REG          = 0x040,
    SX2_CMD_CONFIG_PROFILE      = 0x100,
    SX2_CMD_QUERY_RESOURCES     = 0x101,
    SX2_CMD_SW2HW_DQ            = 0x201,
    SX2_CMD_HW2SW_DQ            = 0x202,
    SX2_CMD_UNMAP_FA            = 0xFFE,
    SX2_CMD_MAP_FA              = 0xFFF,
};

enum {
    SX2_CMD_STATUS_OK           = 0x00,
    SX2_CMD_STATUS_INTERNAL_ERR = 0x01,
    SX2_CMD_STATUS_BAD_OP       = 0x02,
    SX2_CMD_STATUS_BAD_PARAM    = 0x03,
    SX2_CMD_STATUS_BAD_SYS_STATE = 0x04,
    SX2_CMD_STATUS_BAD_RESOURCE = 0x05,
    SX2_CMD_STATUS_RESOURCE_BUSY = 0x06,
    SX2_CMD_STATUS_EXCEED_LIM   = 0x08,
    SX2_CMD_STATUS_BAD_RES_STATE = 0x09,
    SX2_CMD_STATUS_BAD_INDEX    = 0x0A,
    SX2_CMD_STATUS_BAD_NVMEM    = 0x0B,
    SX2_CMD_STATUS_RUNNING_RESET = 0x26,
    SX2_CMD_STATUS_BAD_PKT      = 0x30,
};

#define SX2_OPMOD_SDQ                   0
#define SX2_OPMOD_RDQ                   1
#define SX2_OPMOD_CONFIG_PROFILE_SET    1

/* QUERY_FW output mailbox */
#define SX2_QFW_FW_PAGES                0x00, 16, 16
#define SX2_QFW_FW_REV_MAJOR            0x00, 0, 16
#define SX2_QFW_FW_REV_SUBMINOR         0x04, 16, 16
#define SX2_QFW_FW_REV_MINOR            0x04, 0, 16
#define SX2_QFW_CORE_CLK                0x08, 16, 16
#define SX2_QFW_CMD_IF_REV              0x08, 0, 16
#define SX2_QFW_API_VERSION             0x0C, 0, 16
#define SX2_QFW_FW_HOUR                 0x10, 24, 8
#define SX2_QFW_FW_MINUTES              0x10, 16, 8
#define SX2_QFW_FW_SECONDS              0x10, 8, 8
#define SX2_QFW_FW_YEAR                 0x14, 16, 16
#define SX2_QFW_FW_MONTH                0x14, 8, 8
#define SX2_QFW_FW_DAY                  0x14, 0, 8
#define SX2_QFW_DB_PAGE_OFFSET          0x40    /* 64 bit */
#define SX2_QFW_DB_PAGE_BAR             0x48, 30, 2
#define SX2_QFW_FRC_OFFSET              0x50    /* 64 bit */
#define SX2_QFW_FRC_BAR                 0x58, 30, 2
#define SX2_QFW_UTC_SEC_OFFSET          0x70    /* 64 bit */
#define SX2_QFW_UTC_SEC_BAR             0x78, 30, 2
#define SX2_QFW_UTC_NSEC_OFFSET         0x80    /* 64 bit */
#define SX2_QFW_UTC_NSEC_BAR            0x88, 30, 2
#define SX2_CMD_IF_REV                  1
#define SX2_FW_PAGES                    16
#define SX2_CORE_CLK_MHZ                300

/* QUERY_BOARDINFO output mailbox */
#define SX2_QBI_INTAPIN                 0x10, 24, 8
#define SX2_QBI_VSD_VENDOR_ID           0x1C, 0, 16
#define SX2_QBI_VSD_OFF                 0x20
#define SX2_QBI_VSD_LEN                 208
#define SX2_QBI_PSID_OFF                0xF0
#define SX2_PSID_LEN                    16

/* QUERY_AQ_CAP output mailbox */
#define SX2_QAQ_LOG_MAX_SDQ_SZ          0x00, 24, 8
#define SX2_QAQ_MAX_NUM_SDQS            0x00, 0, 8
#define SX2_QAQ_LOG_MAX_RDQ_SZ          0x04, 24, 8
#define SX2_QAQ_MAX_NUM_RDQS            0x04, 0, 8
#define SX2_QAQ_LOG_MAX_CQ_SZ           0x08, 24, 8
#define SX2_QAQ_LOG_MAX_CQV2_SZ         0x08, 16, 8
#define SX2_QAQ_MAX_NUM_CQS             0x08, 0, 8
#define SX2_QAQ_LOG_MAX_EQ_SZ           0x0C, 24, 8
#define SX2_QAQ_MAX_NUM_EQS             0x0C, 0, 8
#define SX2_QAQ_MAX_SG_SQ               0x10, 8, 8
#define SX2_QAQ_MAX_SG_RQ               0x10, 0, 8

/* MAP_FA input mailbox: in_modifier = number of entries */
#define SX2_MAP_FA_MAX_ENTRIES          32
#define SX2_MAP_FA_PA_OFF(i)            (0x00 + 8 * (i))        /* 64 bit */
#define SX2_MAP_FA_PA_MASK              (~0xFFFull)
#define SX2_MAP_FA_LOG2SIZE_OFF(i)      (0x04 + 8 * (i))
#define SX2_MAP_FA_LOG2SIZE_MASK        0x1F

/* CONFIG_PROFILE input mailbox */
#define SX2_CP_SET_CQE_VERSION          0x08, 0, 1
#define SX2_CP_SET_CQE_TS_TYPE          0x08, 2, 1
#define SX2_CP_SET_MASK_OFF             0x0C
#define SX2_CP_SET_MAX_VEPA             (1u << 0)
#define SX2_CP_SET_MAX_LAG              (1u << 1)
#define SX2_CP_SET_MAX_PORT_PER_LAG     (1u << 2)
#define SX2_CP_SET_MAX_MID              (1u << 3)
#define SX2_CP_SET_MAX_PGT              (1u << 4)
#define SX2_CP_SET_MAX_SYSTEM_PORT      (1u << 5)
#define SX2_CP_SET_MAX_VLAN_GROUPS      (1u << 6)
#define SX2_CP_SET_MAX_REGIONS          (1u << 7)
#define SX2_CP_SET_FLOOD_MODE           (1u << 8)
#define SX2_CP_SET_FLOOD_TABLES         (1u << 9)
#define SX2_CP_SET_MAX_IB_MC            (1u << 12)
#define SX2_CP_SET_MAX_PKEY             (1u << 13)
#define SX2_CP_SET_AR_GROUP_CAP         (1u << 14)
#define SX2_CP_SET_AR_SEC               (1u << 15)
#define SX2_CP_SET_UBRIDGE              (1u << 22)
#define SX2_CP_SET_KVD_LINEAR           (1u << 24)
#define SX2_CP_SET_KVD_HASH_SINGLE      (1u << 25)
#define SX2_CP_SET_KVD_HASH_DOUBLE      (1u << 26)
#define SX2_CP_MAX_VEPA_CHANNELS        0x10, 0, 8
#define SX2_CP_MAX_LAG                  0x14, 0, 16
#define SX2_CP_MAX_PORT_PER_LAG         0x18, 0, 16
#define SX2_CP_MAX_MID                  0x1C, 0, 16
#define SX2_CP_MAX_PGT                  0x20, 0, 16
#define SX2_CP_MAX_SYSTEM_PORT          0x24, 0, 16
#define SX2_CP_MAX_VLAN_GROUPS          0x28, 0, 12
#define SX2_CP_MAX_REGIONS              0x2C, 0, 16
#define SX2_CP_MAX_FLOOD_TABLES         0x30, 16, 4
#define SX2_CP_MAX_VID_FLOOD_TABLES     0x30, 8, 4
/* 2 bits up to v5.10, 3 bits in v6.1 (value 4 added); read all three */
#define SX2_CP_FLOOD_MODE               0x30, 0, 3
#define SX2_CP_FLOOD_MODE_MIXED         3
#define SX2_CP_MAX_FID_OFFSET_FT        0x34, 24, 4
#define SX2_CP_FID_OFFSET_FT_SIZE       0x34, 0, 16
#define SX2_CP_MAX_FID_FT               0x38, 24, 4
#define SX2_CP_FID_FT_SIZE              0x38, 0, 16
#define SX2_CP_MAX_IB_MC                0x40, 0, 15
#define SX2_CP_MAX_PKEY                 0x44, 0, 15
#define SX2_CP_AR_SEC                   0x4C, 24, 2
#define SX2_CP_ARN                      0x50, 31, 1
#define SX2_CP_UBRIDGE                  0x50, 4, 1
#define SX2_CP_SWID_MASK(i)             (0x60 + 8 * (i)), 24, 8
#define SX2_CP_SWID_TYPE(i)             (0x60 + 8 * (i)), 20, 4
#define SX2_CP_SWID_PROPS(i)            (0x60 + 8 * (i)), 0, 8
#define SX2_CP_CQE_VERSION              0xB0, 0, 8
#define SX2_SWID_TYPE_NONE              0
#define SX2_SWID_TYPE_IB                1
#define SX2_SWID_TYPE_ETH               2
#define SX2_SWID_TYPE_ROUTER_PORT       8
#define SX2_MAX_FLOOD_TABLES            8

/* SW2HW_DQ input mailbox; in_modifier = DQ number */
#define SX2_DQ_CQ                       0x00, 24, 8
#define SX2_DQ_SDQ_LP                   0x00, 23, 1
#define SX2_DQ_SDQ_TCLASS               0x00, 16, 6
#define SX2_DQ_LOG2_DQ_SZ               0x00, 0, 6      /* log2 of pages */
#define SX2_DQ_PA_OFF(i)                (0x10 + 8 * (i))
#define SX2_DQ_PA_MASK                  (~0xFFFull)

/* SW2HW_CQ input mailbox; in_modifier = CQ number */
#define SX2_CQ_CQE_VER                  0x00, 28, 4
#define SX2_CQ_C_EQN                    0x00, 24, 1
#define SX2_CQ_ST                       0x00, 8, 1
#define SX2_CQ_LOG_CQ_SIZE              0x00, 0, 4
#define SX2_CQ_PRODUCER_COUNTER         0x04, 0, 16
#define SX2_CQ_PA_OFF(i)                (0x10 + 8 * (i))
#define SX2_CQ_PA_MASK                  (~0x7FFull)

/* SW2HW_EQ input mailbox; in_modifier = EQ number */
#define SX2_EQ_INT_MSIX                 0x00, 24, 1
#define SX2_EQ_ST                       0x00, 8, 2
#define SX2_EQ_LOG_EQ_SIZE              0x00, 0, 4
#define SX2_EQ_PRODUCER_COUNTER         0x04, 0, 16
#define SX2_EQ_PA_OFF(i)                (0x10 + 8 * (i))
#define SX2_EQ_PA_MASK                  (~0x7FFull)
#define SX2_EQ_ST_FIRED                 0
#define SX2_EQ_ST_ARMED                 1
#define SX2_EQ_ST_ALWAYS_ARMED          3

/*
 * TX header (prepended by the driver to every packet on an SDQ)
 */
#define SX2_TXHDR_LEN                   0x10
#define SX2_TXHDR_VERSION               0x00, 28, 4
#define SX2_TXHDR_CTL                   0x00, 26, 2
#define SX2_TXHDR_PROTO                 0x00, 21, 3
#define SX2_TXHDR_ETCLASS               0x00, 18, 3
#define SX2_TXHDR_SWID                  0x00, 12, 3
#define SX2_TXHDR_PORT_MID              0x04, 16, 16
#define SX2_TXHDR_CTCLASS3              0x04, 14, 1
#define SX2_TXHDR_RDQ                   0x04, 9, 5
#define SX2_TXHDR_CPU_SIG               0x04, 0, 9
#define SX2_TXHDR_SIG                   0x0C, 16, 16
#define SX2_TXHDR_STCLASS               0x0C, 13, 3
#define SX2_TXHDR_EMAD                  0x0C, 5, 1
#define SX2_TXHDR_TYPE                  0x0C, 0, 4
#define SX2_TXHDR_VERSION_0             0
#define SX2_TXHDR_CTL_ETH_CTL           0
#define SX2_TXHDR_CTL_ETH_DATA          1
#define SX2_TXHDR_PROTO_ETH             1

/*
 * EMAD (Ethernet Management Datagram) framing
 */
#define SX2_EMAD_ETH_HDR_LEN            0x10
#define SX2_EMAD_ETHERTYPE              0x8932
#define SX2_EMAD_ETH_ETHERTYPE          0x0C, 16, 16
#define SX2_EMAD_ETH_MLX_PROTO          0x0C, 8, 8
#define SX2_EMAD_ETH_VER                0x0C, 4, 4
#define SX2_EMAD_MAX_FRAME              4096

#define SX2_TLV_TYPE                    0x00, 27, 5
#define SX2_TLV_LEN                     0x00, 16, 11    /* in dwords */
enum {
    SX2_TLV_END         = 0,
    SX2_TLV_OP          = 1,
    SX2_TLV_STRING      = 2,
    SX2_TLV_REG         = 3,
};
#define SX2_OP_TLV_LEN_DW               4
#define SX2_STRING_TLV_LEN_DW           33
#define SX2_STRING_TLV_STR_LEN          128
#define SX2_END_TLV_LEN_DW              1

#define SX2_OP_TLV_DR                   0x00, 15, 1
#define SX2_OP_TLV_STATUS               0x00, 8, 7
#define SX2_OP_TLV_REGISTER_ID          0x04, 16, 16
#define SX2_OP_TLV_R                    0x04, 15, 1
#define SX2_OP_TLV_METHOD               0x04, 8, 7
#define SX2_OP_TLV_CLASS                0x04, 0, 8
#define SX2_OP_TLV_TID_OFF              0x08    /* 64 bit */

#define SX2_EMAD_CLASS_REG_ACCESS       1
#define SX2_EMAD_METHOD_QUERY           1
#define SX2_EMAD_METHOD_WRITE           2
#define SX2_EMAD_METHOD_SEND            3
#define SX2_EMAD_METHOD_EVENT           5

enum {
    SX2_EMAD_STATUS_SUCCESS             = 0x00,
    SX2_EMAD_STATUS_BUSY                = 0x01,
    SX2_EMAD_STATUS_VERSION_NOT_SUPP    = 0x02,
    SX2_EMAD_STATUS_UNKNOWN_TLV         = 0x03,
    SX2_EMAD_STATUS_REG_NOT_SUPP        = 0x04,
    SX2_EMAD_STATUS_CLASS_NOT_SUPP      = 0x05,
    SX2_EMAD_STATUS_METHOD_NOT_SUPP     = 0x06,
    SX2_EMAD_STATUS_BAD_PARAMETER       = 0x07,
    SX2_EMAD_STATUS_RESOURCE_NOT_AVAIL  = 0x08,
    SX2_EMAD_STATUS_MSG_RECEIPT_ACK     = 0x09,
    SX2_EMAD_STATUS_INTERNAL_ERROR      = 0x70,
};

/*
 * Trap IDs
 */
#define SX2_TRAP_ID_MAX                 0x400
enum {
    SX2_TRAP_FDB_MC             = 0x01,
    SX2_TRAP_MFDE               = 0x03,
    SX2_TRAP_ETHEMAD            = 0x05,
    SX2_TRAP_PUDE               = 0x08,
    SX2_TRAP_PMPE               = 0x09,
    SX2_TRAP_STP                = 0x10,
    SX2_TRAP_LACP               = 0x11,
    SX2_TRAP_EAPOL              = 0x12,
    SX2_TRAP_LLDP               = 0x13,
    SX2_TRAP_MMRP               = 0x14,
    SX2_TRAP_MVRP               = 0x15,
    SX2_TRAP_RPVST              = 0x16,
    SX2_TRAP_DHCP               = 0x19,
    SX2_TRAP_IGMP_QUERY         = 0x30,
    SX2_TRAP_IGMP_V1_REPORT     = 0x31,
    SX2_TRAP_IGMP_V2_REPORT     = 0x32,
    SX2_TRAP_IGMP_V2_LEAVE      = 0x33,
    SX2_TRAP_IGMP_V3_REPORT     = 0x34,
    SX2_TRAP_MLD_QUERY          = 0x65,     /* MLDv1 and MLDv2 */
    SX2_TRAP_MLD_V1_REPORT      = 0x66,
    SX2_TRAP_MLD_V1_DONE        = 0x67,
    SX2_TRAP_MLD_V2_REPORT      = 0x68,
    /* Event trap IDs (trap.h v5.10 mlxsw_event_trap_id) */
    SX2_TRAP_MTWE               = 0x0C,
    SX2_TRAP_PTP_ING_FIFO       = 0x2D,
    SX2_TRAP_PTP_EGR_FIFO       = 0x2E,
};

/* Frame classification for the control protocol traps */
#define SX2_ETHERTYPE_SLOW              0x8809
#define SX2_ETHERTYPE_EAPOL             0x888E
#define SX2_ETHERTYPE_LLDP              0x88CC
#define SX2_IPPROTO_IGMP                2
#define SX2_IPPROTO_HOPOPTS             0
#define SX2_IPPROTO_ICMPV6              58
/* IPv4 flags and fragment offset (RFC 791), options (RFC 2113) */
#define SX2_IP_MF                       0x2000
#define SX2_IP_OFFMASK                  0x1FFF
#define SX2_IPOPT_END                   0
#define SX2_IPOPT_NOP                   1
#define SX2_IPOPT_ROUTER_ALERT          148
/* IPv6 hop-by-hop options (RFC 8200, RFC 2711) */
#define SX2_IP6OPT_PAD1                 0
#define SX2_IP6OPT_ROUTER_ALERT         5

/*
 * Registers (accessed through EMAD or ACCESS_REG)
 */
#define SX2_REG_SGCR_ID                 0x2000
#define SX2_REG_SGCR_LEN                0x10
#define SX2_REG_SGCR_LLB                0x04, 0, 1

#define SX2_REG_SPAD_ID                 0x2002
#define SX2_REG_SPAD_LEN                0x10
#define SX2_REG_SPAD_BASE_MAC_OFF       0x02

#define SX2_REG_SSPR_ID                 0x2008
#define SX2_REG_SSPR_LEN                0x08
#define SX2_REG_SSPR_M                  0x00, 31, 1
#define SX2_REG_SSPR_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_SSPR_LP_MSB             0x00, 12, 2
#define SX2_REG_SSPR_SUB_PORT           0x00, 8, 8
#define SX2_REG_SSPR_SYSTEM_PORT        0x04, 0, 16

#define SX2_REG_SPMS_ID                 0x200D
#define SX2_REG_SPMS_LEN                0x404
#define SX2_REG_SPMS_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_SPMS_LP_MSB             0x00, 12, 2
#define SX2_REG_SPMS_STATE_OFF          0x04    /* 2 bits per VID */
#define SX2_REG_SPMS_STATE_BYTES        0x400
#define SX2_STP_NO_CHANGE               0
#define SX2_STP_DISCARDING              1
#define SX2_STP_LEARNING                2
#define SX2_STP_FORWARDING              3

/*
 * Multicast ID to port list.  v4.3 declares 0x420 bytes, v4.9-v5.10
 * 0x240 (the layout ends there); either length is accepted.
 */
#define SX2_REG_SMID_ID                 0x2007
#define SX2_REG_SMID_LEN                0x240
#define SX2_REG_SMID_SWID               0x00, 24, 8
#define SX2_REG_SMID_MID                0x00, 0, 16
#define SX2_REG_SMID_PORT_OFF           0x20    /* 1 bit per port */
#define SX2_REG_SMID_PORT_MASK_OFF      0x220
#define SX2_REG_SMID_BITMAP_BYTES       0x20
/* The swid's flooding MID upstream writes in SMID (v4.3) and SFGC.mid */
#define SX2_MID_FLOOD                   0xD000

#define SX2_REG_SFGC_ID                 0x2011
#define SX2_REG_SFGC_LEN                0x10
#define SX2_REG_SFGC_TYPE               0x00, 0, 4
#define SX2_REG_SFGC_BRIDGE_TYPE        0x04, 24, 3
#define SX2_REG_SFGC_TABLE_TYPE         0x04, 16, 3
#define SX2_REG_SFGC_FLOOD_TABLE        0x04, 0, 6
#define SX2_REG_SFGC_MID                0x08, 0, 16
#define SX2_REG_SFGC_COUNTER_SET_TYPE   0x0C, 24, 8
#define SX2_REG_SFGC_COUNTER_INDEX      0x0C, 0, 24
enum {
    SX2_SFGC_TYPE_BROADCAST             = 0,
    SX2_SFGC_TYPE_UNKNOWN_UNICAST       = 1,
    SX2_SFGC_TYPE_UNREG_MC_IPV4         = 2,
    SX2_SFGC_TYPE_UNREG_MC_IPV6         = 3,
    SX2_SFGC_TYPE_RESERVED              = 4,
    SX2_SFGC_TYPE_UNREG_MC_NON_IP       = 5,
    SX2_SFGC_TYPE_IPV4_LINK_LOCAL       = 6,
    SX2_SFGC_TYPE_IPV6_ALL_HOST         = 7,
    SX2_SFGC_TYPE_MAX                   = 8,
};
#define SX2_SFGC_BRIDGE_TYPE_8021Q      0
enum {
    SX2_FT_TYPE_ANY             = 0,
    SX2_FT_TYPE_VID             = 1,
    SX2_FT_TYPE_SINGLE          = 2,
    SX2_FT_TYPE_FID_OFFSET      = 3,
    SX2_FT_TYPE_FID             = 4,
};

#define SX2_REG_SFTR_ID                 0x2012
#define SX2_REG_SFTR_LEN                0x420
#define SX2_REG_SFTR_SWID               0x00, 24, 8
#define SX2_REG_SFTR_FLOOD_TABLE        0x00, 16, 6
#define SX2_REG_SFTR_INDEX              0x00, 0, 16
#define SX2_REG_SFTR_TABLE_TYPE         0x04, 16, 3
#define SX2_REG_SFTR_RANGE              0x04, 0, 16
#define SX2_REG_SFTR_PORT_OFF           0x20    /* 1 bit per port */
#define SX2_REG_SFTR_PORT_MASK_OFF      0x220
#define SX2_REG_SFTR_BITMAP_BYTES       0x20
/* Entries of a per-VID flood table: one per VID (cmd.h) */
#define SX2_FT_VID_ENTRIES              4096

#define SX2_REG_SPMLR_ID                0x2018
#define SX2_REG_SPMLR_LEN               0x08
#define SX2_REG_SPMLR_LOCAL_PORT        0x00, 16, 8
#define SX2_REG_SPMLR_LP_MSB            0x00, 12, 2
#define SX2_REG_SPMLR_SUB_PORT          0x00, 8, 8
#define SX2_REG_SPMLR_LEARN_MODE        0x04, 30, 2
#define SX2_LEARN_DISABLE               0
#define SX2_LEARN_ENABLE                2
#define SX2_LEARN_SEC                   3

/* FDB ageing time (per switch partition; only swid 0 is modelled) */
#define SX2_REG_SFDAT_ID                0x2009
#define SX2_REG_SFDAT_LEN               0x08
#define SX2_REG_SFDAT_SWID              0x00, 24, 8
#define SX2_REG_SFDAT_AGE_TIME          0x04, 0, 20
#define SX2_AGE_TIME_MIN                10
#define SX2_AGE_TIME_MAX                1000000
#define SX2_AGE_TIME_DEFAULT            300

/* Filtering database access; records of 16 bytes follow the header */
#define SX2_REG_SFD_ID                  0x200A
#define SX2_REG_SFD_BASE_LEN            0x10
#define SX2_REG_SFD_REC_LEN             0x10
#define SX2_REG_SFD_REC_MAX             64
#define SX2_REG_SFD_LEN                 (SX2_REG_SFD_BASE_LEN + \
                                         SX2_REG_SFD_REC_LEN * \
                                         SX2_REG_SFD_REC_MAX)
#define SX2_REG_SFD_SWID                0x00, 24, 8
#define SX2_REG_SFD_OP                  0x04, 30, 2
#define SX2_REG_SFD_RECORD_LOCATOR      0x04, 0, 30
#define SX2_REG_SFD_NUM_REC             0x08, 0, 8
/* Record fields, relative to the start of a record */
#define SX2_SFD_REC_SWID                0x00, 24, 8
#define SX2_SFD_REC_TYPE                0x00, 20, 4
#define SX2_SFD_REC_POLICY              0x00, 18, 2
#define SX2_SFD_REC_A                   0x00, 16, 1
#define SX2_SFD_REC_MAC_OFF             0x02
#define SX2_SFD_REC_SET_VID             0x08, 31, 1
#define SX2_SFD_REC_SUB_PORT            0x08, 16, 8
#define SX2_SFD_REC_FID                 0x08, 0, 16
#define SX2_SFD_REC_ACTION              0x0C, 28, 4
#define SX2_SFD_REC_VID                 0x0C, 16, 12
#define SX2_SFD_REC_SYSTEM_PORT         0x0C, 0, 16
#define SX2_SFD_REC_LAG_ID              0x0C, 0, 10     /* UNICAST_LAG */
#define SX2_SFD_OP_QUERY_DUMP           0
#define SX2_SFD_OP_WRITE_EDIT           1
#define SX2_SFD_OP_WRITE_REMOVE         2
#define SX2_SFD_REC_TYPE_UNICAST        0
#define SX2_SFD_REC_TYPE_UNICAST_LAG    1
#define SX2_SFD_REC_TYPE_MULTICAST      2
#define SX2_SFD_REC_MC_PGI              0x08, 16, 13    /* MULTICAST */
#define SX2_SFD_REC_MC_MID              0x0C, 0, 16     /* MULTICAST */
#define SX2_SFD_MC_PGI_MID              0x1FFF          /* "use the MID" */
#define SX2_SFD_POLICY_STATIC           0
#define SX2_SFD_POLICY_DYNAMIC_MLAG     1
#define SX2_SFD_POLICY_DYNAMIC          3
#define SX2_SFD_ACTION_NOP              0
#define SX2_SFD_ACTION_MIRROR_TO_CPU    1
#define SX2_SFD_ACTION_TRAP             2
#define SX2_SFD_ACTION_FORWARD_IP_ROUTER 3
#define SX2_SFD_ACTION_DISCARD_ERROR    15

/* FDB notifications (learned / aged out) */
#define SX2_REG_SFN_ID                  0x200B
#define SX2_REG_SFN_BASE_LEN            0x10
#define SX2_REG_SFN_REC_LEN             0x10
#define SX2_REG_SFN_REC_MAX             64
#define SX2_REG_SFN_LEN                 (SX2_REG_SFN_BASE_LEN + \
                                         SX2_REG_SFN_REC_LEN * \
                                         SX2_REG_SFN_REC_MAX)
#define SX2_REG_SFN_SWID                0x00, 24, 8
#define SX2_REG_SFN_END                 0x04, 20, 1
#define SX2_REG_SFN_NUM_REC             0x04, 0, 8
#define SX2_SFN_REC_SWID                0x00, 24, 8
#define SX2_SFN_REC_TYPE                0x00, 20, 4
#define SX2_SFN_REC_MAC_OFF             0x02
#define SX2_SFN_REC_SUB_PORT            0x08, 16, 8
#define SX2_SFN_REC_FID                 0x08, 0, 16
#define SX2_SFN_REC_SYSTEM_PORT         0x0C, 0, 16
#define SX2_SFN_REC_LAG_ID              0x0C, 0, 10     /* LAG records */
#define SX2_SFN_TYPE_LEARNED_MAC        5
#define SX2_SFN_TYPE_LEARNED_MAC_LAG    6
#define SX2_SFN_TYPE_AGED_OUT_MAC       7
#define SX2_SFN_TYPE_AGED_OUT_MAC_LAG   8

/* Port VID (PVID) */
#define SX2_REG_SPVID_ID                0x200E
#define SX2_REG_SPVID_LEN               0x08
#define SX2_REG_SPVID_TPORT             0x00, 24, 1
#define SX2_REG_SPVID_SUB_PORT          0x00, 8, 8
#define SX2_REG_SPVID_PVID              0x04, 0, 12

/* Port VLAN membership; records of 4 bytes follow the header */
#define SX2_REG_SPVM_ID                 0x200F
#define SX2_REG_SPVM_BASE_LEN           0x04
#define SX2_REG_SPVM_REC_LEN            0x04
#define SX2_REG_SPVM_REC_MAX            255
#define SX2_REG_SPVM_LEN                (SX2_REG_SPVM_BASE_LEN + \
                                         SX2_REG_SPVM_REC_LEN * \
                                         SX2_REG_SPVM_REC_MAX)
#define SX2_REG_SPVM_PT                 0x00, 31, 1
#define SX2_REG_SPVM_PTE                0x00, 30, 1
#define SX2_REG_SPVM_SUB_PORT           0x00, 8, 8
#define SX2_REG_SPVM_NUM_REC            0x00, 0, 8
#define SX2_SPVM_REC_I                  0x00, 14, 1
#define SX2_SPVM_REC_E                  0x00, 13, 1
#define SX2_SPVM_REC_U                  0x00, 12, 1
#define SX2_SPVM_REC_VID                0x00, 0, 12

/* Port acceptable frame types */
#define SX2_REG_SPAFT_ID                0x2010
#define SX2_REG_SPAFT_LEN               0x08
#define SX2_REG_SPAFT_SUB_PORT          0x00, 8, 8
#define SX2_REG_SPAFT_ALLOW_UNTAGGED    0x04, 31, 1
#define SX2_REG_SPAFT_ALLOW_PRIO_TAGGED 0x04, 30, 1
#define SX2_REG_SPAFT_ALLOW_TAGGED      0x04, 29, 1

/* FDB flush */
#define SX2_REG_SFDF_ID                 0x2013
#define SX2_REG_SFDF_LEN                0x14
#define SX2_REG_SFDF_SWID               0x00, 24, 8
#define SX2_REG_SFDF_FLUSH_TYPE         0x04, 28, 4
#define SX2_REG_SFDF_FLUSH_STATIC       0x04, 24, 1
#define SX2_REG_SFDF_PORT_FID_SYS_PORT  0x08, 0, 16
#define SX2_REG_SFDF_FID                0x0C, 0, 16
#define SX2_REG_SFDF_SYSTEM_PORT        0x0C, 0, 16
#define SX2_REG_SFDF_LAG_ID             0x0C, 0, 10
#define SX2_REG_SFDF_LAG_FID_LAG_ID     0x08, 0, 10
#define SX2_SFDF_FLUSH_SWID             0
#define SX2_SFDF_FLUSH_FID              1
#define SX2_SFDF_FLUSH_PORT             2
#define SX2_SFDF_FLUSH_PORT_AND_FID     3
#define SX2_SFDF_FLUSH_LAG              4
#define SX2_SFDF_FLUSH_LAG_AND_FID      5

/* Link aggregation (v5.10 reg.h layouts) */
#define SX2_REG_SLDR_ID                 0x2014
#define SX2_REG_SLDR_LEN                0x0C    /* one port in the list */
#define SX2_REG_SLDR_OP                 0x00, 29, 3
#define SX2_REG_SLDR_LAG_ID             0x00, 0, 10
#define SX2_REG_SLDR_NUM_PORTS          0x04, 24, 8
#define SX2_REG_SLDR_SYSTEM_PORT        0x08, 0, 16
#define SX2_SLDR_OP_CREATE              0
#define SX2_SLDR_OP_DESTROY             1
#define SX2_SLDR_OP_ADD_PORT_LIST       2       /* distributor on */
#define SX2_SLDR_OP_REMOVE_PORT_LIST    3       /* distributor off */

/*
 * MPAT - port analyzer table (v6.1 layout, local SPAN fields); MPAR -
 * which analyzer mirrors a port's ingress or egress (v6.1 adds
 * probability_rate at 0x08, "reserved when Spectrum-1").
 */
#define SX2_REG_MPAT_ID                 0x901A
#define SX2_REG_MPAT_LEN                0x78
#define SX2_REG_MPAT_PA_ID              0x00, 28, 4
#define SX2_REG_MPAT_SESSION_ID         0x00, 24, 4
#define SX2_REG_MPAT_SYSTEM_PORT        0x00, 0, 16
#define SX2_REG_MPAT_E                  0x04, 31, 1
#define SX2_REG_MPAT_QOS                0x04, 26, 1
#define SX2_REG_MPAT_BE                 0x04, 25, 1
#define SX2_REG_MPAT_SPAN_TYPE          0x04, 0, 4
#define SX2_REG_MPAT_PIDE               0x0C, 15, 1
#define SX2_REG_MPAT_PID                0x0C, 0, 14
#define SX2_MPAT_SPAN_TYPE_LOCAL_ETH    0
#define SX2_SPAN_ANALYZERS              4

#define SX2_REG_MPAR_ID                 0x901B
#define SX2_REG_MPAR_LEN                0x0C    /* v6.1 */
#define SX2_REG_MPAR_LEN_V4_9           0x08    /* v4.9..v5.10 */
#define SX2_REG_MPAR_I_E                0x00, 0, 4
#define SX2_REG_MPAR_ENABLE             0x04, 31, 1
#define SX2_REG_MPAR_PA_ID              0x04, 0, 4
#define SX2_REG_MPAR_PROBABILITY_RATE   0x08, 0, 32
#define SX2_MPAR_EGRESS                 0
#define SX2_MPAR_INGRESS                1

#define SX2_REG_SLCR_ID                 0x2015
#define SX2_REG_SLCR_LEN                0x10
#define SX2_REG_SLCR_PP                 0x00, 24, 1
#define SX2_REG_SLCR_TYPE               0x00, 0, 4
#define SX2_REG_SLCR_LAG_HASH           0x04, 0, 20
#define SX2_REG_SLCR_SEED               0x08, 0, 32
#define SX2_SLCR_PP_GLOBAL              0
#define SX2_SLCR_PP_PER_PORT            1
#define SX2_SLCR_TYPE_CRC               0
#define SX2_SLCR_TYPE_XOR               1
#define SX2_SLCR_TYPE_RANDOM            2
/* lag_hash bits reg.h defines: 0-17 and 19 (RoCE destination QP) */
#define SX2_SLCR_HASH_DEFINED           0xBFFFFu
/* Reset default: SMAC, DMAC, VLAN ID and Ethertype, every packet kind */
#define SX2_SLCR_HASH_DEFAULT           0x1FEu
#define SX2_SLCR_HASH_IN_PORT           (1u << 0)
#define SX2_SLCR_HASH_SMAC_IP           (1u << 1)
#define SX2_SLCR_HASH_SMAC_NONIP        (1u << 2)
#define SX2_SLCR_HASH_DMAC_IP           (1u << 3)
#define SX2_SLCR_HASH_DMAC_NONIP        (1u << 4)
#define SX2_SLCR_HASH_ETHERTYPE_IP      (1u << 5)
#define SX2_SLCR_HASH_ETHERTYPE_NONIP   (1u << 6)
#define SX2_SLCR_HASH_VLANID_IP         (1u << 7)
#define SX2_SLCR_HASH_VLANID_NONIP      (1u << 8)
#define SX2_SLCR_HASH_SIP               (1u << 9)
#define SX2_SLCR_HASH_DIP               (1u << 10)
#define SX2_SLCR_HASH_SPORT             (1u << 11)
#define SX2_SLCR_HASH_DPORT             (1u << 12)
#define SX2_SLCR_HASH_IPPROTO           (1u << 13)
#define SX2_SLCR_HASH_FLOWLABEL         (1u << 14)

#define SX2_REG_SLCOR_ID                0x2016
#define SX2_REG_SLCOR_LEN               0x10
#define SX2_REG_SLCOR_COL               0x00, 30, 2
#define SX2_REG_SLCOR_LAG_ID            0x00, 0, 10
#define SX2_REG_SLCOR_PORT_INDEX        0x04, 0, 10
#define SX2_SLCOR_COL_ADD_PORT          0       /* collector disabled */
#define SX2_SLCOR_COL_ENABLE            1
#define SX2_SLCOR_COL_DISABLE           2
#define SX2_SLCOR_COL_REMOVE_PORT       3

/*
 * The only LAG dimensions a SwitchX-2 source gives: the profile v4.3's
 * driver asked for, 64 LAGs of 16 ports (docs/switchx2-conformance.md)
 */
#define SX2_MAX_LAGS                    64
#define SX2_MAX_PORTS_PER_LAG           16

/* VID to FID mapping (the {port, VID} table does not exist on SwitchX-2) */
#define SX2_REG_SVFA_ID                 0x201C
#define SX2_REG_SVFA_LEN                0x18
#define SX2_REG_SVFA_SWID               0x00, 24, 8
#define SX2_REG_SVFA_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_SVFA_MAPPING_TABLE      0x00, 8, 3
#define SX2_REG_SVFA_V                  0x00, 0, 1
#define SX2_REG_SVFA_FID                0x04, 16, 16
#define SX2_REG_SVFA_VID                0x04, 0, 12
#define SX2_REG_SVFA_COUNTER_SET_TYPE   0x08, 24, 8
#define SX2_REG_SVFA_COUNTER_INDEX      0x08, 0, 24

/* Virtual port enable (only "disabled" exists on SwitchX-2) */
#define SX2_REG_SVPE_ID                 0x201E
#define SX2_REG_SVPE_LEN                0x04
#define SX2_REG_SVPE_VP_EN              0x00, 8, 1

/* FID management */
#define SX2_REG_SFMR_ID                 0x201F
#define SX2_REG_SFMR_LEN                0x30
#define SX2_REG_SFMR_OP                 0x00, 24, 4
#define SX2_REG_SFMR_FID                0x00, 0, 16
#define SX2_REG_SFMR_FLOOD_BRIDGE_TYPE  0x08, 28, 1
#define SX2_REG_SFMR_FID_OFFSET         0x08, 0, 16
#define SX2_SFMR_OP_CREATE              0
#define SX2_SFMR_OP_DESTROY             1

/* Per {port, VID} learning; records of 4 bytes follow the header */
#define SX2_REG_SPVMLR_ID               0x2020
#define SX2_REG_SPVMLR_BASE_LEN         0x04
#define SX2_REG_SPVMLR_REC_LEN          0x04
#define SX2_REG_SPVMLR_REC_MAX          255
#define SX2_REG_SPVMLR_LEN              (SX2_REG_SPVMLR_BASE_LEN + \
                                         SX2_REG_SPVMLR_REC_LEN * \
                                         SX2_REG_SPVMLR_REC_MAX)
#define SX2_REG_SPVMLR_NUM_REC          0x00, 0, 8
#define SX2_SPVMLR_REC_LEARN_ENABLE     0x00, 31, 1
#define SX2_SPVMLR_REC_VID              0x00, 0, 12

/*
 * Filtering identifiers: only 802.1Q FIDs 1..4094 exist, each equal to
 * its VID.  FIDs from 4096 up (vFIDs) are not supported on SwitchX-2.
 */
#define SX2_NUM_VIDS                    4096
#define SX2_VID_MAX                     4094
#define SX2_VFID_BASE                   4096
#define SX2_FDB_SIZE_DEFAULT            49152   /* SX1036 MAC table */
#define SX2_FDB_SIZE_MAX                (1 << 20)
#define SX2_SFN_QUEUE_SIZE              1024
/* LEARNED_MAC notifications raised and not answered, at most */
#define SX2_LEARN_PENDING_MAX           4096

#define SX2_REG_PMLP_ID                 0x5002
#define SX2_REG_PMLP_LEN                0x40
#define SX2_REG_PMLP_RXTX               0x00, 31, 1
#define SX2_REG_PMLP_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PMLP_LP_MSB             0x00, 12, 2
#define SX2_REG_PMLP_WIDTH              0x00, 0, 8
#define SX2_REG_PMLP_MODULE(i)          (0x04 + 4 * (i)), 0, 8
#define SX2_REG_PMLP_TX_LANE(i)         (0x04 + 4 * (i)), 16, 4
#define SX2_REG_PMLP_RX_LANE(i)         (0x04 + 4 * (i)), 24, 4

#define SX2_REG_PMTU_ID                 0x5003
#define SX2_REG_PMTU_LEN                0x10
#define SX2_REG_PMTU_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PMTU_LP_MSB             0x00, 12, 2
#define SX2_REG_PMTU_MAX_MTU            0x04, 16, 16
#define SX2_REG_PMTU_ADMIN_MTU          0x08, 16, 16
#define SX2_REG_PMTU_OPER_MTU           0x0C, 16, 16

#define SX2_REG_PTYS_ID                 0x5004
#define SX2_REG_PTYS_LEN                0x40
#define SX2_REG_PTYS_AN_DISABLE_ADMIN   0x00, 30, 1
#define SX2_REG_PTYS_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PTYS_LP_MSB             0x00, 12, 2
#define SX2_REG_PTYS_PROTO_MASK         0x00, 0, 3
#define SX2_REG_PTYS_AN_STATUS          0x04, 28, 4
#define SX2_REG_PTYS_EXT_ETH_CAP        0x08, 0, 32
#define SX2_REG_PTYS_ETH_CAP            0x0C, 0, 32
#define SX2_REG_PTYS_IB_WIDTH_CAP       0x10, 16, 16
#define SX2_REG_PTYS_IB_PROTO_CAP       0x10, 0, 16
#define SX2_REG_PTYS_EXT_ETH_ADMIN      0x14, 0, 32
#define SX2_REG_PTYS_ETH_ADMIN          0x18, 0, 32
#define SX2_REG_PTYS_IB_WIDTH_ADMIN     0x1C, 16, 16
#define SX2_REG_PTYS_IB_PROTO_ADMIN     0x1C, 0, 16
#define SX2_REG_PTYS_EXT_ETH_OPER       0x20, 0, 32
#define SX2_REG_PTYS_ETH_OPER           0x24, 0, 32
#define SX2_REG_PTYS_IB_WIDTH_OPER      0x28, 16, 16
#define SX2_REG_PTYS_IB_PROTO_OPER      0x28, 0, 16
#define SX2_REG_PTYS_CONNECTOR_TYPE     0x2C, 0, 4
#define SX2_PTYS_PROTO_IB               (1u << 0)
#define SX2_PTYS_PROTO_ETH              (1u << 2)
#define SX2_PTYS_AN_STATUS_NA           0
#define SX2_PTYS_AN_STATUS_OK           1
#define SX2_PTYS_CONNECTOR_DA           7
#define SX2_ETH_SGMII                   (1u << 0)
#define SX2_ETH_1000BASE_KX             (1u << 1)
#define SX2_ETH_10GBASE_CX4             (1u << 2)
#define SX2_ETH_10GBASE_KX4             (1u << 3)
#define SX2_ETH_10GBASE_KR              (1u << 4)
#define SX2_ETH_40GBASE_CR4             (1u << 6)
#define SX2_ETH_40GBASE_KR4             (1u << 7)
#define SX2_ETH_10GBASE_CR              (1u << 12)
#define SX2_ETH_10GBASE_SR              (1u << 13)
#define SX2_ETH_10GBASE_ER_LR           (1u << 14)
#define SX2_ETH_40GBASE_SR4             (1u << 15)
#define SX2_ETH_40GBASE_LR4_ER4         (1u << 16)
#define SX2_ETH_CAP_1G                  (SX2_ETH_SGMII | SX2_ETH_1000BASE_KX)
#define SX2_ETH_CAP_10G                 (SX2_ETH_10GBASE_CX4 | \
                                         SX2_ETH_10GBASE_KX4 | \
                                         SX2_ETH_10GBASE_KR | \
                                         SX2_ETH_10GBASE_CR | \
                                         SX2_ETH_10GBASE_SR | \
                                         SX2_ETH_10GBASE_ER_LR)
#define SX2_ETH_CAP_40G                 (SX2_ETH_40GBASE_CR4 | \
                                         SX2_ETH_40GBASE_KR4 | \
                                         SX2_ETH_40GBASE_SR4 | \
                                         SX2_ETH_40GBASE_LR4_ER4)
#define SX2_IB_PROTO_CAP                0x1F    /* SDR, DDR, QDR, FDR10, FDR */
#define SX2_IB_WIDTH_CAP                0x07    /* 1x, 2x, 4x */

#define SX2_REG_PPAD_ID                 0x5005
#define SX2_REG_PPAD_LEN                0x10
#define SX2_REG_PPAD_SINGLE_BASE_MAC    0x00, 28, 1
#define SX2_REG_PPAD_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PPAD_LP_MSB             0x00, 24, 2
#define SX2_REG_PPAD_MAC_OFF            0x02

#define SX2_REG_PAOS_ID                 0x5006
#define SX2_REG_PAOS_LEN                0x10
#define SX2_REG_PAOS_SWID               0x00, 24, 8
#define SX2_REG_PAOS_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PAOS_LP_MSB             0x00, 12, 2
#define SX2_REG_PAOS_ADMIN_STATUS       0x00, 8, 4
#define SX2_REG_PAOS_OPER_STATUS        0x00, 0, 4
#define SX2_REG_PAOS_ASE                0x04, 31, 1
#define SX2_REG_PAOS_EE                 0x04, 30, 1
#define SX2_REG_PAOS_E                  0x04, 0, 2
#define SX2_ADMIN_UP                    1
#define SX2_ADMIN_DOWN                  2
#define SX2_ADMIN_UP_ONCE               3
#define SX2_ADMIN_DISABLED              4
#define SX2_OPER_UP                     1
#define SX2_OPER_DOWN                   2
#define SX2_OPER_FAILURE                4
#define SX2_EVENT_NONE                  0
#define SX2_EVENT_GENERATE              1
#define SX2_EVENT_SINGLE                2

#define SX2_REG_PPCNT_ID                0x5008
#define SX2_REG_PPCNT_LEN               0x100
#define SX2_REG_PPCNT_SWID              0x00, 24, 8
#define SX2_REG_PPCNT_LOCAL_PORT        0x00, 16, 8
#define SX2_REG_PPCNT_PNAT              0x00, 14, 2
#define SX2_REG_PPCNT_LP_MSB            0x00, 12, 2
#define SX2_REG_PPCNT_GRP               0x00, 0, 6
#define SX2_REG_PPCNT_CLR               0x04, 31, 1
#define SX2_REG_PPCNT_LP_GL             0x04, 30, 1     /* v6.1 */
#define SX2_REG_PPCNT_PRIO_TC           0x04, 0, 5
#define SX2_PPCNT_ALL_PORTS             255
#define SX2_PPCNT_ALL_GROUPS            63
#define SX2_PPCNT_SWID_ALL              255
#define SX2_PPCNT_CNT_OFF               0x08
enum {
    SX2_PPCNT_IEEE_8023         = 0x00,
    SX2_PPCNT_RFC_2863          = 0x01,
    SX2_PPCNT_RFC_2819          = 0x02,
    SX2_PPCNT_RFC_3635          = 0x03,
    SX2_PPCNT_EXT               = 0x05,
    SX2_PPCNT_DISCARD           = 0x06,
    SX2_PPCNT_PRIO              = 0x10,
    SX2_PPCNT_TC                = 0x11,
    SX2_PPCNT_TC_CONG           = 0x13,
};

#define SX2_REG_PUDE_ID                 0x5009
#define SX2_REG_PUDE_LEN                0x10
#define SX2_REG_PUDE_SWID               0x00, 24, 8
#define SX2_REG_PUDE_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PUDE_ADMIN_STATUS       0x00, 8, 4
#define SX2_REG_PUDE_OPER_STATUS        0x00, 0, 4

#define SX2_REG_PLIB_ID                 0x500A
#define SX2_REG_PLIB_LEN                0x10
#define SX2_REG_PLIB_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PLIB_IB_PORT            0x00, 0, 8

#define SX2_REG_PSPA_ID                 0x500D
#define SX2_REG_PSPA_LEN                0x08
#define SX2_REG_PSPA_SWID               0x00, 24, 8
#define SX2_REG_PSPA_LOCAL_PORT         0x00, 16, 8
#define SX2_REG_PSPA_LP_MSB             0x00, 0, 2
#define SX2_REG_PSPA_SUB_PORT           0x00, 8, 8

/* QoS policer configuration: trap group (CPU) policers */
#define SX2_REG_QPCR_ID                 0x4004
#define SX2_REG_QPCR_LEN                0x28
#define SX2_REG_QPCR_G                  0x00, 14, 2
#define SX2_REG_QPCR_PID                0x00, 0, 14
#define SX2_REG_QPCR_CLEAR_COUNTER      0x04, 31, 1
#define SX2_REG_QPCR_COLOR_AWARE        0x04, 15, 1
#define SX2_REG_QPCR_BYTES              0x04, 14, 1
#define SX2_REG_QPCR_IR_UNITS           0x04, 12, 1
#define SX2_REG_QPCR_RATE_TYPE          0x04, 8, 2
#define SX2_REG_QPCR_CBS                0x08, 24, 6
#define SX2_REG_QPCR_CIR                0x0C, 0, 32
#define SX2_REG_QPCR_EIR                0x10, 0, 32
#define SX2_REG_QPCR_EXCEED_ACTION      0x14, 0, 4
#define SX2_REG_QPCR_VIOLATE_ACTION     0x18, 0, 4
#define SX2_REG_QPCR_VIOLATE_COUNT_OFF  0x20    /* 64 bit */
#define SX2_QPCR_G_GLOBAL               2
#define SX2_QPCR_G_STORM_CONTROL        3
#define SX2_QPCR_IR_UNITS_M             0       /* 10^6 */
#define SX2_QPCR_IR_UNITS_K             1       /* 10^3 */
#define SX2_QPCR_RATE_TYPE_SINGLE       1
#define SX2_QPCR_RATE_TYPE_DOUBLE       2
#define SX2_QPCR_ACTION_DISCARD         1
#define SX2_QPCR_ACTION_FORWARD         2       /* red: dropped to the CPU */
/* Limits (reg.h v5.10; bytes: Spectrum-1's) */
#define SX2_QPCR_CIR_PKTS_MIN           1
#define SX2_QPCR_CIR_PKTS_MAX           2000000000u
#define SX2_QPCR_CBS_PKTS_MIN           4
#define SX2_QPCR_CBS_PKTS_MAX           24
#define SX2_QPCR_CIR_BITS_MIN           1024ull
#define SX2_QPCR_CIR_BITS_MAX           2000000000000ull
#define SX2_QPCR_CBS_BITS_MIN           4
#define SX2_QPCR_CBS_BITS_MAX           25
#define SX2_QPCR_CBS_BITS_UNIT          512     /* bits per 2^cbs */
/* Policers the model has (silent for SwitchX-2): pid 0..15 */
#define SX2_NUM_POLICERS                64      /* one per trap group */

#define SX2_REG_HTGT_ID                 0x7002
#define SX2_REG_HTGT_LEN                0x20
#define SX2_REG_HTGT_SWID               0x00, 24, 8
#define SX2_REG_HTGT_TYPE               0x00, 8, 4
#define SX2_REG_HTGT_TRAP_GROUP         0x00, 0, 8
#define SX2_REG_HTGT_PIDE               0x04, 15, 1
#define SX2_REG_HTGT_PID                0x04, 0, 8
#define SX2_REG_HTGT_MIRROR_ACTION      0x08, 8, 2
#define SX2_REG_HTGT_MIRRORING_AGENT    0x08, 0, 3
#define SX2_REG_HTGT_PRIORITY           0x0C, 0, 4
#define SX2_REG_HTGT_CPU_TCLASS         0x10, 16, 6
#define SX2_REG_HTGT_RDQ                0x10, 0, 6
#define SX2_HTGT_PATH_LOCAL             0
#define SX2_TRAP_GROUPS                 64

#define SX2_REG_HPKT_ID                 0x7003
#define SX2_REG_HPKT_LEN                0x10
#define SX2_REG_HPKT_ACK                0x00, 24, 1
#define SX2_REG_HPKT_ACTION             0x00, 20, 3
#define SX2_REG_HPKT_TRAP_GROUP         0x00, 12, 6
#define SX2_REG_HPKT_TRAP_ID            0x00, 0, 10
#define SX2_REG_HPKT_CTRL               0x04, 16, 2
enum {
    SX2_HPKT_FORWARD                    = 0,
    SX2_HPKT_TRAP_TO_CPU                = 1,
    SX2_HPKT_MIRROR_TO_CPU              = 2,
    SX2_HPKT_DISCARD                    = 3,
    SX2_HPKT_SOFT_DISCARD               = 4,
    SX2_HPKT_TRAP_AND_SOFT_DISCARD      = 5,
    SX2_HPKT_TRAP_EXCEPTION_TO_CPU      = 6,
    /*
     * 15 in v5.10/v6.1's enum, but action is 3 bits wide and the
     * driver's setter masks it: 7 arrives.
     */
    SX2_HPKT_SET_FW_DEFAULT             = 7,
};

#define SX2_REG_MGIR_ID                 0x9020
#define SX2_REG_MGIR_LEN                0x9C
#define SX2_REG_MGIR_HW_REVISION        0x00, 16, 16
#define SX2_REG_MGIR_DEVICE_ID          0x00, 0, 16
#define SX2_REG_MGIR_PSID_OFF           0x30
#define SX2_REG_MGIR_EXT_MAJOR          0x44, 0, 32
#define SX2_REG_MGIR_EXT_MINOR          0x48, 0, 32
#define SX2_REG_MGIR_EXT_SUB_MINOR      0x4C, 0, 32
#define SX2_HW_REVISION                 0xA1

#define SX2_REG_MRSR_ID                 0x9023
#define SX2_REG_MRSR_LEN                0x08
#define SX2_REG_MRSR_COMMAND            0x00, 0, 4
#define SX2_MRSR_SW_RESET               1

#define SX2_REG_MGPIR_ID                0x9100
#define SX2_REG_MGPIR_LEN               0xA0
#define SX2_REG_MGPIR_SLOT_INDEX        0x00, 28, 4
#define SX2_REG_MGPIR_DEVICE_TYPE       0x00, 24, 4
#define SX2_REG_MGPIR_DEVICES_PER_FLASH 0x00, 16, 8
#define SX2_REG_MGPIR_NUM_OF_DEVICES    0x00, 0, 8
#define SX2_REG_MGPIR_MAX_MODULES_PER_SLOT 0x04, 16, 8
#define SX2_REG_MGPIR_NUM_OF_SLOTS      0x04, 8, 8
#define SX2_REG_MGPIR_NUM_OF_MODULES    0x04, 0, 8

/*
 * Router (v6.1 layouts; the SwitchX-2 notes of reg.h decide what the
 * model accepts, see switchx2_router.c).  RGCR - router configuration;
 * RITR - router interfaces; RICNT - router interface counters.
 */
#define SX2_REG_RGCR_ID                 0x8001
#define SX2_REG_RGCR_LEN                0x28
#define SX2_REG_RGCR_IPV4_EN            0x00, 31, 1
#define SX2_REG_RGCR_IPV6_EN            0x00, 30, 1
#define SX2_REG_RGCR_MAX_RIFS           0x10, 0, 16
#define SX2_REG_RGCR_USP                0x18, 20, 1
#define SX2_REG_RGCR_PCP_RW             0x18, 16, 2
#define SX2_REG_RGCR_ACTIVITY_DIS       0x20, 0, 8

#define SX2_REG_RITR_ID                 0x8002
#define SX2_REG_RITR_LEN                0x40
#define SX2_REG_RITR_ENABLE             0x00, 31, 1
#define SX2_REG_RITR_IPV4               0x00, 29, 1
#define SX2_REG_RITR_IPV6               0x00, 28, 1
#define SX2_REG_RITR_IPV4_MC            0x00, 27, 1
#define SX2_REG_RITR_IPV6_MC            0x00, 26, 1
#define SX2_REG_RITR_TYPE               0x00, 23, 3
#define SX2_REG_RITR_OP                 0x00, 20, 2
#define SX2_REG_RITR_RIF                0x00, 0, 16
#define SX2_REG_RITR_IPV4_FE            0x04, 29, 1
#define SX2_REG_RITR_IPV6_FE            0x04, 28, 1
#define SX2_REG_RITR_IPV4_MC_FE         0x04, 27, 1
#define SX2_REG_RITR_IPV6_MC_FE         0x04, 26, 1
#define SX2_REG_RITR_LB_EN              0x04, 24, 1
#define SX2_REG_RITR_VR                 0x04, 0, 16
#define SX2_REG_RITR_IF_SWID            0x08, 24, 8
#define SX2_REG_RITR_IF_MAC_PROFILE     0x10, 16, 4
#define SX2_REG_RITR_IF_MAC             0x12    /* 6 bytes */
#define SX2_REG_RITR_IF_VRRP_IPV6       0x1C, 8, 8
#define SX2_REG_RITR_IF_VRRP_IPV4       0x1C, 0, 8
#define SX2_REG_RITR_VLAN_VID           0x08, 0, 12
#define SX2_REG_RITR_VLAN_EFID          0x0C, 0, 16
#define SX2_REG_RITR_SP_LAG             0x08, 24, 1
#define SX2_REG_RITR_SP_SYSTEM_PORT     0x08, 0, 16
#define SX2_REG_RITR_SP_EFID            0x0C, 0, 16
#define SX2_REG_RITR_SP_VID             0x18, 0, 12
#define SX2_REG_RITR_MTU                0x34, 0, 16
#define SX2_REG_RITR_IN_CNT_TYPE        0x38, 24, 8
#define SX2_REG_RITR_IN_CNT_INDEX       0x38, 0, 24
#define SX2_REG_RITR_EG_CNT_TYPE        0x3C, 24, 8
#define SX2_REG_RITR_EG_CNT_INDEX       0x3C, 0, 24
#define SX2_RITR_TYPE_VLAN              0
#define SX2_RITR_TYPE_FID               1
#define SX2_RITR_TYPE_SUB_PORT          2
#define SX2_RITR_TYPE_LOOPBACK          3
#define SX2_RIF_CNT_NONE                0x00
#define SX2_RIF_CNT_BASIC               0x09

#define SX2_REG_RICNT_ID                0x800B
#define SX2_REG_RICNT_LEN               0x100
#define SX2_REG_RICNT_OP                0x00, 28, 4
#define SX2_REG_RICNT_CNT_TYPE          0x04, 24, 8
#define SX2_REG_RICNT_CNT_INDEX         0x04, 0, 24
#define SX2_REG_RICNT_COUNTERS          0x08    /* 10 x 64 bits */
#define SX2_RICNT_OP_NOP                0x0
#define SX2_RICNT_OP_CLEAR              0x8

/*
 * LPM: RALTA allocates trees, RALST gives a tree its bins (the prefix
 * lengths it holds), RALTB binds a virtual router's protocol to a tree,
 * RALUE writes routes.
 */
#define SX2_REG_RALTA_ID                0x8010
#define SX2_REG_RALTA_LEN               0x04
#define SX2_REG_RALTA_OP                0x00, 28, 2
#define SX2_REG_RALTA_PROTOCOL          0x00, 24, 4
#define SX2_REG_RALTA_TREE_ID           0x00, 0, 8
#define SX2_RALTA_OP_ALLOCATE           0
#define SX2_RALTA_OP_DEALLOCATE         1
#define SX2_L3_PROTO_IPV4               0
#define SX2_L3_PROTO_IPV6               1

#define SX2_REG_RALST_ID                0x8011
#define SX2_REG_RALST_LEN               0x104
#define SX2_REG_RALST_ROOT_BIN          0x00, 16, 8
#define SX2_REG_RALST_TREE_ID           0x00, 0, 8
#define SX2_REG_RALST_BINS              0x04    /* 128 x {left, right} */
#define SX2_RALST_BIN_COUNT             128
#define SX2_RALST_NO_BIN                0xff

#define SX2_REG_RALTB_ID                0x8012
#define SX2_REG_RALTB_LEN               0x04
#define SX2_REG_RALTB_VR                0x00, 16, 16
#define SX2_REG_RALTB_PROTOCOL          0x00, 12, 4
#define SX2_REG_RALTB_TREE_ID           0x00, 0, 8

#define SX2_REG_RALUE_ID                0x8013
#define SX2_REG_RALUE_LEN               0x38
#define SX2_REG_RALUE_PROTOCOL          0x00, 24, 4
#define SX2_REG_RALUE_OP                0x00, 20, 3
#define SX2_REG_RALUE_A                 0x00, 16, 1
#define SX2_REG_RALUE_VR                0x04, 16, 16
#define SX2_REG_RALUE_OP_U_MASK         0x04, 8, 3
#define SX2_REG_RALUE_PREFIX_LEN        0x08, 0, 8
#define SX2_REG_RALUE_DIP6              0x0C    /* 16 bytes */
#define SX2_REG_RALUE_DIP4              0x18, 0, 32
#define SX2_REG_RALUE_ENTRY_TYPE        0x1C, 30, 2
#define SX2_REG_RALUE_BMP_LEN           0x1C, 16, 8
#define SX2_REG_RALUE_ACTION_TYPE       0x1C, 0, 2
#define SX2_REG_RALUE_TRAP_ACTION       0x20, 28, 4
#define SX2_REG_RALUE_TRAP_ID           0x20, 0, 9
#define SX2_REG_RALUE_ADJ_INDEX         0x24, 0, 24
#define SX2_REG_RALUE_ECMP_SIZE         0x28, 0, 13
#define SX2_REG_RALUE_LOCAL_ERIF        0x24, 0, 16
#define SX2_REG_RALUE_IP2ME_V           0x24, 31, 1
#define SX2_REG_RALUE_IP2ME_TUNNEL_PTR  0x24, 0, 24
#define SX2_RALUE_OP_WRITE              0
#define SX2_RALUE_OP_UPDATE             1
#define SX2_RALUE_OP_CLEAR_ACTIVITY     2
#define SX2_RALUE_OP_DELETE             3
#define SX2_RALUE_ENTRY_MARKER          1
#define SX2_RALUE_ENTRY_ROUTE           2
#define SX2_RALUE_ENTRY_MARKER_ROUTE    3
#define SX2_RALUE_ACTION_REMOTE         0
#define SX2_RALUE_ACTION_LOCAL          1
#define SX2_RALUE_ACTION_IP2ME          2

/*
 * RALEU - LPM ECMP update: the routes of a {virtual router, protocol}
 * through one block of adjacencies move to another (v4.14+ layout)
 */
#define SX2_REG_RALEU_ID                0x8015
#define SX2_REG_RALEU_LEN               0x28
#define SX2_REG_RALEU_PROTOCOL          0x00, 24, 4
#define SX2_REG_RALEU_VR                0x00, 0, 16
#define SX2_REG_RALEU_ADJ_INDEX         0x10, 0, 24
#define SX2_REG_RALEU_ECMP_SIZE         0x14, 0, 13
#define SX2_REG_RALEU_NEW_ADJ_INDEX     0x20, 0, 24
#define SX2_REG_RALEU_NEW_ECMP_SIZE     0x24, 0, 13

/*
 * The router's trap IDs (trap.h; SwitchX-2-era numbers where 6.1
 * renumbered, see switchx2_router.c).  RALUE reports RTR_INGRESS0/1,
 * RATR and RAUHT RTR_EGRESS0/1 (reg.h trap_id fields).
 */
#define SX2_TRAP_ARPUC                  0x51
#define SX2_TRAP_MTUERROR               0x52
#define SX2_TRAP_TTLERROR               0x53
#define SX2_TRAP_LBERROR                0x54
#define SX2_TRAP_IP2ME                  0x5F
#define SX2_TRAP_IPV6_UNSPECIFIED_ADDR  0x60
#define SX2_TRAP_IPV6_LL_DEST           0x61
#define SX2_TRAP_IPV6_LL_SRC            0x62
#define SX2_TRAP_RTR_INGRESS0           0x70
#define SX2_TRAP_RTR_INGRESS1           0x71
#define SX2_TRAP_RTR_EGRESS0            0x80
#define SX2_TRAP_RTR_EGRESS1            0x81
#define SX2_TRAP_HOST_MISS_IPV4         0x90
#define SX2_TRAP_HOST_MISS_IPV6         0x92
#define SX2_TRAP_ROUTER_ALERT_IPV4      0xD6
#define SX2_TRAP_ROUTER_ALERT_IPV6      0xD7

/* Router trap actions (RALUE, RATR, RAUHT) */
#define SX2_RTR_TRAP_NOP                0
#define SX2_RTR_TRAP_TRAP               1
#define SX2_RTR_TRAP_MIRROR_TO_CPU      2
#define SX2_RTR_TRAP_MIRROR             3
#define SX2_RTR_TRAP_DISCARD_ERROR      4

/* RATR - adjacency (next hop) table, linear on SwitchX-2 */
#define SX2_REG_RATR_ID                 0x8008
#define SX2_REG_RATR_LEN                0x2C
#define SX2_REG_RATR_OP                 0x00, 28, 4
#define SX2_REG_RATR_V                  0x00, 24, 1
#define SX2_REG_RATR_A                  0x00, 16, 1
#define SX2_REG_RATR_TYPE               0x04, 28, 4
#define SX2_REG_RATR_ADJ_LOW            0x04, 0, 16
#define SX2_REG_RATR_ERIF               0x08, 0, 16
#define SX2_REG_RATR_TRAP_ACTION        0x0C, 28, 4
#define SX2_REG_RATR_ADJ_HIGH           0x0C, 16, 8
#define SX2_REG_RATR_TRAP_ID            0x0C, 0, 8
#define SX2_REG_RATR_DMAC               0x12    /* 6 bytes */
#define SX2_REG_RATR_IPIP_TYPE          0x10, 16, 4
#define SX2_REG_RATR_IPIP_UDIP4         0x18, 0, 32
#define SX2_REG_RATR_IPIP_PTR6          0x1C, 0, 24
#define SX2_REG_RATR_CNT_TYPE           0x28, 24, 8
#define SX2_REG_RATR_CNT_INDEX          0x28, 0, 24
#define SX2_RATR_OP_READ                0
#define SX2_RATR_OP_WRITE               1
#define SX2_RATR_OP_READ_CLEAR          2
#define SX2_RATR_OP_WRITE_ON_ACTIVITY   3
#define SX2_RATR_TYPE_ETHERNET          0

/* RAUHT - unicast host table: neighbours by {RIF, IP} */
#define SX2_REG_RAUHT_ID                0x8014
#define SX2_REG_RAUHT_LEN               0x74
#define SX2_REG_RAUHT_TYPE              0x00, 24, 2
#define SX2_REG_RAUHT_OP                0x00, 20, 3
#define SX2_REG_RAUHT_A                 0x00, 16, 1
#define SX2_REG_RAUHT_RIF               0x00, 0, 16
#define SX2_REG_RAUHT_DIP6              0x10    /* 16 bytes */
#define SX2_REG_RAUHT_DIP4              0x1C, 0, 32
#define SX2_REG_RAUHT_TRAP_ACTION       0x60, 28, 4
#define SX2_REG_RAUHT_TRAP_ID           0x60, 0, 9
#define SX2_REG_RAUHT_CNT_TYPE          0x68, 24, 8
#define SX2_REG_RAUHT_CNT_INDEX         0x68, 0, 24
#define SX2_REG_RAUHT_MAC               0x6E    /* 6 bytes */
#define SX2_RAUHT_OP_ADD                0
#define SX2_RAUHT_OP_UPDATE             1
#define SX2_RAUHT_OP_CLEAR_ACTIVITY     2
#define SX2_RAUHT_OP_DELETE             3
#define SX2_RAUHT_OP_DELETE_ALL         4

/* RAUHTD - dump of the host table's active entries */
#define SX2_REG_RAUHTD_ID               0x8018
#define SX2_REG_RAUHTD_LEN              0x420
#define SX2_REG_RAUHTD_FILTER_FIELDS    0x00, 0, 8
#define SX2_REG_RAUHTD_OP               0x04, 24, 2
#define SX2_REG_RAUHTD_NUM_REC          0x04, 0, 8
#define SX2_REG_RAUHTD_ENTRY_A          0x08, 16, 1
#define SX2_REG_RAUHTD_TYPE             0x08, 0, 4
#define SX2_REG_RAUHTD_ENTRY_RIF        0x0C, 0, 16
#define SX2_RAUHTD_FILTER_A             (1u << 0)
#define SX2_RAUHTD_FILTER_RIF           (1u << 3)
#define SX2_RAUHTD_OP_DUMP              0
#define SX2_RAUHTD_OP_DUMP_AND_CLEAR    1
#define SX2_RAUHTD_REC_OFF              0x20
#define SX2_RAUHTD_REC_LEN              0x20
#define SX2_RAUHTD_REC_MAX              32
#define SX2_RAUHTD_IPV4_PER_REC         4
#define SX2_RAUHTD_IPV4_ENT_LEN         0x08
/* In a record, at its start: */
#define SX2_RAUHTD_REC_NUM_ENTRIES      0x00, 28, 2     /* IPv4: count - 1 */
#define SX2_RAUHTD_REC_TYPE             0x00, 24, 2
/* In an entry (IPv4: 8 bytes, 4 a record; IPv6: the whole record): */
#define SX2_RAUHTD_ENT_A                0x00, 16, 1
#define SX2_RAUHTD_ENT_RIF              0x00, 0, 16
#define SX2_RAUHTD_IPV4_ENT_DIP         0x04, 0, 32
#define SX2_RAUHTD_IPV6_ENT_DIP         0x10    /* 16 bytes */

#endif /* HW_NET_SWITCHX2_HW_H */
