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
# BASELINE_JAR: another build of our gateway (okapi-core-fat.jar of an earlier commit, say), started
# on BASELINE_PORT (9475) and measured in the same slices (`--baseline`): the summary then gives
# ours ÷ Okapi, baseline ÷ Okapi and ours ÷ baseline from one run. GATEWAY_JAR: ours from another jar.
# GATEWAY_JAVA_OPTS, BASELINE_JAVA_OPTS: JVM options of ours and of the baseline (each split on
# spaces), e.g. GATEWAY_JAVA_OPTS=-Xmx512m to measure a JVM setting beside the same jar as the
# baseline (BASELINE_JAR=GATEWAY_JAR).
# WARMUP: load on each gateway before the measured slices (default 5s; the JITs settle with 30s+).
# OKAPI_JAVA: the java that runs Okapi (Okapi 7 needs JDK 21+: /usr/lib/jvm/temurin-25-jdk-amd64/bin/java).
# Logs: a temporary directory, printed at the start and kept. The driver reads each gateway's CPU
# from /proc (the process listening on its port) and prints ours ÷ Okapi per operation.
# PERF_JAR: the load driver's jar (default perf/target/perf-fat.jar; a copy lets a build run meanwhile).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
okapi_jar="${1:?usage: vs-okapi.sh OKAPI_JAR [USERS=8] [DURATION=60s] [USER_LOOKUP=local|gateway]}"
users="${2:-8}"; dur="${3:-60s}"; lookup="${4:-local}"
[ -f "$okapi_jar" ] || { echo "no such file: $okapi_jar (Okapi's okapi-core-fat.jar)" >&2; exit 2; }
case "$lookup" in local|gateway) ;; *) echo "USER_LOOKUP must be local or gateway, was '$lookup'" >&2; exit 2 ;; esac
need_jars
perf_jar="${PERF_JAR:-$root/perf/target/perf-fat.jar}"
mports="${MODULES_PORT:-9480}"; aport="${AUTHTOKEN_PORT:-9462}"
oport="${OKAPI_PORT:-9460}"; gport="${GATEWAY_PORT:-9470}"; bport="${BASELINE_PORT:-9475}"
gateway_jar="${GATEWAY_JAR:-$root/okapi-core/target/okapi-core-fat.jar}"
baseline_jar="${BASELINE_JAR:-}"
[ -z "$baseline_jar" ] || [ -f "$baseline_jar" ] || { echo "no such file: $baseline_jar (BASELINE_JAR)" >&2; exit 2; }
logs="$(mktemp -d)"
echo "logs in $logs" >&2
# Okapi logs every proxied request at INFO: WARN measures the proxy, not its log.
start_checkout_modules "$logs" "$lookup"
start_bg "$logs/okapi.log" "${OKAPI_JAVA:-java}" -Dloglevel=WARN -Dport=$oport -Dokapiurl=http://127.0.0.1:$oport \
  -jar "$okapi_jar" dev
# shellcheck disable=SC2086 # *_JAVA_OPTS: several options, split on spaces
start_bg "$logs/ours.log" java ${GATEWAY_JAVA_OPTS:-} -jar "$gateway_jar" dev --port $gport --host 127.0.0.1
ports=("$oport" "$gport"); baseline=()
if [ -n "$baseline_jar" ]; then
  # shellcheck disable=SC2086
  start_bg "$logs/baseline.log" java ${BASELINE_JAVA_OPTS:-} -jar "$baseline_jar" dev --port $bport --host 127.0.0.1
  ports+=("$bport"); baseline=(--baseline "http://127.0.0.1:$bport")
fi
for port in "${ports[@]}"; do wait_http "http://127.0.0.1:$port/_/version"; done
for port in "${ports[@]}"; do register_checkout_modules "$logs" "$port"; done
java -jar "$perf_jar" checkout-checkin --gateway "http://127.0.0.1:$gport" \
  --vs "http://127.0.0.1:$oport" "${baseline[@]}" --barcodes "$logs/barcodes.csv" --users "$users" --duration "$dur" \
  --warmup "${WARMUP:-5s}"
