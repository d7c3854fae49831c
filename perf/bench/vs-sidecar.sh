#!/usr/bin/env bash
# Our gateway against the real folio-module-sidecar (Eureka's per-module sidecar) on a
# check-out-like fan-out, in one command, loopback only (issue 46 item 4): one client request
# GET /checkout?n=N to mod-caller makes N module-to-module calls to mod-things; through two
# sidecars (one per module, as Eureka runs them) and through one node of ours, same Keycloak
# 26.4.0, same realm (set up as FOLIO sets it up), same Kafka, same modules, in alternating slices.
# Prints Keycloak calls, CPU and RSS of the gateway-side processes, p50/p99, requests/s, and how
# long a revoked role is still granted through each.
#   perf/bench/vs-sidecar.sh [N=5] [CLIENTS=4] [SLICE=200] [SLICES=3]
# Needs the sidecar built by recipes/folio-module-sidecar.sh (SIDECAR_JAR, default
# /work/ref/folio-module-sidecar/target/quarkus-app/quarkus-run.jar) and the Temurin 25 JDK.
# The fixture (Keycloak, Kafka, stubs of FOLIO's managers, the sidecars) is it-tests' Eureka one,
# so the benchmark runs as it-tests' SidecarFanOutBench under -Peureka (not part of any test run).
# TOKEN_LIFE: the realm's token life for the revocation (default 60 s; FOLIO's is 600 s: the
# sidecar grants a revoked role until the token expires). USERS: users logged in, one token each, the
# clients take them in turn (default 20). OUT: the table's file (default a temp file).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
n="${1:-5}"; clients="${2:-4}"; slice="${3:-200}"; slices="${4:-3}"
jar="${SIDECAR_JAR:-/work/ref/folio-module-sidecar/target/quarkus-app/quarkus-run.jar}"
[ -f "$jar" ] || { echo "no sidecar at $jar: build it with ANCHOR=/work/ref bash recipes/folio-module-sidecar.sh SIDECAR_GIT APPLICATIONS_POC_TOOLS_GIT" >&2; exit 2; }
out="${OUT:-$(mktemp --suffix=.md)}"
echo "load average at start: $(cat /proc/loadavg)" >&2
cd "$root"
mvn -B -ntp -pl it-tests -am verify -Peureka -Dspotless.check.skip=true \
  -Dtest=SidecarFanOutBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dokapigw.sidecar.jar="$jar" -Dokapigw.sidecar.required=true \
  -Dbench.n="$n" -Dbench.clients="$clients" -Dbench.slice="$slice" -Dbench.slices="$slices" \
  -Dbench.users="${USERS:-20}" -Dbench.token-life="${TOKEN_LIFE:-60}" -Dbench.out="$out" >&2
cat "$out"
