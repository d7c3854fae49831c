#!/usr/bin/env bash
# The gateway hop and the cache-hit path of this checkout against a baseline commit, measured
# side by side in one run (alternating rounds; both gateways up at once, same module, same
# authtoken module), loopback only:
#   base / this          wrk -> gateway -> module                      (tenant without auth filter)
#   base+auth / this+auth wrk -> gateway (auth, cache hit) -> module    (tenant with the authtoken filter)
#   perf/bench/hop-vs-baseline.sh BASELINE_REV [DURATION=10s] [ROUNDS=3] [CONNECTIONS=64]
# BASELINE_REV is built once in a temporary git worktree (kept in target/baseline-REV).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rev="${1:?usage: hop-vs-baseline.sh BASELINE_REV [DURATION] [ROUNDS] [CONNECTIONS]}"
dur="${2:-10s}"; rounds="${3:-3}"; conns="${4:-64}"
mport=9201; aport=9202; bport=9133; tport=9134
need_jars; need_wrk
sha=$(git -C "$root" rev-parse --short "$rev")
base="$root/target/baseline-$sha"
if [ ! -f "$base/okapi-core/target/okapi-core-fat.jar" ]; then
  echo "building baseline $sha in $base ..." >&2
  rm -rf "$base"; mkdir -p "$root/target"
  git -C "$root" worktree add --detach "$base" "$sha" >&2
  (cd "$base" && mvn -q -B -DskipTests package -pl okapi-core -am >&2)
fi
logs="$(mktemp -d)"
start_bg "$logs/module.log" java -jar "$root/perf/target/perf-fat.jar" fixed-module --port $mport --size 1024
start_bg "$logs/base.log" java -jar "$base/okapi-core/target/okapi-core-fat.jar" dev --port $bport --host 127.0.0.1
start_bg "$logs/this.log" java -jar "$root/okapi-core/target/okapi-core-fat.jar" dev --port $tport --host 127.0.0.1
start_bg "$logs/authtoken.log" java -jar "$root/authtoken-module/target/authtoken-module-fat.jar" \
  --port $aport --host 127.0.0.1 --store "json:$logs/authtoken" --signing-key-file "$logs/signing.key" \
  --password-hash-iterations 1000 --bootstrap "auth:bench:bench:fixed.get"
wait_http "http://127.0.0.1:$mport/"; wait_http "http://127.0.0.1:$aport/admin/health"
for p in $bport $tport; do wait_http "http://127.0.0.1:$p/_/version"; done

# the same registry on both gateways
register_fixed "http://127.0.0.1:$bport" "$mport" "$aport"
register_fixed "http://127.0.0.1:$tport" "$mport" "$aport"
token=$(login_bench "http://127.0.0.1:$tport")
plain() { wrk_run plain "http://127.0.0.1:$1/fixed" "$conns" "$2" "X-Okapi-Tenant: noauth"; }
auth() { wrk_run auth "http://127.0.0.1:$1/fixed" "$conns" "$2" "X-Okapi-Tenant: auth" "X-Okapi-Token: $token"; }
# warm-up: the JIT compiles the hot paths of every process
for p in $bport $tport; do plain $p 10s >/dev/null; auth $p 10s >/dev/null; done

echo "baseline $sha vs this checkout $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo '+changes'), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| round | base req/s | this req/s | this / base | base+auth req/s | this+auth req/s | this+auth / base+auth | p50/p99 ms base | p50/p99 ms this | p50/p99 ms base+auth | p50/p99 ms this+auth | errors |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
  # alternate which gateway goes first, so neither always runs on a warmer or quieter machine
  if [ $((r % 2)) -eq 1 ]; then
    read -r brps bp50 bp99 berr < <(plain $bport "$dur"); read -r trps tp50 tp99 terr < <(plain $tport "$dur")
    read -r barps bap50 bap99 baerr < <(auth $bport "$dur"); read -r tarps tap50 tap99 taerr < <(auth $tport "$dur")
  else
    read -r trps tp50 tp99 terr < <(plain $tport "$dur"); read -r brps bp50 bp99 berr < <(plain $bport "$dur")
    read -r tarps tap50 tap99 taerr < <(auth $tport "$dur"); read -r barps bap50 bap99 baerr < <(auth $bport "$dur")
  fi
  ratio=$(awk -v a="$trps" -v b="$brps" 'BEGIN { printf "%.2f", a/b }')
  aratio=$(awk -v a="$tarps" -v b="$barps" 'BEGIN { printf "%.2f", a/b }')
  echo "| $r | $brps | $trps | $ratio | $barps | $tarps | $aratio | $bp50 / $bp99 | $tp50 / $tp99 | $bap50 / $bap99 | $tap50 / $tap99 | $((berr + terr + baerr + taerr)) |"
done
