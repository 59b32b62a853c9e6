#!/usr/bin/env bash
# Installs the Debian packages Probebook's tests and probes need: a browser for the e2e suite,
# the probe tools (sysstat, fio, iozone3 from non-free) and the file-system tools for loop mounts.
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
  echo "install-system-deps: run as root (apt-get)" >&2
  exit 1
fi
src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ] && ! grep -q 'non-free' "$src"; then
  # iozone3 is only in the non-free component.
  sed -i 's/^Components: main$/Components: main non-free/' "$src"
fi
need=()
for pkg in chromium sysstat fio iozone3 e2fsprogs xfsprogs util-linux procps numactl locales busybox; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}" fonts-dejavu-core
fi
# sar prints its times and labels in the user's locale; these regenerate the sysstat fixtures
# (probes/sar/fixtures/sysstat/INDEX.txt). Tests read the committed outputs and need none of them.
if command -v localedef >/dev/null 2>&1; then
  for loc in ja_JP zh_CN ko_KR en_US de_DE fr_FR; do
    locale -a 2>/dev/null | grep -qi "^${loc}\.utf-\?8$" || localedef -i "$loc" -f UTF-8 "$loc.UTF-8" || true
  done
fi
