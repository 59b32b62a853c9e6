#!/bin/sh
# Installs the Probebook agent on this Linux host as a hardened systemd service, or removes it.
#   curl -fsSL https://probebook.example.com/agent/install.sh | sudo sh -s -- --token TOKEN [--allow DIR,...]
#   curl -fsSL https://probebook.example.com/agent/install.sh | sudo sh -s -- --upgrade
#   curl -fsSL https://probebook.example.com/agent/install.sh | sudo sh -s -- --uninstall
# The server fills in its own URL below when it hands this script out (GET /agent/install.sh);
# --server overrides it. What it installs and how to relax the unit: probes/agent/deploy/README.md.
set -eu

SERVER='@@PROBEBOOK_SERVER_URL@@'
BIN=/usr/local/bin/probebook-agent
UNIT=/etc/systemd/system/probebook-agent.service
CONF_DIR=/etc/probebook-agent
TOKEN_FILE=$CONF_DIR/token
MADE_DIRS=$CONF_DIR/made-dirs
STATE_DIR=/var/lib/probebook-agent
SERVICE_USER=probebook-agent
ALLOW=/srv/probebook,/dev/shm

say() { printf 'probebook-agent install: %s\n' "$*"; }
die() {
  printf 'probebook-agent install: %s\n' "$*" >&2
  exit 1
}
usage() {
  cat <<'EOF'
Usage: install.sh --token TOKEN [--allow DIR[,DIR...]] [--server URL]
       install.sh --upgrade [--server URL]
       install.sh --uninstall
  --token TOKEN   the host's one-time registration token (Hosts -> Add host)
  --allow DIRS    directories probes may write in (default /srv/probebook,/dev/shm);
                  missing ones are made, owned by the probebook-agent user
  --server URL    the dashboard's URL (default: the server this script came from)
  --upgrade       replace the installed agent with the server's and restart it (after
                  its running probe finished); its registration and unit are kept
  --uninstall     stop the agent and remove its binary, unit, token, state dir and user
EOF
}

TOKEN=''
UNINSTALL=no
UPGRADE=no
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --token=* | --allow=* | --server=*)
      val=${opt#*=}
      opt=${opt%%=*}
      ;;
    --token | --allow | --server)
      [ $# -ge 2 ] || die "$opt needs a value"
      val=$2
      shift
      ;;
    --uninstall) UNINSTALL=yes ;;
    --upgrade) UPGRADE=yes ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die "unknown option $opt (try --help)" ;;
  esac
  case $opt in
    --token) TOKEN=$val ;;
    --allow) ALLOW=$val ;;
    --server) SERVER=$val ;;
  esac
  shift
done

need_root() { [ "$(id -u)" = 0 ] || die "run as root: curl -fsSL .../agent/install.sh | sudo sh -s -- ..."; }

uninstall() {
  if [ -f "$UNIT" ] && command -v systemctl >/dev/null 2>&1; then
    systemctl disable --now probebook-agent.service || say "systemctl could not stop the service; removing its files anyway"
  fi
  rm -f "$UNIT" "$BIN"
  if command -v systemctl >/dev/null 2>&1; then systemctl daemon-reload || true; fi
  # Directories this script made for --allow go only if empty: they may hold someone's files.
  if [ -f "$MADE_DIRS" ]; then
    while IFS= read -r dir; do
      if [ -n "$dir" ]; then rmdir "$dir" 2>/dev/null || true; fi
    done <"$MADE_DIRS"
  fi
  rm -rf "$CONF_DIR" "$STATE_DIR"
  if getent passwd "$SERVICE_USER" >/dev/null 2>&1; then userdel "$SERVICE_USER"; fi
  if getent group "$SERVICE_USER" >/dev/null 2>&1; then groupdel "$SERVICE_USER"; fi
  say "removed $BIN, $UNIT, $CONF_DIR, $STATE_DIR and the user $SERVICE_USER"
}

if [ "$UNINSTALL" = yes ]; then
  need_root
  uninstall
  exit 0
fi

