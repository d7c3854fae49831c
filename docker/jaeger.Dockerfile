# Jaeger v2 (github.com/jaegertracing/jaeger/cmd/jaeger v1.76.0), all in one and in memory, for the
# compose cluster's `tracing` profile (see docker/docker-compose.yml). No Jaeger image can be pulled
# here, so it is the binary .ci/jaeger.sh builds, on the local base image. .ci/jaeger.sh also copies
# the binary and its configuration (demo/src/main/resources/jaeger.yaml) into docker/jaeger, this
# image's build context; by hand, from the root:
#   bash .ci/jaeger.sh
#   docker build -f docker/jaeger.Dockerfile -t okapigw/jaeger \
#     --build-arg BASE_IMAGE=okapigw-base/jre:17-bookworm-1 docker/jaeger
# The binary needs only libc (ldd), which every Debian-based base has.
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

LABEL org.opencontainers.image.title="okapigw jaeger" \
      org.opencontainers.image.description="Jaeger v2 all-in-one (in memory) for the okapigw demo cluster"

RUN groupadd --gid 10002 jaeger \
 && useradd --uid 10002 --gid jaeger --home-dir /jaeger --no-create-home \
      --shell /usr/sbin/nologin jaeger
COPY jaeger /usr/local/bin/jaeger
COPY jaeger.yaml /etc/jaeger/jaeger.yaml
# Jaeger's UI assets where .ci/jaeger.sh found them (OKAPIGW_JAEGER_UI); else empty, and Jaeger
# serves the placeholder page its build from the Go module carries
COPY ui /usr/share/jaeger-ui
USER jaeger

# OTLP over HTTP in (4318), the query API and UI (16686), the query API over gRPC (16685).
EXPOSE 4318 16686 16685
ENV JAEGER_HOST=0.0.0.0 \
    JAEGER_OTLP_PORT=4318 \
    JAEGER_QUERY_PORT=16686 \
    JAEGER_QUERY_GRPC_PORT=16685
HEALTHCHECK --interval=5s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/$JAEGER_QUERY_PORT && printf 'GET /api/services HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q ' 200'"]

ENTRYPOINT ["bash", "-c", "if [ -f /usr/share/jaeger-ui/index.html ]; then export JAEGER_UI_ASSETS=/usr/share/jaeger-ui; fi; exec /usr/local/bin/jaeger --config /etc/jaeger/jaeger.yaml"]
