#!/usr/bin/env bash
# A module instance that answers twice (issue 43, item 2), through our gateway, an Okapi and nginx
# side by side, loopback only: three instances of mod-twice-1.0.0 (perf/bench/stray/module.py) on
# 9701-9703, the first sending a second answer `stray-N` ~5 ms after each answer N; each proxy gets
# TOTAL GET /twice/items?n=i from CLIENTS keep-alive clients (perf/bench/stray/drive.py), which
# counts the answers whose body is not their own: a stray body, another request's, an error.
#   perf/bench/stray-answers.sh OKAPI_JAR [GATEWAY_JAR] [TOTAL=3000] [CLIENTS=6]
# OKAPI_JAR: Okapi's okapi-core-fat.jar (6.1.5); GATEWAY_JAR: ours (default
# okapi-core/target/okapi-core-fat.jar). Needs python3 and nginx (Debian: nginx-light). Ports:
# Okapi 9460, ours 9470, nginx 9780. Logs in a temporary directory, printed and kept.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
okapi_jar="${1:?usage: stray-answers.sh OKAPI_JAR [GATEWAY_JAR] [TOTAL] [CLIENTS]}"
ours_jar="${2:-$here/../../okapi-core/target/okapi-core-fat.jar}"
total="${3:-3000}"; clients="${4:-6}"
dir="$(mktemp -d)"; echo "logs: $dir"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true; }
trap cleanup EXIT
python3 "$here/stray/module.py" 9701 --stray >"$dir/m1.log" 2>&1 & pids+=($!)
python3 "$here/stray/module.py" 9702 >"$dir/m2.log" 2>&1 & pids+=($!)
python3 "$here/stray/module.py" 9703 >"$dir/m3.log" 2>&1 & pids+=($!)
java -Xmx256m -Dloglevel=WARN -Dport=9460 -Dokapiurl=http://127.0.0.1:9460 -jar "$okapi_jar" dev \
  >"$dir/okapi.log" 2>&1 & pids+=($!)
java -Xmx256m -jar "$ours_jar" dev --port 9470 >"$dir/ours.log" 2>&1 & pids+=($!)
cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  upstream twice { server 127.0.0.1:9701; server 127.0.0.1:9702; server 127.0.0.1:9703; keepalive 32; }
  server {
    listen 127.0.0.1:9780;
    location / { proxy_pass http://twice; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
CONF
nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/nginx-error.log"
register() {
  local u=$1 i
  for i in $(seq 1 150); do curl -sf "$u/_/version" >/dev/null && break; sleep 2; done
  curl -sf -o /dev/null -XPOST "$u/_/proxy/modules" -H 'Content-Type: application/json' -d \
    '{"id":"mod-twice-1.0.0","provides":[{"id":"twice","version":"1.0","handlers":[{"methods":["GET"],"pathPattern":"/twice/*","permissionsRequired":[]}]}]}'
  for i in 1 2 3; do
    curl -sf -o /dev/null -XPOST "$u/_/discovery/modules" -H 'Content-Type: application/json' \
      -d "{\"srvcId\":\"mod-twice-1.0.0\",\"instId\":\"twice-$i\",\"url\":\"http://127.0.0.1:970$i\"}"
  done
  curl -sf -o /dev/null -XPOST "$u/_/proxy/tenants" -H 'Content-Type: application/json' -d '{"id":"diku"}'
  curl -sf -o /dev/null -XPOST "$u/_/proxy/tenants/diku/modules" -H 'Content-Type: application/json' \
    -d '{"id":"mod-twice-1.0.0"}'
}
register http://127.0.0.1:9460
register http://127.0.0.1:9470
for c in "$clients" 1; do
  echo "okapi, $c clients: $(python3 "$here/stray/drive.py" 127.0.0.1 9460 "$total" "$c" diku)"
  echo "nginx, $c clients: $(python3 "$here/stray/drive.py" 127.0.0.1 9780 "$total" "$c")"
  echo "ours,  $c clients: $(python3 "$here/stray/drive.py" 127.0.0.1 9470 "$total" "$c" diku)"
done
curl -s http://127.0.0.1:9470/_/metrics | grep -E '^okapi_module_(protocol_violations|ejections)_total' || true