# --- checks: each names the option to change -------------------------------------------------
if [ "$UPGRADE" = yes ]; then
  [ -z "$TOKEN" ] || die "--upgrade keeps the agent's registration: leave out --token"
  { [ -f "$BIN" ] && [ -f "$UNIT" ]; } || die "--upgrade: no agent is installed here ($BIN, $UNIT); install it with --token first"
else
  [ -n "$TOKEN" ] || die "--token is required: the registration token shown on the dashboard's Add host page"
  case $TOKEN in *[!A-Za-z0-9_-]*) die "--token must be the token as shown (letters, digits, _ and -)" ;; esac
  if [ ${#TOKEN} -lt 10 ] || [ ${#TOKEN} -gt 200 ]; then die "--token does not look like a registration token (10 to 200 characters)"; fi
fi

case $SERVER in
  @@*) die "--server is required: the dashboard's URL, e.g. https://probebook.example.com" ;;
  http://?* | https://?*) ;;
  *) die "--server must be an http:// or https:// URL, not '$SERVER'" ;;
esac
# Only characters that need no quoting in the unit's ExecStart= (no spaces, quotes, % or $).
case $SERVER in *[!]A-Za-z0-9.:/_~[-]*) die "--server must be a plain URL (letters, digits and . : / _ ~ - [ ]), not '$SERVER'" ;; esac
SERVER=${SERVER%/}

