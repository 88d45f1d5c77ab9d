#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds vlalab's local cloud image: Debian bookworm from debootstrap,
# with the packages listed in images/cloud/packages, packed as a qcow2
# (one ext4 file system, no partition table, label vlalab-root) and
# configured for cloud-init's NoCloud data source. No kernel: hostctl
# boots it with its own kernel by direct boot.
#
#   images/cloud/build.sh CACHE
#
# CACHE is vlalab's cache folder. The image goes to
# CACHE/images/cloud-KEY/disk.qcow2, KEY being the SHA-256 of the package
# list and of this script; an image already there is reused. The last
# line printed is the image's path. The Debian mirror is the one this
# machine's apt uses for bookworm's main component (apt-cache policy),
# never a name written here.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'images/cloud: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }

[ $# -eq 1 ] || die "usage: build.sh CACHE"
cache=$1
command -v sha256sum >/dev/null || die "'sha256sum' is not installed"

mapfile -t pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$here/packages")
[ ${#pkgs[@]} -gt 0 ] || die "$here/packages: no packages"
key=$(cat "$here/packages" "$here/build.sh" | sha256sum | cut -c1-64)
dir=$cache/images/cloud-$key
if [ -s "$dir/disk.qcow2" ]; then
	say "cached: $dir"
	printf '%s\n' "$dir/disk.qcow2"
	exit 0
fi
# Finding the image needs neither root nor the build's tools (a user's
# PATH may have no /usr/sbin); building it needs both.
[ "$(id -u)" -eq 0 ] || die "debootstrap needs root"
for t in debootstrap mkfs.ext4 qemu-img apt-cache; do
	command -v "$t" >/dev/null || die "'$t' is not installed (./bootstrap installs it)"
done

# The first bookworm/main source apt knows, as "URI suite/component".
mirror=$(apt-cache policy | awk '$3 == "bookworm/main" && $2 ~ /^(https?|file):/ { print $2; exit }')
[ -n "$mirror" ] || die "apt has no source for bookworm/main (run apt-get update?)"

mkdir -p "$cache/images"
work=$(mktemp -d "$cache/images/.cloud-$key.XXXXXX")
root=$work/root
# debootstrap mounts /proc (and, in a container, binds /dev) in the root
# and unmounts it when it ends, unless a process the packages' scripts
# started still holds it: once here, under load, the removal then failed
# on /proc's files after a good build. Unmount whatever is left, and
# never let the removal cross into a mount (a bound /dev is the host's).
cleanup() {
	local m
	for m in dev/pts dev proc sys; do
		if mountpoint -q "$root/$m" 2>/dev/null; then
			umount -l "$root/$m" || say "warning: cannot unmount $root/$m"
		fi
	done
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT

say "debootstrap bookworm from $mirror: ${pkgs[*]}"
include=$(IFS=,; printf '%s' "${pkgs[*]}")
if ! debootstrap --variant=minbase --include="$include" bookworm "$root" "$mirror" \
	>"$work/debootstrap.log" 2>&1; then
	log=$cache/images/cloud-$key.failed.log
	cat "$work/debootstrap.log" "$root/debootstrap/debootstrap.log" >"$log" 2>/dev/null || true
	die "debootstrap failed; its log: $log"
fi

# The root is the whole of /dev/vda; the modules disk is mounted by the
# unit hostctl's user-data writes.
printf '/dev/vda / ext4 defaults 0 1\n' >"$root/etc/fstab"
printf 'vlalab\n' >"$root/etc/hostname"
# cloud-init: NoCloud only (the seed disk made by cloud-localds), no
# network to configure or wait for (the VM has no NIC: hostctl/domain.c),
# no search through other clouds' metadata services.
cat >"$root/etc/cloud/cloud.cfg.d/90-vlalab.cfg" <<'CFG'
datasource_list: [NoCloud, None]
network: {config: disabled}
CFG
# e2scrub_reap.service (e2fsprogs) runs at every boot, the first one
# included: 48 s of the guest's one vCPU under TCG, beside cloud-init's
# stages, for LVM snapshots this image never has (docs/performance.md).
ln -s /dev/null "$root/etc/systemd/system/e2scrub_reap.service"
# No apt at boot or later: apt's daily timers would try a network the
# guest does not have (and the image is rebuilt, never upgraded in place).
ln -s /dev/null "$root/etc/systemd/system/apt-daily.timer"
ln -s /dev/null "$root/etc/systemd/system/apt-daily-upgrade.timer"
# No password anywhere: root is reached only over SSH with the client key.
chroot "$root" passwd -l root >/dev/null
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*

# Size: what the tree holds, plus a third and 256 MiB for the guest's own
# writes (the overlay grows; this is the file system's size).
used_kib=$(du -sk "$root" | cut -f1)
size_mib=$(( used_kib * 4 / 3 / 1024 + 256 ))
# Its messages on stderr: the last line on stdout is the image's path.
mkfs.ext4 -q -L vlalab-root -d "$root" "$work/disk.raw" "${size_mib}M" >&2 ||
	die "mkfs.ext4 -d failed"
qemu-img convert -q -c -O qcow2 "$work/disk.raw" "$work/disk.qcow2"
printf '%s\n' "${pkgs[@]}" >"$work/packages"
mkdir -p "$dir"
mv "$work/packages" "$dir/packages"
mv "$work/disk.qcow2" "$dir/disk.qcow2.tmp"
mv "$dir/disk.qcow2.tmp" "$dir/disk.qcow2"
say "built: $dir ($size_mib MiB file system)"
printf '%s\n' "$dir/disk.qcow2"
