# Shared by the benchmark scripts: build, start/stop processes, wait for ports, parse wrk.
# Every process started here listens on 127.0.0.1 only and is killed when the script exits.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
pids=()
cleanup() { for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

need_jars() {
  local jar
  for jar in okapi-core/target/okapi-core-fat.jar authtoken-module/target/authtoken-module-fat.jar \
      folio-modules/target/folio-modules-fat.jar perf/target/perf-fat.jar; do
    if [ ! -f "$root/$jar" ]; then
      echo "building fat jars ..." >&2
      (cd "$root" && mvn -q -B -DskipTests package -pl perf -am >&2)
      return
    fi
  done
}

need_wrk() {
  command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
}

start_bg() { # log-file command...
  local log="$1"; shift
  "$@" >"$log" 2>&1 &
  pids+=($!)
}

wait_http() { # url
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "timed out waiting for $1" >&2; return 1
}

# wrk_run NAME URL CONNECTIONS DURATION [header...] -> prints "rps p50ms p99ms errors"
wrk_run() {
  local url="$2" conns="$3" dur="$4"; shift 4
  local hdr=() h
  for h in "$@"; do hdr+=(-H "$h"); done
  wrk -t2 -c"$conns" -d"$dur" --latency "${hdr[@]}" "$url" | awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 }
    /^ +50%/ { p50=ms($2) } /^ +99%/ { p99=ms($2) }
    /Non-2xx/ { err+=$NF } /Socket errors/ { err+=1 }
    END { printf "%.0f %.2f %.2f %d\n", rps, p50, p99, err }'
}

# register_fixed GATEWAY_URL MODULE_PORT AUTHTOKEN_PORT: by plain admin calls (any Okapi-protocol
# gateway), the fixed module (GET /fixed, permission fixed.get) and the authtoken module; tenant
# noauth with the fixed module alone, tenant auth with the authtoken filter too.
register_fixed() {
  local g="$1" mport="$2" aport="$3"
  post() { curl -sf -o /dev/null -X POST "$g$1" -H 'Content-Type: application/json' -d "$2"; }
  post /_/proxy/modules '{"id":"mod-fixed-1.0.0","provides":[{"id":"fixed","version":"1.0","handlers":[{"methods":["GET"],"pathPattern":"/fixed","permissionsRequired":["fixed.get"]}]}]}'
  post /_/discovery/modules "{\"srvcId\":\"mod-fixed-1.0.0\",\"instId\":\"fixed-1\",\"url\":\"http://127.0.0.1:$mport\"}"
  post /_/proxy/modules "$(cat "$root/authtoken-module/descriptors/ModuleDescriptor.json")"
  post /_/discovery/modules "{\"srvcId\":\"mod-authtoken-1.0.0\",\"instId\":\"authtoken-1\",\"url\":\"http://127.0.0.1:$aport\"}"
  post /_/proxy/tenants '{"id":"noauth"}'
  post /_/proxy/tenants/noauth/modules '{"id":"mod-fixed-1.0.0"}'
  post /_/proxy/tenants '{"id":"auth"}'
  post /_/proxy/tenants/auth/modules '{"id":"mod-authtoken-1.0.0"}'
  post /_/proxy/tenants/auth/modules '{"id":"mod-fixed-1.0.0"}'
}

# login_bench GATEWAY_URL: prints the token of user bench in tenant auth; exits if there is none
login_bench() {
  local token
  token=$(curl -s -D - -o /dev/null -X POST "$1/authn/login" -H 'X-Okapi-Tenant: auth' \
    -H 'Content-Type: application/json' -d '{"username":"bench","password":"bench"}' \
    | tr -d '\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')
  [ -n "$token" ] || { echo "login at $1 failed" >&2; exit 1; }
  echo "$token"
}

# start_checkout_modules LOGS LOOKUP: the simulated FOLIO modules (manifest on $mports, the nine
# modules after it) and the authtoken module (on $aport, user lookups LOOKUP=local|gateway) on
# 127.0.0.1, for the check-out/check-in workload; waits until both answer.
start_checkout_modules() {
  local logs="$1" lookup="$2"
  local perms='circulation.check-out-by-barcode.post,circulation.check-in-by-barcode.post,authtoken.all'
  start_bg "$logs/modules.log" java -jar "$root/folio-modules/target/folio-modules-fat.jar" modules \
    --host 127.0.0.1 --port "$mports" --advertise-host 127.0.0.1
  start_bg "$logs/authtoken.log" java -jar "$root/authtoken-module/target/authtoken-module-fat.jar" \
    --port "$aport" --host 127.0.0.1 --store "json:$logs/authtoken" \
    --signing-key-file "$logs/signing.key" --user-lookup "$lookup" --bootstrap "diku:diku_admin:admin:$perms"
  wait_http "http://127.0.0.1:$mports/barcodes.csv"; wait_http "http://127.0.0.1:$aport/admin/health"
  curl -sf -o "$logs/barcodes.csv" "http://127.0.0.1:$mports/barcodes.csv"
}

# register_checkout_modules LOGS GATEWAY_PORT: the workload's modules and the authtoken module
# registered on the gateway at that port (ours or an Okapi) for tenant diku.
register_checkout_modules() {
  local logs="$1" port="$2"
  java -jar "$root/folio-modules/target/folio-modules-fat.jar" register \
    --gateway "http://127.0.0.1:$port" --modules-url "http://127.0.0.1:$mports" \
    --authtoken-url "http://127.0.0.1:$aport" >"$logs/register-$port.log" 2>&1 \
    || { echo "register on port $port failed; see $logs/register-$port.log" >&2; exit 1; }
}