# Checked whole before it is split: a space would otherwise make two directories of one.
case $ALLOW in *[!A-Za-z0-9._/,-]*) die "--allow $ALLOW: only letters, digits and . _ / - are accepted, commas between directories" ;; esac
DIRS=$(printf '%s' "$ALLOW" | tr ',' ' ')
[ -n "$DIRS" ] || die "--allow needs at least one directory"
for dir in $DIRS; do
  case $dir in
    /*) ;;
    *) die "--allow $dir: give an absolute path" ;;
  esac
  case /$dir/ in */../* | */./*) die "--allow $dir: no . or .. components" ;; esac
  [ "$dir" != / ] || die "--allow /: choose a directory, not the root"
  case $dir in "$STATE_DIR" | "$STATE_DIR"/* | "$CONF_DIR" | "$CONF_DIR"/*) die "--allow $dir: not inside the agent's own $STATE_DIR or $CONF_DIR" ;; esac
  if [ -e "$dir" ] && [ ! -d "$dir" ]; then die "--allow $dir: exists and is not a directory"; fi
done

need_root
case $(uname -m) in
  x86_64 | amd64) ARCH=linux-x64 ;;
  aarch64 | arm64) ARCH=linux-arm64 ;;
  *) die "no agent build for $(uname -m): the agent is built for x86_64 and aarch64" ;;
esac
for cmd in curl sha256sum systemctl useradd getent install; do
  command -v "$cmd" >/dev/null 2>&1 || die "$cmd is missing on this host (the installer needs curl, sha256sum, systemctl, useradd, getent, install)"
done

# --- download and verify ---------------------------------------------------------------------
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fetch() { # URL FILE: fails with the server's own message (a JSON error) when the answer is not 200
  code=$(curl -sSL -o "$2" -w '%{http_code}' "$1") || die "cannot reach $1 (is --server right?)"
  [ "$code" = 200 ] || die "$1 answered $code: $(head -c 400 "$2")"
}
say "downloading $SERVER/agent/download/$ARCH"
fetch "$SERVER/agent/download/$ARCH.sha256" "$TMP/agent.sha256"
fetch "$SERVER/agent/download/$ARCH" "$TMP/agent"
EXPECTED=$(cut -d ' ' -f 1 "$TMP/agent.sha256")
case $EXPECTED in *[!0-9a-f]* | '') die "$SERVER/agent/download/$ARCH.sha256 is not a SHA-256" ;; esac
[ ${#EXPECTED} -eq 64 ] || die "$SERVER/agent/download/$ARCH.sha256 is not a SHA-256"
ACTUAL=$(sha256sum "$TMP/agent" | cut -d ' ' -f 1)
[ "$ACTUAL" = "$EXPECTED" ] || die "the download's SHA-256 $ACTUAL is not the server's $EXPECTED: not installed"

# --- upgrade: the binary only; the credential in the state dir, the token and the unit stay ------
if [ "$UPGRADE" = yes ]; then
  install -m 0755 -o root -g root "$TMP/agent" "$BIN.new"
  mv -f "$BIN.new" "$BIN"
  # Units written for agents before 0.2.0 stop them sooner than their stop grace (60 s) and the
  # delivery after it allow, and restart them after a refused version (exit 4).
  sed -i -e 's/^TimeoutStopSec=20$/TimeoutStopSec=80/' -e 's/^RestartPreventExitStatus=2 3$/RestartPreventExitStatus=2 3 4/' "$UNIT"
  systemctl daemon-reload
  # The stop lets the running probe finish (up to the agent's --stop-grace) and delivers it.
  systemctl restart probebook-agent.service
  say "upgraded $BIN ($ARCH, sha256 $ACTUAL) and restarted probebook-agent.service"
  exit 0
fi

# --- install ---------------------------------------------------------------------------------
getent passwd "$SERVICE_USER" >/dev/null 2>&1 ||
  useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
# Renamed into place: a running agent keeps its old file until the restart below.
install -m 0755 -o root -g root "$TMP/agent" "$BIN.new"
mv -f "$BIN.new" "$BIN"
install -d -m 0700 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
install -d -m 0700 -o root -g root "$CONF_DIR"
(
  umask 077
  printf '%s\n' "$TOKEN" >"$TOKEN_FILE.new"
)
chown root:root "$TOKEN_FILE.new"
chmod 0600 "$TOKEN_FILE.new"
mv -f "$TOKEN_FILE.new" "$TOKEN_FILE"
for dir in $DIRS; do
  if [ ! -e "$dir" ]; then
    install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$dir"
    printf '%s\n' "$dir" >>"$MADE_DIRS"
  fi
done
chmod 0600 "$MADE_DIRS" 2>/dev/null || true

ALLOW_ARG=$(printf '%s' "$DIRS" | tr ' ' ',')
cat >"$UNIT.new" <<EOF
# Written by $SERVER/agent/install.sh; \`install.sh --uninstall\` removes it.
# Hardened for probes in the --allow directories; for --lab or --allow-tunable see
# probes/agent/deploy/README.md ("Relaxing the unit").
[Unit]
Description=Probebook agent (runs storage probes for the Probebook dashboard)
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
# The token, root's 0600 file, reaches the agent as a credential only it can read (%d).
LoadCredential=token:$TOKEN_FILE
ExecStart=$BIN --server $SERVER --allow $ALLOW_ARG --state-dir $STATE_DIR --token-file %d/token
StateDirectory=probebook-agent
StateDirectoryMode=0700
Restart=always
RestartSec=5
# 2 (bad arguments), 3 (credential refused or revoked) and 4 (version refused by the server)
# need a person: do not loop.
RestartPreventExitStatus=2 3 4
# SIGTERM to the agent alone: it claims nothing more, lets the running probe finish within its
# --stop-grace (60 s), then cancels it, and delivers the output itself; hence 80 s.
KillMode=mixed
TimeoutStopSec=80
UMask=0077

# Read-only system; writable: the --allow directories and the state dir.
ProtectSystem=strict
ReadWritePaths=$DIRS
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
DevicePolicy=closed
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RemoveIPC=yes
KeyringMode=private
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged
SystemCallErrorNumber=EPERM

[Install]
WantedBy=multi-user.target
EOF
chmod 0644 "$UNIT.new"
mv -f "$UNIT.new" "$UNIT"

systemctl daemon-reload
# A reinstall replaces a running agent with the new binary and unit.
if systemctl is-active --quiet probebook-agent.service; then systemctl restart probebook-agent.service; fi
systemctl enable --now probebook-agent.service
say "installed $BIN ($ARCH, sha256 $ACTUAL) and started probebook-agent.service"
say "watch it with: journalctl -u probebook-agent -f"
