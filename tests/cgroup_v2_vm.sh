#!/usr/bin/env bash
# The players' cgroups on cgroup v2, which this project's machines do not have (their controllers
# are v1 hierarchies): the shares tests run in a virtual machine that boots Debian's own kernel
# with only the unified hierarchy, as root and then as a user in a cgroup delegated to it the
# way systemd delegates one (its directory and its cgroup.procs, cgroup.subtree_control and
# cgroup.threads given to the user, and the trusted.delegate attribute set).
#
# The machine is qemu under software emulation (nested KVM does not boot here), with this
# machine's file system as its root, read-only over 9p: the same build, bots and interpreters.
# Its init is a busybox initramfs made here from the installed kernel's modules.
#
#   tests/cgroup_v2_vm.sh BUILD_DIR SOURCE_DIR [CATCH_FILTER]
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
filter=${3:-[shares]}

kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z $kernel ]] || ! command -v qemu-system-x86_64 >/dev/null || [[ ! -x /bin/busybox ]]; then
    echo "cgroup v2 test: needs Debian's linux-image-amd64, qemu-system-x86 and busybox-static" \
        "(scripts/setup installs them)" >&2
    exit 1
fi
version=${kernel#/boot/vmlinuz-}
modules=/lib/modules/$version/kernel

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
initramfs=$work/initramfs
mkdir -p "$initramfs"/{bin,lib/modules,proc,sys,dev,newroot}
cp /bin/busybox "$initramfs/bin/"
# 9p over virtio, and what it needs; a kernel that has one built in has no module for it.
wanted=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache
        9pnet 9pnet_virtio 9p)
for module in "${wanted[@]}"; do
    file=$(find "$modules" -name "$module.ko*" | head -n 1)
    case $file in
        "") ;;
        *.xz) xz -dc "$file" >"$initramfs/lib/modules/$module.ko" ;;
        *.zst) zstd -qdc "$file" >"$initramfs/lib/modules/$module.ko" ;;
        *) cp "$file" "$initramfs/lib/modules/$module.ko" ;;
    esac
done
cat >"$initramfs/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for module in ${wanted[*]}; do
    [ -f /lib/modules/\$module.ko ] && insmod /lib/modules/\$module.ko
done
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000 root /newroot; then
    echo "guest: cannot mount the host's file system"
    echo o >/proc/sysrq-trigger
fi
mount --move /dev /newroot/dev
umount /proc /sys
exec switch_root /newroot /bin/sh "$source/tests/support/cgroup_v2_guest.sh" "$build" '$filter'
EOF
chmod +x "$initramfs/init"
(cd "$initramfs" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initramfs.gz"

# The guest prints its verdict on the serial console: "guest: root: passed" and "guest: user:
# passed" (or failed, after the tests' own output).
timeout 1500 qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -m 3072 -nographic -no-reboot \
    -kernel "$kernel" -initrd "$work/initramfs.gz" \
    -append "console=ttyS0 quiet panic=-1" \
    -virtfs local,path=/,mount_tag=root,security_model=passthrough,readonly=on,multidevs=remap \
    </dev/null | tee "$work/console" | grep -v '^\[ *[0-9.]*\] ' || true
grep -q "^guest: root: passed" "$work/console" && grep -q "^guest: user: passed" "$work/console"
