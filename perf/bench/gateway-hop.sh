#!/usr/bin/env bash
# The gateway hop, measured side by side in one run (alternating rounds), loopback only:
#   direct          wrk -> module
#   gateway         wrk -> gateway -> module                      (tenant without auth filter)
#   gateway+auth    wrk -> gateway (auth, cache hit) -> module    (tenant with the authtoken filter)
# One module answering 1 KiB, wrk with CONNECTIONS connections.
#   perf/bench/gateway-hop.sh [DURATION=10s] [ROUNDS=3] [CONNECTIONS=64]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
dur="${1:-10s}"; rounds="${2:-3}"; conns="${3:-64}"
mport=9201; gport=9131; aport=9202
need_jars; need_wrk
logs="$(mktemp -d)"
start_bg "$logs/module.log" java -jar "$root/perf/target/perf-fat.jar" fixed-module --port $mport --size 1024
start_bg "$logs/gateway.log" java -jar "$root/okapi-core/target/okapi-core-fat.jar" dev --port $gport ${GATEWAY_ARGS:-}
start_bg "$logs/authtoken.log" java -jar "$root/authtoken-module/target/authtoken-module-fat.jar" \
  --port $aport --host 127.0.0.1 --store "json:$logs/authtoken" --signing-key-file "$logs/signing.key" \
  --password-hash-iterations 1000 --bootstrap "auth:bench:bench:fixed.get"
wait_http "http://127.0.0.1:$mport/"; wait_http "http://127.0.0.1:$gport/_/version"
wait_http "http://127.0.0.1:$aport/admin/health"
g="http://127.0.0.1:$gport"
register_fixed "$g" "$mport" "$aport"
token=$(login_bench "$g")
direct="http://127.0.0.1:$mport/fixed"; via="$g/fixed"
run_direct() { wrk_run direct "$direct" "$conns" "$1"; }
run_gateway() { wrk_run gateway "$via" "$conns" "$1" "X-Okapi-Tenant: noauth"; }
run_auth() { wrk_run auth "$via" "$conns" "$1" "X-Okapi-Tenant: auth" "X-Okapi-Token: $token"; }
calls() { curl -s "$g/_/proxy/auth-cache" | sed -n 's/.*"authCalls" : \([0-9]*\).*/\1/p'; }
# warm-up: long enough for the JIT to compile the hot paths of all three processes
run_direct 10s >/dev/null; run_gateway 10s >/dev/null; run_auth 10s >/dev/null
calls_before=$(calls)

echo "| round | direct req/s | gateway req/s | gateway+auth (cache hit) req/s | gateway / direct | auth / gateway | p50/p99 ms direct | p50/p99 ms gateway | p50/p99 ms gateway+auth | errors |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
  read -r drps dp50 dp99 derr < <(run_direct "$dur")
  read -r grps gp50 gp99 gerr < <(run_gateway "$dur")
  read -r arps ap50 ap99 aerr < <(run_auth "$dur")
  hop=$(awk -v a="$grps" -v b="$drps" 'BEGIN { printf "%.2f", a/b }')
  hit=$(awk -v a="$arps" -v b="$grps" 'BEGIN { printf "%.2f", a/b }')
  echo "| $r | $drps | $grps | $arps | $hop | $hit | $dp50 / $dp99 | $gp50 / $gp99 | $ap50 / $ap99 | $((derr + gerr + aerr)) |"
done
echo
echo "auth calls during the measured rounds: $(( $(calls) - calls_before )) (every request after the warm-up was a cache hit)"
