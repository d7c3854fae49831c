#!/usr/bin/env bash
# Runs docker/docker-compose.yml with whichever Compose this machine has: `docker compose` (the
# plugin) or `docker-compose` (1.29, Debian's, which docker/offline-setup.sh installs). Prints the
# command it runs, so that you can use it directly next time. Any arguments go to Compose:
#
#   bash docker/compose.sh up --build          # build the images from the fat jars, start
#   bash docker/compose.sh logs -f gateway-1
#   bash docker/compose.sh down                # add -v to drop the volumes
#
# `bash docker/compose.sh which` prints the command only.
set -euo pipefail
file="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/docker-compose.yml"

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  echo "compose.sh: neither 'docker compose' nor 'docker-compose' is installed" \
    "(bash docker/offline-setup.sh installs docker-compose)" >&2
  exit 1
fi

if [ "${1:-}" = which ]; then
  echo "${compose[*]}"
  exit 0
fi
echo "+ ${compose[*]} -f docker/docker-compose.yml $*" >&2
exec "${compose[@]}" -f "$file" "$@"
