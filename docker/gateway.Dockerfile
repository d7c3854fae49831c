# The gateway: a node of the cluster (`cluster ...`) or a single node (`dev`).
# Only the fat jar goes in; build it first (mvn -B -DskipTests package), then, from the root:
#   docker build -f docker/gateway.Dockerfile -t okapigw/gateway okapi-core/target
# Without an image registry, pass the base image docker/offline-setup.sh prints:
#   --build-arg BASE_IMAGE=okapigw-base/jre:17-bookworm-1
#
# Okapi's image conventions (folioci/alpine-jre-openjdk*, run-java.sh) hold too, so a compose file
# or Helm values that run Okapi run this image by changing the image name: JAVA_OPTIONS holds the
# JVM's options and Okapi's -D keys (word-split, as run-java.sh does), the container's arguments
# are the command line (`dev`, `cluster -hazelcast-config-file /hz.xml`, ...), and the jar is also
# at Okapi's path, /usr/verticles/okapi-core-fat.jar, the working directory.
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

LABEL org.opencontainers.image.title="okapigw gateway" \
      org.opencontainers.image.description="Okapi-compatible API gateway with auth-decision caching"

RUN groupadd --gid 10001 okapigw \
 && useradd --uid 10001 --gid okapigw --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin okapigw \
 && mkdir -p /usr/verticles \
 && ln -s /app/gateway.jar /usr/verticles/okapi-core-fat.jar
COPY okapi-core-fat.jar /app/gateway.jar
WORKDIR /usr/verticles
USER okapigw

# HTTP (admin API and proxy), Hazelcast member port.
EXPOSE 9130 5701
ENV HEALTH_PORT=9130 \
    JAVA_OPTIONS="" \
    JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# No curl in a minimal JRE image: bash opens the TCP connection itself (/dev/tcp) and the
# check passes on "HTTP/1.1 200" from /_/proxy/health. Set HEALTH_PORT if the port changes.
HEALTHCHECK --interval=5s --timeout=5s --start-period=180s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/$HEALTH_PORT && printf 'GET /_/proxy/health HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q ' 200'"]

# JAVA_OPTIONS unquoted: one option per word, as Okapi's run-java.sh passes them (no globbing).
ENTRYPOINT ["sh", "-c", "set -f; exec java $JAVA_OPTIONS -jar /app/gateway.jar \"$@\"", "gateway"]
CMD ["dev"]
