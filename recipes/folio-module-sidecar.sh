#!/usr/bin/env bash
# Builds Eureka's per-module sidecar (folio-module-sidecar, Quarkus) from source, outside the
# repository: $ANCHOR/folio-module-sidecar/target/quarkus-app/quarkus-run.jar.
#   ANCHOR=/work/ref bash recipes/folio-module-sidecar.sh SIDECAR_GIT APPLICATIONS_POC_TOOLS_GIT
# The git dirs come from the search tool's fetch (github:folio-org/folio-module-sidecar,
# github:folio-org/applications-poc-tools). FOLIO's own Maven repository is not reachable here, so:
# - the applications-poc-tools modules the sidecar uses (folio-auth-openid, folio-secret-store-common
#   and what they need) are built at the version the sidecar's pom pins (a release: its tag; a
#   snapshot: POC_TOOLS_REF, by default the commit checked) and installed into ~/.m2;
# - org.folio:folio-java-checkstyle is resolved even with checkstyle skipped: an empty placeholder
#   jar is installed under its coordinate;
# - AWS SDK 2.57.8 for 2.46.17 and io.quarkus:quarkus-bom 3.33.2 for io.quarkus.platform 3.38.0 (the
#   newer ones are not served here);
# - -Dmaven.compiler.proc=full: JDK 23+ turns Lombok's implicit annotation processing off.
# Java: the Temurin 25 JDK (JDK 17 fails on checkstyle 13; the sidecar is built for Java 21).
# Idempotent; about 160 s on 2 cores with a warm ~/.m2.
set -euo pipefail
sidecar_git=$1; tools_git=$2
anchor=${ANCHOR:?set ANCHOR to a folder outside the repository}
# the commits checked (2026-12): the sidecar's main and applications-poc-tools' master
sidecar_ref=${SIDECAR_REF:-abc47292cd08f31a6b849df1ee4a962a77b71951}
tools_snapshot_ref=${POC_TOOLS_REF:-54dd01f589c42f651760b3d8488132b66b395a96}
jdk=${SIDECAR_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
[ -x "$jdk/bin/javac" ] || { echo "no JDK 21+ at $jdk (set SIDECAR_JDK)" >&2; exit 2; }
export JAVA_HOME=$jdk PATH=$jdk/bin:$PATH
mvn_opts=(-B -ntp -q -DskipTests -Dcheckstyle.skip=true -Dmaven.compiler.proc=full)
mkdir -p "$anchor"

sidecar=$anchor/folio-module-sidecar
[ -d "$sidecar" ] || git clone -q "$sidecar_git" "$sidecar"
git -C "$sidecar" checkout -q -f "$sidecar_ref"
prop() { sed -n "s#.*<$1>\(.*\)</$1>.*#\1#p" "$2" | head -1; }
tools_version=$(prop applications-poc-tools.version "$sidecar/pom.xml")
checkstyle_version=$(prop folio-java-checkstyle.version "$sidecar/pom.xml")
case "$tools_version" in
  *-SNAPSHOT) tools_ref=$tools_snapshot_ref ;;
  *) tools_ref=v$tools_version ;;
esac
echo "folio-module-sidecar $(git -C "$sidecar" describe --tags --always) needs applications-poc-tools $tools_version ($tools_ref)"

# the placeholder for FOLIO's checkstyle rules (never run: checkstyle is skipped)
placeholder=$anchor/folio-java-checkstyle-placeholder
mkdir -p "$placeholder/empty"
(cd "$placeholder/empty" && jar cf "../folio-java-checkstyle-$checkstyle_version.jar" .)
mvn -B -ntp -q install:install-file -Dfile="$placeholder/folio-java-checkstyle-$checkstyle_version.jar" \
  -DgroupId=org.folio -DartifactId=folio-java-checkstyle -Dversion="$checkstyle_version" \
  -Dpackaging=jar -DgeneratePom=true

tools=$anchor/applications-poc-tools
[ -d "$tools" ] || git clone -q "$tools_git" "$tools"
git -C "$tools" checkout -q -f "$tools_ref"
built=$(prop version "$tools/folio-auth-openid/pom.xml")
[ "$built" = "$tools_version" ] || { echo "applications-poc-tools at $tools_ref is $built, not $tools_version" >&2; exit 1; }
# in the pom itself, not -D: the sidecar resolves the installed pom's property
sed -i 's#<aws.version>[^<]*</aws.version>#<aws.version>2.57.8</aws.version>#' \
  "$tools/folio-secret-store/folio-secret-store-common/pom.xml"
(cd "$tools" && mvn "${mvn_opts[@]}" install \
  -pl folio-auth-openid,folio-secret-store/folio-secret-store-common -am)

(cd "$sidecar" && mvn "${mvn_opts[@]}" -Dquarkus.platform.group-id=io.quarkus \
  -Dquarkus.platform.version=3.33.2 package)
ls -la "$sidecar/target/quarkus-app/quarkus-run.jar"
