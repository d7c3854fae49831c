# The authtoken module: logins, JWTs, users, permissions and the Okapi auth filter.
# Only the fat jar goes in; build it first (mvn -B -DskipTests package), then, from the root:
#   docker build -f docker/authtoken.Dockerfile -t okapigw/authtoken authtoken-module/target
# Without an image registry: --build-arg BASE_IMAGE=<what docker/offline-setup.sh prints>.
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

LABEL org.opencontainers.image.title="okapigw authtoken module" \
      org.opencontainers.image.description="Logins, JWTs, users, permissions, Okapi auth filter"

RUN groupadd --gid 10001 okapigw \
 && useradd --uid 10001 --gid okapigw --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin okapigw \
 && mkdir -p /data \
 && chown okapigw:okapigw /data
COPY authtoken-module-fat.jar /app/authtoken.jar
WORKDIR /app
USER okapigw

# /data: the JSON store (json:/data/store) and the signing key. Several instances sharing a
# PostgreSQL store must share the key file too (a volume).
VOLUME /data
EXPOSE 8081
ENV HEALTH_PORT=8081 \
    JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# No curl in a minimal JRE image: bash's /dev/tcp asks GET /admin/health for "HTTP/1.1 200".
HEALTHCHECK --interval=5s --timeout=5s --start-period=180s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/$HEALTH_PORT && printf 'GET /admin/health HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q ' 200'"]

ENTRYPOINT ["java", "-jar", "/app/authtoken.jar"]
CMD ["--port", "8081", "--store", "json:/data/store", "--signing-key-file", "/data/signing.key"]
