#!/usr/bin/env bash
# Builds FOLIO's login chain as one consistent release set (Quesnelia, R1-2024) from source into
# $ANCHOR (outside the repository):
#   mod-permissions v6.5.0   (RMB 35.2.0, Java 17)  -> anchor/mod-permissions/target/mod-permissions-fat.jar
#   mod-login       v7.11.2  (RMB 35.2.2, Java 17)  -> anchor/mod-login/target/mod-login-fat.jar
#   mod-users       v19.3.2  (RMB 35.2.0, Java 17)  -> anchor/mod-users/target/mod-users-fat.jar
#   mod-users-bl    v7.7.5   (RMB 35.2.0, Java 17)  -> anchor/mod-users-bl/target/mod-users-bl-fat.jar
#   mod-authtoken   v2.15.3  (okapi-common 5.3.0, vertx-lib 3.2.0) -> anchor/mod-authtoken/target/mod-authtoken-fat.jar
# Why these tags: the raml-module-builder (RMB) mirror ends at v35.2.2 (Aug 2024), so each module is
# the newest release on an RMB <= 35.2.2. ../shared/recipes/folio-auth-chain.sh pairs mod-users-bl
# 7.8.1 (Ramsons) with these; Ramsons' login chain wants mod-login 7.12.x (RMB 35.3.0, not fetchable)
# and mod-authtoken 2.16.x, so this script takes Quesnelia's set instead: mod-users-bl 7.7.5 with
# mod-login 7.11.2 and mod-authtoken 2.15.3 (also fetched: folio-org/mod-authtoken, folio-vertx-lib).
# A copy of the shared recipe (which is reset each session) with those tags; `ONLY=` picks modules.
#
#   build.sh [NAME=GIT_DIR ...]
# GIT_DIR are bare git dirs from the search tool's fetch of github:folio-org/NAME; a NAME not given
# defaults to $MIRROR/folio-org+NAME/repo (MIRROR: the folder holding the fetched git dirs). NAMEs used: raml-module-builder raml okapi
# mod-configuration mod-permissions mod-login mod-users mod-users-bl folio-service-tools
# folio-di-support folio-custom-fields folio-s3-client folio-kafka-wrapper mod-authtoken folio-vertx-lib.
#
# FOLIO's Maven repository is unreachable, so every FOLIO artifact is built here and installed in ~/.m2:
#   okapi-common/okapi-testing 5.3.0 (RMB 35.2.x pins them), okapi-common 4.14.8 (folio-kafka-wrapper
#   3.0.0 pins it), RMB 35.2.0 and 35.2.2 (util, testing, postgres-testing, dbschema, cql2pgjson,
#   domain-models-*), folio-service-tools 4.0.0 (-dev, -test), folio-di-support 2.1.0,
#   folio-custom-fields 2.1.0, folio-s3-client 2.1.0, folio-kafka-wrapper 3.0.0, and
#   mod-configuration-client 5.10.0 (folio-service-tools-dev and mod-users-bl need it).
# Workarounds: the RMB mirror lacks the blob domain-models-runtime/src/main/resources/apidocs/scripts/
#   api-console-vendor.js (HTML API console vendor bundle) -> sparse checkout + one-line stub;
#   git submodules (ramls/raml-util, mod-users sample data) are cloned from the raml / mod-users git dirs
#   at the commits the tags pin; -Dmaven.test.skip=true -Dcheckstyle.skip. Poms patched: see *.patch.
# Idempotent: a step is skipped when its artifact is already in ~/.m2 (libraries) or its fat jar exists
# (modules); FORCE=1 rebuilds everything. Build dirs: anchor/lib/<name>-<version>, anchor/<module>.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "${ANCHOR:?set ANCHOR to a folder outside the repository}/lib"
anchor=$(cd "${ANCHOR:?set ANCHOR to a folder outside the repository}" && pwd)
export JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(which javac)")")")}
M2=${M2:-$HOME/.m2/repository}
MVN="mvn -q -B -Dmaven.test.skip=true -Dcheckstyle.skip -Dmaven.javadoc.skip=true -Dmaven.source.skip=true"
FORCE=${FORCE:-}
declare -A GIT
for a in "$@"; do GIT[${a%%=*}]=${a#*=}; done
gitdir() { local d=${GIT[$1]:-${MIRROR:?set MIRROR to the folder of fetched git dirs}/folio-org+$1/repo}; [ -d "$d" ] || { echo "no git dir for $1 ($d)" >&2; exit 2; }; echo "$d"; }
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
have() { [ -z "$FORCE" ] || return 1; local a; for a in ${1//,/ }; do [ -f "$M2/$a" ] || return 1; done; }  # paths under ~/.m2/repository, comma-separated

# clone NAME TAG DEST [SPARSE_EXCLUDE]: fresh checkout of TAG, submodules from the known git dirs
clone() {
  local name=$1 tag=$2 dest=$3 excl=${4:-}
  rm -rf "$dest"; git clone -q --no-checkout "$(gitdir "$name")" "$dest"
  if [ -n "$excl" ]; then git -C "$dest" sparse-checkout set --no-cone '/*' "!/$excl"; fi
  git -C "$dest" -c advice.detachedHead=false checkout -q "$tag"
  if [ -n "$excl" ] && [ ! -s "$dest/$excl" ]; then echo '/* stub: blob absent from the mirror */' > "$dest/$excl"; fi
  git -C "$dest" ls-tree -r HEAD | awk '$2=="commit"{print $3, $4}' | while read -r sha path; do
    case "$path" in
      */raml-util|raml-util) sub=raml ;;
      mod-users) sub=mod-users ;;
      *) echo "unknown submodule $path in $name" >&2; exit 2 ;;
    esac
    rm -rf "${dest:?}/$path"; git clone -q --no-checkout "$(gitdir $sub)" "$dest/$path"
    git -C "$dest/$path" -c advice.detachedHead=false checkout -q "$sha"
  done
}

