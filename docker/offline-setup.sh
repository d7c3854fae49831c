#!/usr/bin/env bash
# Prepares a machine that has no image registry for docker/docker-compose.yml and the
# container tests (mvn -pl it-tests -Pcontainers verify):
#
#   1. installs the Docker engine, docker-compose and debootstrap with apt-get if missing;
#   2. starts the engine if it is not running (systemd if it runs, else dockerd in the
#      background, log in /var/log/okapigw-dockerd.log) and waits until it answers;
#   3. builds two base images from Debian packages (debootstrap, no registry needed):
#        $JRE_IMAGE       Debian minbase + openjdk-17-jre-headless   (BASE_IMAGE of our Dockerfiles)
#        $POSTGRES_IMAGE  Debian minbase + postgresql-15, with an entry point that reads
#                         POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB like the official image
#      An image that already exists is reused (delete it to rebuild);
#   4. writes docker/.env (BASE_IMAGE=..., POSTGRES_IMAGE=...) so that `docker compose` and
#      docker-compose pick the local images, and prints the same lines.
#
# Idempotent: a second run changes nothing and takes a second or two.
# Needs root (or sudo) for apt-get, dockerd and debootstrap.
#
# Environment: DEBIAN_MIRROR (default: the Debian mirror in /etc/apt/sources.list*, else
# debootstrap's default), DEBIAN_SUITE (bookworm), JRE_IMAGE, POSTGRES_IMAGE, NO_ENV_FILE=1 (do
# not write docker/.env).
#
# Exit status: 0 ready; 3 Docker cannot run on this machine (the reason is printed);
# anything else: a step failed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SUITE="${DEBIAN_SUITE:-bookworm}"
# The suffix is the recipe's version: bump it when the recipe below changes.
JRE_IMAGE="${JRE_IMAGE:-okapigw-base/jre:17-$SUITE-1}"
POSTGRES_IMAGE="${POSTGRES_IMAGE:-okapigw-base/postgres:15-$SUITE-1}"
DOCKERD_LOG=/var/log/okapigw-dockerd.log

say() { echo "offline-setup: $*" >&2; }

# Exits with 3: this machine cannot run Docker (as opposed to a failing step).
cannot_run_docker() {
  say "DOCKER UNAVAILABLE: $*"
  exit 3
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    return 1
  fi
}

apt_updated=false
apt_install() {
  command -v apt-get >/dev/null 2>&1 || cannot_run_docker "no apt-get to install $* (install them by hand)"
  if ! $apt_updated; then
    as_root apt-get update -qq || cannot_run_docker "apt-get update failed (not root? no package mirror?)"
    apt_updated=true
  fi
  say "installing $* ..."
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || cannot_run_docker "apt-get install $* failed"
}

