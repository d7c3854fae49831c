#!/bin/bash
# Gateway CPU per MB relayed: a fake module and a gateway (`dev`, no auth module) on 127.0.0.1,
# N bodies of SIZE bytes fetched through the gateway with curl (PAR at a time), the gateway's and
# the module's CPU time read from /proc before and after. Bounded: N requests, then both stop.
#
#   perf/scripts/relay-cpu.sh GATEWAY_JAR N SIZE [PAR [extra gateway JVM options...]]
#   e.g. perf/scripts/relay-cpu.sh okapi-core/target/okapi-core-fat.jar 16 268435456 1
#
# Optional: PERFOUT=file (perf record -g of the gateway during the run; add the JVM options
# -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer for Java
# frames), STRACE=file (strace -c of the gateway's read/write/epoll_wait calls).
set -u
GW=$1; N=$2; SIZE=$3; PAR=${4:-1}; shift $(( $# < 4 ? $# : 4 ))
PERF_JAR=${PERF_JAR:-perf/target/perf-fat.jar}
LOGS=$(mktemp -d /tmp/relay-cpu.XXXXXX)
FP=$((20000 + RANDOM % 10000)); GP=$((FP + 1))
java -Xmx256m -jar "$PERF_JAR" fake-module --port $FP > "$LOGS/fake.log" 2>&1 & FPID=$!
java -Xmx256m "$@" -jar "$GW" dev --port $GP --host 127.0.0.1 > "$LOGS/gateway.log" 2>&1 & GPID=$!
trap 'kill $GPID $FPID 2>/dev/null; wait $GPID $FPID 2>/dev/null' EXIT
for i in $(seq 1 150); do
  curl -s -o /dev/null localhost:$GP/_/version && curl -s -o /dev/null localhost:$FP/fake/1 && break
  sleep 0.2
done
post() { curl -s -o /dev/null -X POST "localhost:$GP$1" -d "$2"; }
post /_/proxy/modules '{"id":"mod-fake-1.0.0","provides":[{"id":"fake","version":"1.0",
  "handlers":[{"methods":["GET"],"pathPattern":"/fake/{bytes}","permissionsRequired":[]}]}]}'
post /_/proxy/tenants '{"id":"t"}'
post /_/discovery/modules "{\"srvcId\":\"mod-fake-1.0.0\",\"instId\":\"fake-1\",\"url\":\"http://127.0.0.1:$FP\"}"
post /_/proxy/tenants/t/modules '{"id":"mod-fake-1.0.0"}'
get() { curl -s -o /dev/null -w '%{http_code} %{size_download}\n' -H 'X-Okapi-Tenant: t' \
  "localhost:$GP/fake/$1"; }
# warm-up: 300 x 1 MiB and 4 bodies of the measured size
for i in $(seq 1 300); do get 1048576 > /dev/null; done
for i in $(seq 1 4); do get "$SIZE" > /dev/null; done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
G0=$(ticks $GPID); F0=$(ticks $FPID); T0=$(date +%s.%N)
[ -n "${PERFOUT:-}" ] && { perf record -F 499 -g -p $GPID -o "$PERFOUT" > "$LOGS/perf.log" 2>&1 & PRID=$!; }
[ -n "${STRACE:-}" ] && { strace -f -c -e trace=read,write,writev,epoll_wait -p $GPID -o "$STRACE" > /dev/null 2>&1 & SRID=$!; sleep 0.5; }
export -f get; export GP
seq 1 "$N" | xargs -P "$PAR" -I{} bash -c "get $SIZE" > "$LOGS/codes.txt"
[ -n "${PERFOUT:-}" ] && { kill -INT $PRID; wait $PRID; }
[ -n "${STRACE:-}" ] && { kill -INT $SRID; wait $SRID; }
T1=$(date +%s.%N); G1=$(ticks $GPID); F1=$(ticks $FPID)
BAD=$(awk -v s="$SIZE" '$1 != 200 || $2 != s' "$LOGS/codes.txt" | wc -l)
awk -v g=$((G1 - G0)) -v f=$((F1 - F0)) -v tk="$(getconf CLK_TCK)" -v n="$N" -v s="$SIZE" \
    -v t0="$T0" -v t1="$T1" -v bad="$BAD" -v jar="$(basename "$GW")" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" \
  'BEGIN { mb = n * s / 1048576; w = t1 - t0;
    printf "%s: %d x %d B, wall %.2f s, %.0f MB/s, gateway CPU %.0f ms = %.3f ms/MB, module CPU %.3f ms/MB, bad %d, load %s\n",
      jar, n, s, w, mb / w, g * 1000 / tk, g * 1000 / tk / mb, f * 1000 / tk / mb, bad, load }'
rm -rf "$LOGS"
