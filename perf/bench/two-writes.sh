#!/usr/bin/env bash
# The two-writes stall (issue 44, item 1), side by side in one run, loopback only: a module that
# writes its answer in one write (/one), its head then its body (/two, as Python's http.server
# does), or its head in three writes then its body (/dribble), Nagle on (perf/bench/pieces/
# module.py); and a client that writes a POST's head then its body (/post). Each is called CALLS
# times, one after another on one kept-alive connection (perf/bench/pieces/drive.py), directly and
# through: our gateway and Okapi 6.1.5 when OKAPI_JAR is given and exists. Per cell: p50 / p99 ms, and how many calls
# took 30 ms or more (a delayed ACK is 40 ms).
#   perf/bench/two-writes.sh [OKAPI_JAR] [GATEWAY_JAR] [CALLS=300] [ROUNDS=2]
# GATEWAY_JAR: ours (default okapi-core/target/okapi-core-fat.jar). Needs python3.
# Ports: module 9480, ours 9481, Okapi 9483.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
here="$root/perf/bench"
okapi_jar="${1:-}"; ours_jar="${2:-$root/okapi-core/target/okapi-core-fat.jar}"
calls="${3:-300}"; rounds="${4:-2}"
[ -f "$ours_jar" ] || { echo "no gateway jar $ours_jar (mvn -DskipTests package -pl okapi-core -am)" >&2; exit 1; }
logs="$(mktemp -d)"; echo "logs: $logs"
start_bg "$logs/module.log" python3 "$here/pieces/module.py" 9480
start_bg "$logs/ours.log" java -Xmx256m -jar "$ours_jar" dev --port 9481
targets=("direct 9480" "ours 9481")
if [ -n "$okapi_jar" ] && [ -f "$okapi_jar" ]; then
  start_bg "$logs/okapi.log" java -Xmx256m -Dloglevel=WARN -Dport=9483 -Dport_start=9484 \
    -Dport_end=9490 -Dokapiurl=http://127.0.0.1:9483 -jar "$okapi_jar" dev
  targets+=("okapi-6.1.5 9483")
else
  echo "no Okapi jar given or found: Okapi left out" >&2
fi
descriptor='{"id":"mod-pieces-1.0.0","provides":[{"id":"pieces","version":"1.0","handlers":[
  {"methods":["GET","POST"],"pathPattern":"/*","permissionsRequired":[]}]}]}'
register() { # url
  local u=$1
  for _ in $(seq 1 150); do curl -sf -o /dev/null "$u/_/version" && break; sleep 1; done
  curl -sf -o /dev/null -XPOST "$u/_/proxy/modules" -H 'Content-Type: application/json' -d "$descriptor"
  curl -sf -o /dev/null -XPOST "$u/_/discovery/modules" -H 'Content-Type: application/json' \
    -d '{"srvcId":"mod-pieces-1.0.0","instId":"pieces-1","url":"http://127.0.0.1:9480"}'
  curl -sf -o /dev/null -XPOST "$u/_/proxy/tenants" -H 'Content-Type: application/json' -d '{"id":"diku"}'
  curl -sf -o /dev/null -XPOST "$u/_/proxy/tenants/diku/modules" -H 'Content-Type: application/json' \
    -d '{"id":"mod-pieces-1.0.0"}'
}
for t in "${targets[@]}"; do set -- $t; [ "$1" = direct ] || register "http://127.0.0.1:$2"; done
drive() { # port path [--post-two]
  python3 "$here/pieces/drive.py" 127.0.0.1 "$1" "$2" "$calls" diku ${3:-}
}
# warm-up: the JIT compiles the gateways' hot paths
for t in "${targets[@]}"; do set -- $t; drive "$2" /one >/dev/null; drive "$2" /two >/dev/null; done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $calls calls per cell, one kept-alive connection"
echo
echo "| round | via | one write p50 / p99 ms (>=30 ms) | head, body p50 / p99 (>=30 ms) | head in 3 writes p50 / p99 (>=30 ms) | client POST head, body p50 / p99 (>=30 ms) |"
echo "|---|---|---|---|---|---|"
cell() { read -r p50 p99 slow < <(drive "$@"); echo "$p50 / $p99 ($slow)"; }
for r in $(seq 1 "$rounds"); do
  for t in "${targets[@]}"; do
    set -- $t
    echo "| $r | $1 | $(cell "$2" /one) | $(cell "$2" /two) | $(cell "$2" /dribble) | $(cell "$2" /post --post-two) |"
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
