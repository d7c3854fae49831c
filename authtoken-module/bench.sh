#!/usr/bin/env bash
# Benchmark of the authtoken module (login storms, filter decisions/s) on 127.0.0.1 only.
# Usage: authtoken-module/bench.sh [--stores json,postgresql] [--sizes 100,500,1000,5000,10000|none]
#                                  [--iterations 600000] [--filter-seconds 10]
# Builds the fat jar and test classes (offline, no tests), copies them to target/bench-run
# (so that rebuilding during a long run can't change what runs), then runs
# io.okapigw.authtoken.bench.AuthtokenBench. Results go to stdout as Markdown tables.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
(cd .. && mvn -q -B -o -pl authtoken-module package -DskipTests \
  && mvn -q -B -o -pl authtoken-module dependency:build-classpath \
       -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test)
run="target/bench-run/$$"
mkdir -p "$run"
cp -r target/classes target/test-classes target/authtoken-module-fat.jar "$run/"
trap 'rm -rf "$run"' EXIT
java -Xmx2g -cp "$run/test-classes:$run/classes:$(cat target/bench.classpath)" \
  io.okapigw.authtoken.bench.AuthtokenBench --jar "$run/authtoken-module-fat.jar" "$@"
