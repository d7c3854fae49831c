#!/usr/bin/env bash
# Our gateway against an Okapi on the check-out/check-in workload, in one command, loopback only:
# starts the simulated FOLIO modules and the authtoken module (shared by both gateways), the
# Okapi of OKAPI_JAR and our gateway, registers the modules on both, then runs
# `checkout-checkin --gateway ours --vs okapi` (interleaved slices, ratios to Okapi).
#   perf/bench/vs-okapi.sh OKAPI_JAR [USERS=8] [DURATION=60s] [USER_LOOKUP=local|gateway]
# OKAPI_JAR: Okapi's okapi-core-fat.jar (e.g. built from the tag v6.1.5, see docs/benchmarks.md).
# USER_LOOKUP=gateway: the authtoken module looks users and permissions up through the gateway
# that asked, as FOLIO's mod-authtoken does (FOLIO's auth cost).
# Ports: modules 9480-9489, authtoken 9462, Okapi 9460, ours 9470; the environment variables
# MODULES_PORT (the first of ten), AUTHTOKEN_PORT, OKAPI_PORT and GATEWAY_PORT move them.
# Logs: a temporary directory, printed at the start and kept. The driver reads each gateway's CPU
# from /proc (the process listening on its port) and prints ours ÷ Okapi per operation.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
okapi_jar="${1:?usage: vs-okapi.sh OKAPI_JAR [USERS=8] [DURATION=60s] [USER_LOOKUP=local|gateway]}"
users="${2:-8}"; dur="${3:-60s}"; lookup="${4:-local}"
[ -f "$okapi_jar" ] || { echo "no such file: $okapi_jar (Okapi's okapi-core-fat.jar)" >&2; exit 2; }
case "$lookup" in local|gateway) ;; *) echo "USER_LOOKUP must be local or gateway, was '$lookup'" >&2; exit 2 ;; esac
need_jars
perf_jar="$root/perf/target/perf-fat.jar"
modules_jar="$root/folio-modules/target/folio-modules-fat.jar"
mports="${MODULES_PORT:-9480}"; aport="${AUTHTOKEN_PORT:-9462}"
oport="${OKAPI_PORT:-9460}"; gport="${GATEWAY_PORT:-9470}"
logs="$(mktemp -d)"
echo "logs in $logs" >&2
perms='circulation.check-out-by-barcode.post,circulation.check-in-by-barcode.post,authtoken.all'
start_bg "$logs/modules.log" java -jar "$modules_jar" modules --host 127.0.0.1 --port $mports \
  --advertise-host 127.0.0.1
start_bg "$logs/authtoken.log" java -jar "$root/authtoken-module/target/authtoken-module-fat.jar" \
  --port $aport --host 127.0.0.1 --store "json:$logs/authtoken" --signing-key-file "$logs/signing.key" \
  --user-lookup "$lookup" --bootstrap "diku:diku_admin:admin:$perms"
# Okapi logs every proxied request at INFO: WARN measures the proxy, not its log.
start_bg "$logs/okapi.log" java -Dloglevel=WARN -Dport=$oport -Dokapiurl=http://127.0.0.1:$oport \
  -jar "$okapi_jar" dev
start_bg "$logs/ours.log" java -jar "$root/okapi-core/target/okapi-core-fat.jar" dev \
  --port $gport --host 127.0.0.1
wait_http "http://127.0.0.1:$mports/barcodes.csv"; wait_http "http://127.0.0.1:$aport/admin/health"
wait_http "http://127.0.0.1:$oport/_/version"; wait_http "http://127.0.0.1:$gport/_/version"
for port in $oport $gport; do
  java -jar "$modules_jar" register --gateway "http://127.0.0.1:$port" \
    --modules-url "http://127.0.0.1:$mports" --authtoken-url "http://127.0.0.1:$aport" \
    >"$logs/register-$port.log" 2>&1 \
    || { echo "register on port $port failed; see $logs/register-$port.log" >&2; exit 1; }
done
curl -sf -o "$logs/barcodes.csv" "http://127.0.0.1:$mports/barcodes.csv"
java -jar "$perf_jar" checkout-checkin --gateway "http://127.0.0.1:$gport" \
  --vs "http://127.0.0.1:$oport" --barcodes "$logs/barcodes.csv" --users "$users" --duration "$dur"
