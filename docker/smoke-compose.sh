#!/usr/bin/env bash
# Brings the whole docker/docker-compose.yml cluster up (images built from the fat jars, so run
# `mvn -B -DskipTests package` first), waits for its register job, then logs in and checks an
# item out through node 1 and in through node 2 (and once more through node 3 and 1), checks
# that the admin API is protected (401 without a token on every node, 200 with super_admin's,
# super_admin's password taken from SUPER_ADMIN_PASSWORD, a fresh random one unless set), runs
# the register job again on the protected cluster, and takes everything down again, volumes
# included. Exit 0 only if all of that worked.
# Uses `docker compose` if present, else docker-compose 1.29. Project name okapigw-smoke and
# host ports 19130-19132 (gateways) and 19300 (modules), so that a running demo (`./gateway
# demo` on 9130, or the compose project "docker") is left alone; SMOKE_PORT_BASE=19130 moves
# them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

project=okapigw-smoke
base="${SMOKE_PORT_BASE:-19130}"
export GATEWAY_1_PORT="$base" GATEWAY_2_PORT="$((base + 1))" GATEWAY_3_PORT="$((base + 2))"
export MODULES_PORT="$((base + 170))"
# a password no default holds: proves it reaches the authtoken module and the job from here
export SUPER_ADMIN_PASSWORD="${SUPER_ADMIN_PASSWORD:-smoke-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}"
compose() { bash docker/compose.sh -p "$project" "$@"; }
say() { echo "smoke-compose: $*" >&2; }

trap 'compose down -v --remove-orphans >/dev/null 2>&1 || true' EXIT
start=$(date +%s)
if ! compose up -d --build; then
  say "up failed"
  compose ps
  for c in $(compose ps -q); do
    docker inspect -f '{{.Name}} {{if .State.Health}}{{json .State.Health.Log}}{{end}}' "$c" | tail -c 1500
  done
  compose logs --no-color --tail 40
  exit 1
fi
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

sp="$(curl -sf "http://localhost:$MODULES_PORT/barcodes.csv" | sed -n 2p | cut -d, -f3)"
json=(-H 'X-Okapi-Tenant: diku' -H 'Content-Type: application/json')
token="$(curl -sf -D - -o /dev/null -X POST "http://localhost:$GATEWAY_1_PORT/authn/login" "${json[@]}" \
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
call check-out "$GATEWAY_1_PORT" /circulation/check-out-by-barcode "$out" 201
call check-in "$GATEWAY_2_PORT" /circulation/check-in-by-barcode "$in" 200
call check-out "$GATEWAY_3_PORT" /circulation/check-out-by-barcode "$out" 201
call check-in "$GATEWAY_1_PORT" /circulation/check-in-by-barcode "$in" 200
for port in "$GATEWAY_1_PORT" "$GATEWAY_2_PORT" "$GATEWAY_3_PORT"; do
  members="$(curl -sf "http://localhost:$port/_/proxy/health" | sed -n 's/.*"members":\([0-9]*\).*/\1/p')"
  [ "$members" = 3 ] || { say "node :$port sees ${members:-no} members, not 3"; exit 1; }
done

# the admin API: protected by the register job's last step, on every node
status_of() { curl -s -o /tmp/okapigw-smoke.out -w '%{http_code}' "$@"; }
for port in "$GATEWAY_1_PORT" "$GATEWAY_2_PORT" "$GATEWAY_3_PORT"; do
  s="$(status_of "http://localhost:$port/_/proxy/tenants")"
  [ "$s" = 401 ] || { say "GET /_/proxy/tenants without a token through :$port answered $s, not 401"; exit 1; }
  curl -sf "http://localhost:$port/_/proxy/health" | grep -q '"protected":true' \
    || { say "health of :$port does not say adminApi.protected"; exit 1; }
done
say "admin API refuses calls without a token (401) on every node"
admin_token="$(curl -sf -D - -o /dev/null -X POST "http://localhost:$GATEWAY_2_PORT/authn/login" \
  -H 'X-Okapi-Tenant: supertenant' -H 'Content-Type: application/json' \
  -d "{\"username\":\"super_admin\",\"password\":\"$SUPER_ADMIN_PASSWORD\"}" \
  | tr -d '\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')"
[ -n "$admin_token" ] || { say "login of super_admin through :$GATEWAY_2_PORT failed"; exit 1; }
for port in "$GATEWAY_1_PORT" "$GATEWAY_2_PORT" "$GATEWAY_3_PORT"; do
  s="$(status_of -H "X-Okapi-Token: $admin_token" "http://localhost:$port/_/proxy/tenants")"
  if [ "$s" != 200 ] || ! grep -q '"diku"' /tmp/okapigw-smoke.out; then
    say "GET /_/proxy/tenants as super_admin through :$port answered $s: $(head -c 300 /tmp/okapigw-smoke.out)"
    exit 1
  fi
done
s="$(status_of -H 'X-Okapi-Tenant: supertenant' -H "X-Okapi-Token: $token" "http://localhost:$GATEWAY_1_PORT/_/proxy/tenants")"
[ "$s" = 403 ] || { say "GET /_/proxy/tenants with diku_admin's token answered $s, not 403"; exit 1; }
say "admin API answers super_admin's token (200) on every node, refuses diku_admin's (403)"

# the job again, on the protected cluster: it logs in as super_admin and changes nothing
registry() {
  for path in /_/proxy/modules /_/discovery/modules /_/proxy/tenants \
      /_/proxy/tenants/diku/modules /_/proxy/tenants/supertenant/modules; do
    curl -sf -H "X-Okapi-Token: $admin_token" "http://localhost:$GATEWAY_1_PORT$path" \
      || echo "GET $path failed"
  done
}
before="$(registry)"
if ! compose run --rm --no-deps register >/tmp/okapigw-smoke-register.out 2>&1; then
  tail -n 30 /tmp/okapigw-smoke-register.out >&2
  say "second register run on the protected cluster failed"
  exit 1
fi
grep -q "already protected" /tmp/okapigw-smoke-register.out \
  || { tail -n 30 /tmp/okapigw-smoke-register.out >&2; say "second register run did not find the admin API protected"; exit 1; }
if grep -q "$SUPER_ADMIN_PASSWORD" /tmp/okapigw-smoke-register.out; then
  say "the register job logged the super admin's password"; exit 1
fi
[ "$(registry)" = "$before" ] || { say "the second register run changed the registry"; exit 1; }
say "second register run on the protected cluster: OK, nothing changed"
say "OK: 3 nodes, login, check-out and check-in across nodes, admin API protected ($(( $(date +%s) - start ))s)"
