#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Makes the NoCloud seed disk that configures a cloud image for vlalab at
# its first boot, with cloud-localds (cloud-image-utils):
#
#   images/cloud/seed.sh OUT.img GUESTD CLIENT_KEY.pub HOST_KEY
#
# Its user-data installs GUESTD as /usr/local/sbin/guestd with a systemd
# service (it finds its virtio-serial ports by name, as in the initramfs),
# mounts the modules disk (label vlalab-mods, the tree of
# /lib/modules/<release>) read-only on /lib/modules, puts the dropbear
# host key HOST_KEY (made when the image is built, its public part pinned
# by hostctl) in place, and authorises CLIENT_KEY.pub for root. No
# password is set. The instance id is the SHA-256 of the user-data, so a
# changed guestd or key is a new instance to cloud-init. The same inputs
# give the same user-data; genisoimage stamps the image with the time,
# which hostctl then settles (cloud_iso_settle(), hostctl/vm/cloud.c), so
# a remote host's pool, named by content, has the seed of an earlier run.
#
# First boot under TCG is cloud-init's four Python stages, so the seed
# keeps them short (docs/performance.md, "The local cloud image"):
# guestd goes without its debug information (user-data is YAML, parsed
# in pure Python by each stage: 480 KB of it took 5 s a parse); each
# stage runs only the modules vlalab needs (write-files and mounts, then
# bootcmd, which starts guestd without waiting for cloud-init's two
# later stages); no SSH host keys, locale, apt or default user.
set -euo pipefail

say() { printf 'images/cloud: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }

[ $# -eq 4 ] || die "usage: seed.sh OUT.img GUESTD CLIENT_KEY.pub HOST_KEY"
out=$1 guestd=$2 client=$3 hostkey=$4
command -v cloud-localds >/dev/null || die "'cloud-localds' is not installed (cloud-image-utils)"
command -v strip >/dev/null || die "'strip' is not installed (binutils)"
for f in "$guestd" "$client" "$hostkey"; do
	[ -r "$f" ] || die "'$f': cannot read it"
done
key=$(head -n 1 "$client")
case $key in
ssh-ed25519\ * | ssh-rsa\ * | ecdsa-sha2-*) ;;
*) die "'$client': not an OpenSSH public key" ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/guestd" "$guestd" || die "'$guestd': strip failed"
{
	printf '#cloud-config\n'
	printf 'disable_root: false\n'
	printf 'ssh_pwauth: false\n'
	# The stages' modules, in order; these lists replace the image's.
	# bootcmd runs after write-files here, so the unit is there to start.
	printf 'cloud_init_modules: [write-files, mounts, bootcmd]\n'
	printf 'cloud_config_modules: []\n'
	printf 'cloud_final_modules: [final-message]\n'
	printf 'mounts:\n'
	printf '  - [LABEL=vlalab-mods, /lib/modules, ext4, "ro,nofail", "0", "0"]\n'
	printf 'write_files:\n'
	printf '  - path: /root/.ssh/authorized_keys\n'
	printf '    permissions: "0600"\n'
	printf '    content: %s\n' "$key"
	printf '  - path: /etc/dropbear/dropbear_ed25519_host_key\n'
	printf '    permissions: "0600"\n'
	printf '    encoding: b64\n'
	printf '    content: %s\n' "$(base64 -w0 "$hostkey")"
	printf '  - path: /usr/local/sbin/guestd\n'
	printf '    permissions: "0755"\n'
	printf '    encoding: gz+b64\n'
	# -n: no name or time in gzip's header, so that the same guestd
	# gives the same seed (hostctl settles the ISO's own clocks).
	printf '    content: %s\n' "$(gzip -9nc "$work/guestd" | base64 -w0)"
	printf '  - path: /etc/systemd/system/vlalab-guestd.service\n'
	printf '    content: |\n'
	printf '      [Unit]\n'
	printf '      Description=vlalab guest agent (docs/guestd.md)\n'
	printf '      After=local-fs.target\n'
	printf '      [Service]\n'
	printf '      ExecStartPre=/bin/mkdir -p /run/vlalab /etc/vlalab\n'
	printf '      ExecStart=/usr/local/sbin/guestd\n'
	printf '      [Install]\n'
	printf '      WantedBy=multi-user.target\n'
	# In cloud-init.service, which basic.target waits for: start without
	# waiting (--no-block), or the job waits for its own caller. enable
	# reloads systemd's units itself.
	printf 'bootcmd:\n'
	printf '  - [systemctl, enable, --now, --no-block, vlalab-guestd.service]\n'
} >"$work/user-data"
id=$(sha256sum "$work/user-data" | cut -c1-16)
printf 'instance-id: vlalab-%s\nlocal-hostname: vlalab\n' "$id" >"$work/meta-data"
cloud-localds "$work/seed.img" "$work/user-data" "$work/meta-data" ||
	die "cloud-localds failed"
mv "$work/seed.img" "$out"
