#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Probebook's tests and probes need: a browser for the e2e
# suite, the probe tools (sysstat, fio, iozone3 from non-free/multiverse) and the file-system
# tools for loop mounts. Idempotent: installed packages are skipped. The same package names are
# in probes/profile/install-commands.ts (a test keeps the two in step).
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
  echo "install-system-deps: run as root (apt-get)" >&2
  exit 1
fi
# shellcheck disable=SC1091
. /etc/os-release
chromium=chromium
if [ "${ID:-}" = ubuntu ] || [[ " ${ID_LIKE:-} " == *" ubuntu "* ]]; then
  # Ubuntu calls the package chromium-browser and keeps iozone3 in multiverse.
  chromium=chromium-browser
  if ! grep -rqsE '^(Components:|deb ).*multiverse' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    if command -v add-apt-repository >/dev/null; then
      add-apt-repository -y multiverse
    else
      sed -i -E '/^Components:/{/ multiverse( |$)/!s/$/ multiverse/}' /etc/apt/sources.list.d/ubuntu.sources
    fi
  fi
else
  # iozone3 is only in the non-free component (" non-free" as a word: not non-free-firmware).
  src=/etc/apt/sources.list.d/debian.sources
  if [ -f "$src" ]; then
    sed -i -E '/^Components:/{/ non-free( |$)/!s/$/ non-free/}' "$src"
  elif [ -f /etc/apt/sources.list ]; then
    sed -i -E '/^deb .* main( |$)/{/ non-free( |$)/!s/ main( |$)/ main non-free\1/}' /etc/apt/sources.list
  fi
fi
# docker-compose, nginx-light and caddy only validate the deployment files (deploy/deploy-files.test.ts):
# no daemon is started by them here. locales-all holds every glibc locale, compiled: the parsers'
# tests run dd and sar in each language those tools ship a catalog for (probes/*/locales.test.ts).
need=()
for pkg in "$chromium" sysstat fio iozone3 e2fsprogs xfsprogs btrfs-progs util-linux procps numactl locales locales-all busybox debootstrap shellcheck docker-compose nginx-light caddy; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "install-system-deps: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}" fonts-dejavu-core
else
  echo "install-system-deps: all packages are installed"
fi
# sar prints its times and labels in the user's locale; these regenerate the sysstat fixtures
# (probes/sar/fixtures/sysstat/INDEX.txt). Without locales-all (a system where it was
# removed) these few are compiled; the locale tests then skip the languages left out, by name.
if command -v localedef >/dev/null 2>&1; then
  for loc in ja_JP zh_CN ko_KR en_US de_DE fr_FR; do
    locale -a 2>/dev/null | grep -qi "^${loc}\.utf-\?8$" || localedef -i "$loc" -f UTF-8 "$loc.UTF-8" || true
  done
fi
