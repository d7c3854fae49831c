#!/usr/bin/env bash
# Gateway hop vs direct: one module answering 1 KiB, wrk with 64 connections, measured side by
# side in one run (alternating rounds), on loopback only.
#   perf/bench/gateway-hop.sh [DURATION=10s] [ROUNDS=3] [CONNECTIONS=64]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
dur="${1:-10s}"; rounds="${2:-3}"; conns="${3:-64}"
mport=9201; gport=9131
need_jars
logs="$(mktemp -d)"
start_bg "$logs/module.log" java -jar "$root/perf/target/perf-fat.jar" fixed-module --port $mport --size 1024
start_bg "$logs/gateway.log" java -jar "$root/okapi-core/target/okapi-core-fat.jar" dev --port $gport
wait_http "http://127.0.0.1:$mport/"; wait_http "http://127.0.0.1:$gport/_/version"
g="http://127.0.0.1:$gport"
curl -sf -o /dev/null -X POST "$g/_/proxy/tenants" -d '{"id":"bench"}'
curl -sf -o /dev/null -X POST "$g/_/proxy/modules" -d '{"id":"mod-fixed-1.0.0","provides":[{"id":"fixed","version":"1.0","handlers":[{"methods":["GET"],"pathPattern":"/fixed"}]}]}'
curl -sf -o /dev/null -X POST "$g/_/discovery/modules" -d "{\"srvcId\":\"mod-fixed-1.0.0\",\"url\":\"http://127.0.0.1:$mport\"}"
curl -sf -o /dev/null -X POST "$g/_/proxy/tenants/bench/modules" -d '{"id":"mod-fixed-1.0.0"}'
direct="http://127.0.0.1:$mport/fixed"; via="$g/fixed"
wrk_run warm "$direct" "$conns" 3s >/dev/null; wrk_run warm "$via" "$conns" 3s "X-Okapi-Tenant: bench" >/dev/null

echo "| round | direct req/s | gateway req/s | ratio | direct p50/p99 ms | gateway p50/p99 ms | errors |"
echo "|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
  read -r drps dp50 dp99 derr < <(wrk_run direct "$direct" "$conns" "$dur")
  read -r grps gp50 gp99 gerr < <(wrk_run gateway "$via" "$conns" "$dur" "X-Okapi-Tenant: bench")
  ratio=$(awk -v a="$grps" -v b="$drps" 'BEGIN { printf "%.2f", a/b }')
  echo "| $r | $drps | $grps | $ratio | $dp50 / $dp99 | $gp50 / $gp99 | $((derr + gerr)) |"
done
