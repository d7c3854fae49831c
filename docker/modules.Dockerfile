# The simulated FOLIO circulation modules (folio-modules jar, `modules` command: eight modules on
# ports 9301-9309, manifest and health on 9300), and the one-shot `register` job.
# Only the fat jar goes in; build it first (mvn -B -DskipTests package), then, from the root:
#   docker build -f docker/modules.Dockerfile -t okapigw/modules folio-modules/target
# Without an image registry: --build-arg BASE_IMAGE=<what docker/offline-setup.sh prints>.
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

LABEL org.opencontainers.image.title="okapigw simulated circulation modules" \
      org.opencontainers.image.description="Simulated FOLIO modules behind check-out and check-in"

RUN groupadd --gid 10001 okapigw \
 && useradd --uid 10001 --gid okapigw --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin okapigw
COPY folio-modules-fat.jar /app/folio-modules.jar
WORKDIR /app
USER okapigw

EXPOSE 9300-9309
ENV HEALTH_PORT=9300 \
    JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# No curl in a minimal JRE image: bash's /dev/tcp asks GET /health for "HTTP/1.1 200".
HEALTHCHECK --interval=5s --timeout=5s --start-period=120s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/$HEALTH_PORT && printf 'GET /health HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q ' 200'"]

ENTRYPOINT ["java", "-jar", "/app/folio-modules.jar"]
CMD ["modules", "--host", "0.0.0.0", "--port", "9300", "--advertise-host", "modules"]