# 1. okapi-common (+ okapi-testing) 5.3.0 and okapi-common 4.14.8
if ! have org/folio/okapi/okapi-testing/5.3.0/okapi-testing-5.3.0.jar; then
  clone okapi v5.3.0 "$anchor/lib/okapi-5.3.0"
  (cd "$anchor/lib/okapi-5.3.0" && $MVN install -pl okapi-common,okapi-testing -am); log "okapi 5.3.0 installed"
fi
if ! have org/folio/okapi/okapi-common/4.14.8/okapi-common-4.14.8.jar; then
  clone okapi v4.14.8 "$anchor/lib/okapi-4.14.8"
  (cd "$anchor/lib/okapi-4.14.8" && $MVN install -pl okapi-common -am); log "okapi-common 4.14.8 installed"
fi

# 2. RMB 35.2.0 and 35.2.2 (runtime, maven plugin, testing, postgres-testing)
for v in 35.2.0 35.2.2; do
  if ! have org/folio/testing/$v/testing-$v.jar || ! have org/folio/domain-models-runtime/$v/domain-models-runtime-$v.jar; then
    clone raml-module-builder v$v "$anchor/lib/rmb-$v" \
      domain-models-runtime/src/main/resources/apidocs/scripts/api-console-vendor.js
    (cd "$anchor/lib/rmb-$v" && $MVN install -pl domain-models-runtime,postgres-testing,testing -am)
    log "RMB $v installed"
  fi
done

# 3. libraries mod-users 19.3.2 needs
lib() {  # lib NAME VERSION ARTIFACT_PATH [MVN_ARGS...]
  local name=$1 v=$2 art=$3; shift 3
  have "$art" && return 0
  clone "$name" "v$v" "$anchor/lib/$name-$v"
  (cd "$anchor/lib/$name-$v" && $MVN install "$@"); log "$name $v installed"
}
# mod-configuration-client 5.10.0 (folio-service-tools-dev and mod-users-bl need it)
lib mod-configuration 5.10.0 org/folio/mod-configuration-client/5.10.0/mod-configuration-client-5.10.0.jar \
  -pl mod-configuration-client -am
lib folio-service-tools 4.0.0 org/folio/folio-service-tools-test/4.0.0/folio-service-tools-test-4.0.0.jar,org/folio/folio-service-tools-dev/4.0.0/folio-service-tools-dev-4.0.0.jar \
  -pl folio-service-tools-dev,folio-service-tools-test -am
lib folio-di-support 2.1.0 org/folio/folio-di-support/2.1.0/folio-di-support-2.1.0.jar
lib folio-custom-fields 2.1.0 org/folio/folio-custom-fields/2.1.0/folio-custom-fields-2.1.0.jar
lib folio-s3-client 2.1.0 org/folio/folio-s3-client/2.1.0/folio-s3-client-2.1.0.jar
lib folio-kafka-wrapper 3.0.0 org/folio/folio-kafka-wrapper/3.0.0/folio-kafka-wrapper-3.0.0.jar

# 4. the modules
module() {  # module NAME TAG
  local name=$1 tag=$2 jar="$anchor/$1/target/$1-fat.jar"
  if [ -z "$FORCE" ] && [ -f "$jar" ] && [ "$(cat "$anchor/$name/.built-tag" 2>/dev/null)" = "$tag" ]; then
    log "$name $tag: already built"; return 0
  fi
  local s=$(date +%s)
  clone "$name" "$tag" "$anchor/$name"
  for p in "$here/$name"-*.patch; do [ -f "$p" ] && (cd "$anchor/$name" && patch -s -p1 < "$p"); done
  (cd "$anchor/$name" && $MVN -Dexec.skip=true package)   # exec: only "git submodule update" (done above)
  echo "$tag" > "$anchor/$name/.built-tag"
  log "$name $tag built in $(( $(date +%s) - s ))s: $(ls -la "$jar")"
}
# mod-authtoken v2.15.3: its pom pins okapi-common 5.3.0 (step 1) and vertx-lib 3.2.0 (built here);
# no pom patch needed (2.15.3 has neither the descriptor-validator plugin nor pg-testing).
authtoken() {
  local tag=v2.15.3 jar="$anchor/mod-authtoken/target/mod-authtoken-fat.jar"
  if [ -z "$FORCE" ] && [ -f "$jar" ] && [ "$(cat "$anchor/mod-authtoken/.built-tag" 2>/dev/null)" = "$tag" ]; then
    log "mod-authtoken $tag: already built"; return 0
  fi
  lib folio-vertx-lib 3.2.0 org/folio/vertx-lib/3.2.0/vertx-lib-3.2.0.jar -pl core -am
  local s=$(date +%s)
  clone mod-authtoken "$tag" "$anchor/mod-authtoken"
  (cd "$anchor/mod-authtoken" && $MVN package)
  echo "$tag" > "$anchor/mod-authtoken/.built-tag"
  log "mod-authtoken $tag built in $(( $(date +%s) - s ))s: $(ls -la "$jar")"
}
only=${ONLY:-mod-permissions mod-login mod-users-bl mod-users mod-authtoken}
for m in $only; do
  case $m in
    mod-permissions) module mod-permissions v6.5.0 ;;
    mod-login) module mod-login v7.11.2 ;;
    mod-users-bl) module mod-users-bl v7.7.5 ;;
    mod-users) module mod-users v19.3.2 ;;
    mod-authtoken) authtoken ;;
  esac
done
log "done"
