#!/usr/bin/env bash
# Builds the trace backend the tracing tests and `./gateway demo --tracing` use: Jaeger v2
# (github.com/jaegertracing/jaeger/cmd/jaeger v1.76.0) from the Go module proxy, into
# ~/.cache/okapigw/jaeger-1.76.0/jaeger (outside the repository; kept once built).
# `go install ...@v1.76.0` refuses the module (its go.mod has replace directives), so the module is
# downloaded and built in a copy. Bounded: JAEGER_BUILD_TIMEOUT seconds (default 1500).
# It also copies the binary and its configuration into docker/jaeger of this checkout, the build
# context of the compose cluster's jaeger service (docker/jaeger.Dockerfile, profile `tracing`),
# and Jaeger's UI where there is one: the Go module carries none (a build of it serves only a
# placeholder page), so the UI comes as assets from outside, OKAPIGW_JAEGER_UI (default
# ~/.cache/okapigw/jaeger-ui-1.76.0, a directory with jaeger-ui's index.html), which the script
# fills from jaeger-ui's release v1.76.0 (assets.tar.gz) where GitHub answers; see
# docs/operations.md, "Tracing and access logs".
# Exit 0: built (or already there); 3: Go is missing or the build failed or took too long.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# the image's build context: binary and configuration, outside git (docker/jaeger/.gitignore)
ui="${OKAPIGW_JAEGER_UI:-$HOME/.cache/okapigw/jaeger-ui-1.76.0}"
# Jaeger's UI: the assets jaeger-ui publishes with its release v1.76.0 (the one Jaeger v1.76.0
# embeds; the archive holds packages/jaeger-ui/build/), fetched once where GitHub answers
# (JAEGER_UI_URL names another copy). Nothing is built; where it cannot be had, a notice.
fetch_ui() {
  [ -f "$ui/index.html" ] && return 0
  local url="${JAEGER_UI_URL:-https://github.com/jaegertracing/jaeger-ui/releases/download/$version/assets.tar.gz}"
  local tmp
  tmp=$(mktemp -d)
  if curl -sSfL --max-time 120 -o "$tmp/assets.tar.gz" "$url" 2>"$tmp/err" \
    && mkdir -p "$tmp/ui" \
    && tar -xzf "$tmp/assets.tar.gz" -C "$tmp/ui" --strip-components=3 packages/jaeger-ui/build \
    && [ -f "$tmp/ui/index.html" ]; then
    mkdir -p "$(dirname "$ui")" && rm -rf "$ui" && mv "$tmp/ui" "$ui" \
      && echo "jaeger: Jaeger's UI from $url into $ui"
  else
    echo "jaeger: NOTICE: Jaeger's UI could not be had from $url ($(head -c 200 "$tmp/err" | tr '\n' ' '))"
  fi
  rm -rf "$tmp"
}
docker_context() {
  fetch_ui
  rm -rf "$root/docker/jaeger/ui"
  mkdir -p "$root/docker/jaeger/ui" \
    && cp "$out" "$root/docker/jaeger/jaeger" \
    && cp "$root/demo/src/main/resources/jaeger.yaml" "$root/docker/jaeger/jaeger.yaml" \
    && echo "jaeger: copied it and its configuration into $root/docker/jaeger (docker/jaeger.Dockerfile)" \
    || return 1
  if [ -f "$ui/index.html" ]; then
    cp -r "$ui/." "$root/docker/jaeger/ui/" && echo "jaeger: and its UI, from $ui"
  else
    echo "jaeger: NOTICE: no Jaeger UI assets in $ui (OKAPIGW_JAEGER_UI): Jaeger will show its placeholder page, the query API works"
  fi
}
version=v1.76.0
out="${OKAPIGW_JAEGER:-$HOME/.cache/okapigw/jaeger-1.76.0/jaeger}"
if [ -x "$out" ]; then
  echo "jaeger: $out already built"
  docker_context
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "jaeger: no Go toolchain on the PATH"
  exit 3
fi
src=$(go mod download -json "github.com/jaegertracing/jaeger@$version" 2>/dev/null \
  | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$src" ] || [ ! -d "$src" ]; then
  echo "jaeger: could not download github.com/jaegertracing/jaeger@$version"
  exit 3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/jaeger" && chmod -R u+w "$work/jaeger"
mkdir -p "$(dirname "$out")"
start=$(date +%s)
if (cd "$work/jaeger" && timeout "${JAEGER_BUILD_TIMEOUT:-1500}" go build -o "$out.tmp" ./cmd/jaeger); then
  mv "$out.tmp" "$out"
  echo "jaeger: built $out in $(( $(date +%s) - start ))s"
  docker_context
  exit 0
fi
rm -f "$out.tmp"
echo "jaeger: build failed or took longer than ${JAEGER_BUILD_TIMEOUT:-1500}s"
exit 3