ensure_packages() {
  local missing=()
  command -v dockerd >/dev/null 2>&1 || docker info >/dev/null 2>&1 || missing+=(docker.io)
  command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1 \
    || missing+=(docker-compose)
  command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
  if [ ${#missing[@]} -gt 0 ]; then
    apt_install "${missing[@]}"
  fi
}

ensure_engine() {
  if docker info >/dev/null 2>&1; then
    return
  fi
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    say "starting docker with systemctl ..."
    as_root systemctl start docker || true
  elif command -v dockerd >/dev/null 2>&1; then
    if pgrep -x dockerd >/dev/null 2>&1; then
      say "dockerd is running but not answering yet; waiting ..."
    else
      say "starting dockerd in the background (log: $DOCKERD_LOG) ..."
      as_root sh -c "nohup setsid dockerd >$DOCKERD_LOG 2>&1 </dev/null &" \
        || cannot_run_docker "cannot start dockerd (not root?)"
    fi
  else
    cannot_run_docker "no Docker engine (dockerd) on this machine"
  fi
  for _ in $(seq 1 120); do
    if docker info >/dev/null 2>&1; then
      say "Docker engine $(docker version --format '{{.Server.Version}}') is up"
      return
    fi
    sleep 0.5
  done
  [ -f "$DOCKERD_LOG" ] && tail -n 20 "$DOCKERD_LOG" >&2
  cannot_run_docker "the Docker engine did not answer within 60 s"
}

# The Debian mirror this machine's apt uses (one-line or deb822 sources), or nothing.
debian_mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then
    echo "$DEBIAN_MIRROR"
    return
  fi
  local m
  m="$(grep -hsE "^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?[a-z]+://[^[:space:]]+/debian/?[[:space:]]+$SUITE[[:space:]]" \
      /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    | head -n 1 | sed -E 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/')" || true
  if [ -z "$m" ]; then
    m="$(awk -v suite="$SUITE" '
        /^[[:space:]]*$/ { uris = ""; suites = "" }
        /^URIs:/ { uris = $2 }
        /^Suites:/ { suites = " " $0 " " }
        uris ~ /\/debian\/?$/ && suites ~ (" " suite " ") { print uris; exit }' \
      /etc/apt/sources.list.d/*.sources 2>/dev/null)" || true
  fi
  echo "$m"
}

# rootfs DIR PACKAGES: a minimal Debian with PACKAGES in DIR.
rootfs() {
  local dir="$1" packages="$2" mirror
  mirror="$(debian_mirror)"
  say "debootstrap $SUITE + $packages${mirror:+ from $mirror} (about a minute) ..."
  as_root debootstrap --variant=minbase --include="$packages" "$SUITE" "$dir" ${mirror:+"$mirror"} \
    >"$dir.log" 2>&1 || { tail -n 30 "$dir.log" >&2; say "debootstrap failed (log: $dir.log)"; exit 1; }
  as_root rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/tmp/*
}

image_exists() {
  docker image inspect "$1" >/dev/null 2>&1
}

build_jre_image() {
  if image_exists "$JRE_IMAGE"; then
    say "reusing $JRE_IMAGE"
    return
  fi
  local work dir
  work="$(mktemp -d /tmp/okapigw-base.XXXXXX)"
  dir="$work/jre"
  rootfs "$dir" openjdk-17-jre-headless,ca-certificates
  as_root tar -C "$dir" -c . | docker import \
    -c 'ENV LANG=C.UTF-8' \
    -c 'ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64' \
    -c 'CMD ["bash"]' \
    -m "okapigw offline JRE base: Debian $SUITE minbase + openjdk-17-jre-headless" \
    - "$JRE_IMAGE" >/dev/null
  as_root rm -rf "$work"
  local version
  version="$(docker run --rm "$JRE_IMAGE" java -version 2>&1)"
  echo "${version%%$'\n'*}" >&2
  say "built $JRE_IMAGE"
}

# The official postgres image's conventions, the subset our compose file uses.
write_postgres_entrypoint() {
  local file="$1"
  as_root tee "$file" >/dev/null <<'EOF'
#!/bin/sh
# Entry point of the offline PostgreSQL image (docker/offline-setup.sh). Like the official
# image: POSTGRES_PASSWORD (required on first start), POSTGRES_USER (postgres), POSTGRES_DB
# (= user), PGDATA (/var/lib/postgresql/data); a database is created on first start only.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
export PGDATA
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres: POSTGRES_PASSWORD must be set to initialise $PGDATA" >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    echo "CREATE DATABASE \"$POSTGRES_DB\"" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres: initialised $PGDATA with database $POSTGRES_DB" >&2
fi
exec postgres -D "$PGDATA" "$@"
EOF
  as_root chmod 755 "$file"
}

build_postgres_image() {
  if image_exists "$POSTGRES_IMAGE"; then
    say "reusing $POSTGRES_IMAGE"
    return
  fi
  local work dir
  work="$(mktemp -d /tmp/okapigw-base.XXXXXX)"
  dir="$work/postgres"
  rootfs "$dir" postgresql-15
  # The cluster Debian's package made is not used; the entry point makes one in PGDATA.
  as_root rm -rf "$dir/var/lib/postgresql/15" "$dir/etc/postgresql/15"
  for tool in postgres initdb pg_isready pg_ctl psql; do
    as_root ln -sf "/usr/lib/postgresql/15/bin/$tool" "$dir/usr/local/bin/$tool"
  done
  write_postgres_entrypoint "$dir/usr/local/bin/docker-entrypoint.sh"
  as_root mkdir -p "$dir/var/lib/postgresql/data" "$dir/var/run/postgresql"
  as_root chroot "$dir" chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
  as_root chmod 700 "$dir/var/lib/postgresql/data"
  as_root tar -C "$dir" -c . | docker import \
    -c 'ENV LANG=C.UTF-8' \
    -c 'ENV PGDATA=/var/lib/postgresql/data' \
    -c 'USER postgres' \
    -c 'VOLUME /var/lib/postgresql/data' \
    -c 'EXPOSE 5432' \
    -c 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
    -m "okapigw offline PostgreSQL base: Debian $SUITE minbase + postgresql-15" \
    - "$POSTGRES_IMAGE" >/dev/null
  as_root rm -rf "$work"
  say "built $POSTGRES_IMAGE"
}

write_env() {
  local lines
  lines="BASE_IMAGE=$JRE_IMAGE
POSTGRES_IMAGE=$POSTGRES_IMAGE"
  if [ "${NO_ENV_FILE:-}" != 1 ]; then
    printf '# written by docker/offline-setup.sh: local base images (no registry here)\n%s\n' \
      "$lines" >"$here/.env"
    say "wrote $here/.env (read by Compose with docker/docker-compose.yml)"
  fi
  echo "$lines"
}

ensure_packages
ensure_engine
# The two images are independent; building them at once halves the wait (mostly downloads).
build_jre_image & jre=$!
build_postgres_image & pg=$!
status=0
wait "$jre" || status=1
wait "$pg" || status=1
[ "$status" -eq 0 ] || { say "building a base image failed"; exit 1; }
write_env
say "next: mvn -B -ntp -DskipTests package, then bash docker/compose.sh up --build" \
  "(runs $(bash "$here/compose.sh" which 2>/dev/null || echo 'docker compose') -f docker/docker-compose.yml up --build)"
