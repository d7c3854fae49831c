#!/usr/bin/env bash
# Brings the whole docker/docker-compose.yml cluster up (images built from the fat jars, so run
# `mvn -B -DskipTests package` first), waits for its register job, then logs in and checks an
# item out through node 1 and in through node 2 (and once more through node 3 and 1), and
# takes everything down again, volumes included. Exit 0 only if all of that worked.
# Uses `docker compose` if present, else docker-compose 1.29; project name okapigw-smoke, so a
# running demo (project "docker") is left alone, but host ports 9130-9132 and 9300 must be free.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

project=okapigw-smoke
compose() {
  if docker compose version >/dev/null 2>&1; then
    docker compose -p "$project" -f docker/docker-compose.yml "$@"
  else
    docker-compose -p "$project" -f docker/docker-compose.yml "$@"
  fi
}
say() { echo "smoke-compose: $*" >&2; }

trap 'compose down -v --remove-orphans >/dev/null 2>&1 || true' EXIT
start=$(date +%s)
compose up -d --build
register="$(compose ps -q register)"
[ -n "$register" ] || { say "no register container"; compose ps; exit 1; }
# the job waits at most 180 s for the services, then exits
code="$(timeout 600 docker wait "$register")" || code=timeout
compose logs --no-color register | tail -n 20
if [ "$code" != 0 ]; then
  say "register job ended with $code"
  compose ps
  compose logs --no-color --tail 50
  exit 1
fi
say "cluster up and registered in $(( $(date +%s) - start ))s"

sp="$(curl -sf http://localhost:9300/barcodes.csv | sed -n 2p | cut -d, -f3)"
json=(-H 'X-Okapi-Tenant: diku' -H 'Content-Type: application/json')
token="$(curl -sf -D - -o /dev/null -X POST http://localhost:9130/authn/login "${json[@]}" \
  -d "{\"username\":\"diku_admin\",\"password\":\"${DEMO_PASSWORD:-admin}\"}" \
  | tr -d '\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')"
[ -n "$token" ] || { say "login through node 1 failed"; exit 1; }

call() { # call NAME PORT PATH BODY EXPECTED
  local status
  status="$(curl -s -o /tmp/okapigw-smoke.out -w '%{http_code}' -X POST "http://localhost:$2$3" \
    "${json[@]}" -H "X-Okapi-Token: $token" -d "$4")"
  if [ "$status" != "$5" ]; then
    say "$1 through :$2 answered $status, expected $5: $(head -c 500 /tmp/okapigw-smoke.out)"
    exit 1
  fi
  say "$1 through :$2: $status"
}
out="{\"itemBarcode\":\"I000999\",\"userBarcode\":\"P000998\",\"servicePointId\":\"$sp\"}"
in="{\"itemBarcode\":\"I000999\",\"servicePointId\":\"$sp\"}"
call check-out 9130 /circulation/check-out-by-barcode "$out" 201
call check-in 9131 /circulation/check-in-by-barcode "$in" 200
call check-out 9132 /circulation/check-out-by-barcode "$out" 201
call check-in 9130 /circulation/check-in-by-barcode "$in" 200
for port in 9130 9131 9132; do
  members="$(curl -sf "http://localhost:$port/_/proxy/health" | sed -n 's/.*"members":\([0-9]*\).*/\1/p')"
  [ "$members" = 3 ] || { say "node :$port sees ${members:-no} members, not 3"; exit 1; }
done
say "OK: 3 nodes, login, check-out and check-in across nodes ($(( $(date +%s) - start ))s)"
