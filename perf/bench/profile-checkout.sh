#!/usr/bin/env bash
# Profiles our gateway under the check-out/check-in workload with async-profiler, loopback only:
# starts the simulated FOLIO modules, the authtoken module and our gateway, registers the modules,
# runs `checkout-checkin` against the gateway and, after the warm-up, attaches async-profiler to
# the gateway's JVM (jcmd JVMTI.agent_load): CPU samples for PROFILE seconds, then allocation
# samples for ALLOC seconds. Writes, outside git, to OUT_DIR (default: a temporary directory):
#   cpu.collapsed, cpu.html (flame graph), alloc.collapsed, alloc.html, driver.log and
#   summary.md (`perf-fat.jar profile-summary`: samples by cost category and by step).
#   perf/bench/profile-checkout.sh [USERS=8] [PROFILE=30] [ALLOC=15] [USER_LOOKUP=local|gateway] [OUT_DIR]
# async-profiler comes from Maven Central (tools.profiler:async-profiler:4.1, whose jar holds the
# native library), fetched once into $ASYNC_PROFILER_DIR (default ~/.cache/okapi-gateway/...).
# GATEWAY_JAVA_OPTS: JVM options of the gateway (-XX:+PrintCompilation, say).
# GATEWAY_JAR profiles another build of ours (a fat jar of an earlier commit, say).
# Ports as in vs-okapi.sh: MODULES_PORT (9480), AUTHTOKEN_PORT (9462), GATEWAY_PORT (9470).
# WARMUP: seconds of load before the profile starts (default 60: the JIT settles).
# EVENT (default cpu: perf_events where allowed, else async-profiler's own CPU timer).
# PERF_JAR: the load driver's jar (default perf/target/perf-fat.jar; a copy lets a build run meanwhile).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
users="${1:-8}"; profile_s="${2:-30}"; alloc_s="${3:-15}"; lookup="${4:-local}"
out="${5:-$(mktemp -d)}"
case "$lookup" in local|gateway) ;; *) echo "USER_LOOKUP must be local or gateway, was '$lookup'" >&2; exit 2 ;; esac
need_jars
mkdir -p "$out"; out="$(cd "$out" && pwd)"
perf_jar="${PERF_JAR:-$root/perf/target/perf-fat.jar}"
gateway_jar="${GATEWAY_JAR:-$root/okapi-core/target/okapi-core-fat.jar}"
mports="${MODULES_PORT:-9480}"; aport="${AUTHTOKEN_PORT:-9462}"; gport="${GATEWAY_PORT:-9470}"
warmup_s="${WARMUP:-60}"

# async-profiler's native library, from its Maven Central jar
ap_version=4.1
ap_dir="${ASYNC_PROFILER_DIR:-$HOME/.cache/okapi-gateway/async-profiler-$ap_version}"
case "$(uname -m)" in x86_64) ap_arch=linux-x64 ;; aarch64) ap_arch=linux-arm64 ;; *) echo "no async-profiler for $(uname -m)" >&2; exit 1 ;; esac
lib="$ap_dir/$ap_arch/libasyncProfiler.so"
if [ ! -f "$lib" ]; then
  mkdir -p "$ap_dir"
  (cd "$ap_dir" && mvn -q -B -ntp dependency:copy -Dartifact=tools.profiler:async-profiler:$ap_version \
    -DoutputDirectory="$ap_dir" >&2 && unzip -q -o "async-profiler-$ap_version.jar" "$ap_arch/*")
fi
# jcmd reads "a=b" as its own option: the profiler's options go quoted
profiler() { jcmd "$gw_pid" JVMTI.agent_load "$lib" "\"$1\"" >>"$out/profiler.log" 2>&1; }

echo "output in $out" >&2
start_checkout_modules "$out" "$lookup"
# shellcheck disable=SC2086 # GATEWAY_JAVA_OPTS: several options, split on spaces
start_bg "$out/gateway.log" java ${GATEWAY_JAVA_OPTS:-} -jar "$gateway_jar" dev --port "$gport" --host 127.0.0.1
gw_pid="${pids[-1]}"
wait_http "http://127.0.0.1:$gport/_/version"
register_checkout_modules "$out" "$gport"
duration=$((warmup_s + profile_s + alloc_s + 5))
java -jar "$perf_jar" checkout-checkin --gateway "http://127.0.0.1:$gport" \
  --barcodes "$out/barcodes.csv" --users "$users" --duration "${duration}s" >"$out/driver.log" 2>&1 &
driver=$!
sleep "$warmup_s"
profiler "start,event=${EVENT:-cpu},interval=1ms"
sleep "$profile_s"
profiler "dump,file=$out/cpu.html"
profiler "stop,file=$out/cpu.collapsed,collapsed"
profiler "start,event=alloc,interval=256k"
sleep "$alloc_s"
profiler "dump,file=$out/alloc.html"
profiler "stop,file=$out/alloc.collapsed,collapsed"
wait "$driver" || { echo "the load driver failed; see $out/driver.log" >&2; exit 1; }
{
  echo "## CPU samples of the gateway ($profile_s s, $users users, user lookup $lookup)"; echo
  java -jar "$perf_jar" profile-summary --file "$out/cpu.collapsed"
  echo; echo "### The event-loop threads alone (without JIT compiler, GC and other JVM threads)"; echo
  java -jar "$perf_jar" profile-summary --file "$out/cpu.collapsed" --event-loops-only true
  echo; echo "## Allocation samples ($alloc_s s)"; echo
  java -jar "$perf_jar" profile-summary --file "$out/alloc.collapsed"
  echo; echo "## The load driver"; echo
  cat "$out/driver.log"
} >"$out/summary.md" 2>&1
cat "$out/summary.md"
echo "flame graphs: $out/cpu.html $out/alloc.html" >&2
