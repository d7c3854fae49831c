# The gateway: a node of the cluster (`cluster ...`) or a single node (`dev`).
# Only the fat jar goes in; build it first (mvn -B -DskipTests package), then, from the root:
#   docker build -f docker/gateway.Dockerfile -t okapigw/gateway okapi-core/target
# Without an image registry, pass the base image docker/offline-setup.sh prints:
#   --build-arg BASE_IMAGE=okapigw-base/jre:17-bookworm-1
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

LABEL org.opencontainers.image.title="okapigw gateway" \
      org.opencontainers.image.description="Okapi-compatible API gateway with auth-decision caching"

RUN groupadd --gid 10001 okapigw \
 && useradd --uid 10001 --gid okapigw --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin okapigw
COPY okapi-core-fat.jar /app/gateway.jar
WORKDIR /app
USER okapigw

# HTTP (admin API and proxy), Hazelcast member port.
EXPOSE 9130 5701
ENV HEALTH_PORT=9130 \
    JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# No curl in a minimal JRE image: bash opens the TCP connection itself (/dev/tcp) and the
# check passes on "HTTP/1.1 200" from /_/proxy/health. Set HEALTH_PORT if --port changes.
HEALTHCHECK --interval=5s --timeout=5s --start-period=180s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/$HEALTH_PORT && printf 'GET /_/proxy/health HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q ' 200'"]

ENTRYPOINT ["java", "-jar", "/app/gateway.jar"]
CMD ["dev", "--port", "9130"]
