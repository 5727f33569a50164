#!/bin/bash
# lan.sh - a LAN of network namespaces for testing LAN discovery and sync (needs root).
#
#   lan.sh up N       make places-ns1..places-nsN (10.77.0.1..N/24 on eth0) joined by the bridge
#                     places-br0; removes places-nsK for K > N. Idempotent: re-running fixes or
#                     keeps what exists and never kills what runs inside.
#   lan.sh down       kill whatever runs in the lab namespaces, delete them all. Idempotent.
#   lan.sh status     list hosts and addresses
#   lan.sh exec H CMD run CMD in places-nsH (same as: ip netns exec places-nsH CMD)
#
# The root network namespace is never touched: the bridge lives in its own namespace
# (places-sw), so daemons on the host see no new interface. The bridge floods multicast
# (no IGMP snooping), and each host gets `default dev eth0`: Linux picks the interface for
# an INADDR_ANY multicast join or send from the routing table, so without a route a
# namespace has "no route to host" for 239.0.0.0/4.
# A failed `up` tears the lab down again. Env: PLACES_LAN_PREFIX (default places-ns),
# PLACES_LAN_NET (default 10.77.0).
set -Eeuo pipefail

P=${PLACES_LAN_PREFIX:-places-ns}
NET=${PLACES_LAN_NET:-10.77.0}
SW=places-sw          # namespace holding the bridge
BR=places-br0         # the bridge device

die() { echo "lan.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root"
command -v ip >/dev/null || die "needs iproute2 (ip)"

ns_exists() { ip netns list | awk '{print $1}' | grep -qx -- "$1"; }
hosts() { ip netns list | awk '{print $1}' | grep -E "^${P}[0-9]+$" | sort -V || true; }
ensure_ns() { ns_exists "$1" || ip netns add "$1"; ip -n "$1" link set lo up; }

cmd_down() {
  local ns pid spaces
  spaces="$(hosts) $(ns_exists "$SW" && echo "$SW" || true)"
  for ns in $spaces; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  done
  # give daemons a moment to exit cleanly (they remove their sockets), then insist
  for _ in $(seq 20); do
    [ -z "$(for ns in $spaces; do ip netns pids "$ns" 2>/dev/null; done)" ] && break
    sleep 0.1
  done
  for ns in $spaces; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
  echo "lan down"
}

add_host() {
  local i=$1 ns=${P}$1
  ensure_ns "$ns"
  if ! ip -n "$ns" link show eth0 >/dev/null 2>&1; then
    ip -n "$SW" link del "p$i" 2>/dev/null || true     # a stale bridge port from a half-made host
    ip link add "pl-tmp$i" netns "$ns" type veth peer name "p$i" netns "$SW"
    ip -n "$ns" link set "pl-tmp$i" name eth0
  fi
  ip -n "$ns" addr replace "$NET.$i/24" dev eth0
  ip -n "$ns" link set eth0 multicast on up
  ip -n "$ns" route replace default dev eth0
  ip -n "$SW" link set "p$i" master "$BR"
  ip -n "$SW" link set "p$i" up
}

cmd_up() {
  local n=${1:-} i ns
  [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 250 ] || die "usage: lan.sh up N (N in 1..250)"
  trap 'echo "lan.sh: up failed at line $LINENO; tearing down" >&2; trap - ERR; cmd_down >&2; exit 1' ERR
  ensure_ns "$SW"
  ip -n "$SW" link show "$BR" >/dev/null 2>&1 || ip -n "$SW" link add "$BR" type bridge
  # a dumb switch: no STP delay, flood all multicast
  ip -n "$SW" link set "$BR" type bridge stp_state 0 mcast_snooping 0
  ip -n "$SW" link set "$BR" up
  for i in $(seq 1 "$n"); do add_host "$i"; done
  for ns in $(hosts); do
    i=${ns#"$P"}
    if [ "$i" -gt "$n" ]; then
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
      ip netns del "$ns"
    fi
  done
  trap - ERR
  echo "lan up: $(hosts | tr '\n' ' ')($NET.0/24, bridge $BR in netns $SW)"
}

cmd_status() {
  local ns
  for ns in $(hosts); do
    printf '%-12s %s\n' "$ns" "$(ip -n "$ns" -br addr show eth0 2>/dev/null | awk '{print $2, $3}')"
  done
}

cmd_exec() {
  local h=${1:?usage: lan.sh exec H CMD...}; shift
  ns_exists "${P}$h" || die "no host ${P}$h"
  exec ip netns exec "${P}$h" "$@"
}

verb=${1:-}; shift || true
case "$verb" in
  up) cmd_up "$@" ;;
  down) cmd_down ;;
  status) cmd_status ;;
  exec) cmd_exec "$@" ;;
  *) sed -n '2,19p' "$0"; exit 2 ;;
esac
