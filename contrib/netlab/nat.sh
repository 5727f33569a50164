#!/bin/bash
# nat.sh - two homes behind NAT and a relay on the internet, made of network namespaces
# (needs root, iproute2 and nftables). Every name starts with a PREFIX of the caller's
# choosing, so labs of concurrent runs never meet (lan.sh's places-ns*/places-sw neither).
#
#   nat.sh up PREFIX          make the lab below; a failed `up` tears it down again
#   nat.sh forward PREFIX PORT   home 1's router forwards WAN tcp PORT to 192.168.1.2:PORT
#   nat.sh down PREFIX        kill whatever runs in PREFIX-* namespaces, delete them. Idempotent.
#   nat.sh sweep              `down` for labs whose creator is gone: prefixes rn-PID-… whose
#                             PID no longer runs (a test process that crashed mid-test)
#
#   PREFIX-inet   the internet: bridge br0 at 203.0.113.10/24 (the relay runs here)
#   PREFIX-rt1    home 1's router: wan 203.0.113.1/24, lan 192.168.1.1/24, masquerade
#   PREFIX-home1  a host in home 1: eth0 192.168.1.2/24, default via 192.168.1.1
#   PREFIX-rt2    home 2's router: wan 203.0.113.2/24, lan 192.168.2.1/24, masquerade
#   PREFIX-home2  a host in home 2: eth0 192.168.2.2/24, default via 192.168.2.1
#   PREFIX-cafe1, PREFIX-cafe2   two laptops at a café: 10.66.0.1/24 and 10.66.0.2/24 on
#                 one cable, with no way out (where friends meet before going home)
#
# The routers are home routers: outbound connections are masqueraded behind the WAN
# address; inbound ones are dropped unless a port is forwarded. Nothing routes to either
# home's LAN: a host in one home cannot reach the other home's LAN at all. The root
# network namespace is never touched.
set -Eeuo pipefail

die() { echo "nat.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root"
command -v ip >/dev/null || die "needs iproute2 (ip)"

ns_exists() { ip netns list | awk '{print $1}' | grep -qx -- "$1"; }
lab_spaces() { ip netns list | awk '{print $1}' | grep -E "^$1-(inet|rt[12]|home[12]|cafe[12])$" || true; }
check_prefix() { [[ ${1:-} =~ ^[a-z0-9-]{1,24}$ ]] || die "PREFIX must be 1-24 of a-z 0-9 -"; }

cmd_down() {
  local P=$1 ns pid spaces
  spaces=$(lab_spaces "$P")
  for ns in $spaces; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  done
  for _ in $(seq 30); do   # let daemons exit cleanly (they remove their sockets), then insist
    [ -z "$(for ns in $spaces; do ip netns pids "$ns" 2>/dev/null; done)" ] && break
    sleep 0.1
  done
  for ns in $spaces; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
}

cmd_sweep() {
  local ns P pid
  for ns in $(ip netns list | awk '{print $1}' | grep -E '^rn-[0-9]+-[a-z0-9]+-' || true); do
    P=${ns%-*}; pid=${P#rn-}; pid=${pid%%-*}
    [ -d "/proc/$pid" ] || cmd_down "$P"
  done
}

mkns() { ip netns add "$1"; ip -n "$1" link set lo up; }

# router N: WAN on the internet bridge, LAN to its one host
add_home() {
  local P=$1 n=$2
  local rt=$P-rt$n host=$P-home$n
  mkns "$rt"; mkns "$host"
  ip link add wan netns "$rt" type veth peer name "w$n" netns "$P-inet"
  ip -n "$P-inet" link set "w$n" master br0 up
  ip -n "$rt" addr add "203.0.113.$n/24" dev wan
  ip -n "$rt" link set wan up
  ip link add lan netns "$rt" type veth peer name eth0 netns "$host"
  ip -n "$rt" addr add "192.168.$n.1/24" dev lan
  ip -n "$rt" link set lan up
  ip -n "$host" addr add "192.168.$n.2/24" dev eth0
  ip -n "$host" link set eth0 up
  ip -n "$host" route add default via "192.168.$n.1"
  ip netns exec "$rt" sysctl -qw net.ipv4.ip_forward=1
  ip netns exec "$rt" nft -f - <<'EOF'
table ip nat {
  chain prerouting { type nat hook prerouting priority dstnat; policy accept; }
  chain postrouting { type nat hook postrouting priority srcnat; policy accept;
    oifname "wan" masquerade
  }
}
table ip filter {
  chain forward { type filter hook forward priority filter; policy drop;
    ct state established,related accept
    iifname "lan" oifname "wan" accept
    ct status dnat accept
  }
}
EOF
}

cmd_up() {
  local P=$1
  command -v nft >/dev/null || die "needs nftables (nft)"
  [ -z "$(lab_spaces "$P")" ] || die "a lab with prefix $P exists (run: $0 down $P)"
  trap 'echo "nat.sh: up failed at line $LINENO; tearing down" >&2; trap - ERR; cmd_down "$P"; exit 1' ERR
  mkns "$P-inet"
  ip -n "$P-inet" link add br0 type bridge stp_state 0
  ip -n "$P-inet" addr add 203.0.113.10/24 dev br0
  ip -n "$P-inet" link set br0 up
  add_home "$P" 1
  add_home "$P" 2
  mkns "$P-cafe1"; mkns "$P-cafe2"
  ip link add eth0 netns "$P-cafe1" type veth peer name eth0 netns "$P-cafe2"
  ip -n "$P-cafe1" addr add 10.66.0.1/24 dev eth0
  ip -n "$P-cafe2" addr add 10.66.0.2/24 dev eth0
  ip -n "$P-cafe1" link set eth0 up
  ip -n "$P-cafe2" link set eth0 up
  trap - ERR
}

cmd_forward() {
  local P=$1 port=${2:-}
  [[ $port =~ ^[0-9]{1,5}$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || die "PORT must be 1..65535"
  ns_exists "$P-rt1" || die "no lab with prefix $P"
  ip netns exec "$P-rt1" nft add rule ip nat prerouting iifname wan tcp dport "$port" dnat to "192.168.1.2:$port"
}

verb=${1:-}; shift || true
case "$verb" in
  up) check_prefix "${1:-}"; cmd_up "$1" ;;
  forward) check_prefix "${1:-}"; cmd_forward "$1" "${2:-}" ;;
  down) check_prefix "${1:-}"; cmd_down "$1" ;;
  sweep) cmd_sweep ;;
  *) sed -n '2,25p' "$0"; exit 2 ;;
esac
