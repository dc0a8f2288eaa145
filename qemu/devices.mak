# QEMU device set for the harness (--with-devices-x86_64): the pc machine,
# what the guest needs to boot and report, and the switches under test.
CONFIG_I440FX=y
CONFIG_ISA_DEBUG=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_NET=y
CONFIG_ROCKER=y
CONFIG_SWITCHX2=y
