package io.okapigw.it.eureka;

import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real folio-module-sidecar (Eureka's per-module sidecar, Quarkus), built from source outside the
 * project by the repository's {@code recipes/folio-module-sidecar.sh}: one process in front of one
 * module, as Eureka runs them. Found by {@code -Dokapigw.sidecar.jar} (default {@value
 * #JAR_DEFAULT}, the same anchor as the reference Okapis), run on {@code -Dokapigw.sidecar.java}
 * (default the Temurin 25 JDK: it is built for Java 21).
 */
final class ModuleSidecar implements AutoCloseable {

  static final String JAR_KEY = "okapigw.sidecar.jar";
  static final String JAR_DEFAULT =
      "/work/ref/folio-module-sidecar/target/quarkus-app/quarkus-run.jar";
  static final String JAVA_KEY = "okapigw.sidecar.java";
  static final String JAVA_DEFAULT = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";

  private final JavaProcess process;
  private final String moduleId;
  private final int port;

  private ModuleSidecar(JavaProcess process, String moduleId, int port) {
    this.process = process;
    this.moduleId = moduleId;
    this.port = port;
  }

  /**
   * @return why no sidecar can run here (its jar or its Java is missing, with how to build it), or
   *     empty
   */
  static Optional<String> missing() {
    for (Path needed : List.of(jar(), java())) {
      if (!Files.exists(needed)) {
        return Optional.of(
            needed
                + " is missing (build folio-module-sidecar with ANCHOR=/work/ref bash"
                + " recipes/folio-module-sidecar.sh SIDECAR_GIT APPLICATIONS_POC_TOOLS_GIT;"
                + " -D"
                + JAR_KEY
                + "=PATH to its quarkus-run.jar, -D"
                + JAVA_KEY
                + "=PATH to a Java 21+)");
      }
    }
    return Optional.empty();
  }

  private static Path jar() {
    return Path.of(System.getProperty(JAR_KEY, JAR_DEFAULT));
  }

  private static Path java() {
    return Path.of(System.getProperty(JAVA_KEY, JAVA_DEFAULT));
  }

  /**
   * Where a sidecar listens and what it talks to.
   *
   * @param name the module's name ({@code mod-things})
   * @param version its version ({@code 1.0.0}): the module id is {@code name-version}
   * @param port the sidecar's port
   * @param moduleUrl the module behind it
   * @param managers mgr-applications, mgr-tenants and mgr-tenant-entitlements (one stub)
   * @param keycloak the Keycloak URL it calls (a counting proxy in front of Keycloak)
   * @param kafka the Kafka bootstrap address
   * @param secrets FOLIO's secret store content: key to secret
   */
  record Settings(
      String name,
      String version,
      int port,
      String moduleUrl,
      String managers,
      String keycloak,
      String kafka,
      Map<String, String> secrets) {

    String moduleId() {
      return name + "-" + version;
    }

    String url() {
      return "http://127.0.0.1:" + port;
    }
  }

  /**
   * Starts the sidecar and waits until it has read its module's bootstrap from mgr-applications and
   * its tenants from mgr-tenant-entitlements and mgr-tenants ("Module is enabled for tenants"). Its
   * settings are system properties: the environment form of the secret store ({@code
   * SECRET_STORE_EPHEMERAL_CONTENT_*}) is not resolved by it.
   */
  static ModuleSidecar start(Settings s, Path log, Duration timeout) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Xmx256m",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + s.port(),
                "-Dmodule.name=" + s.name(),
                "-Dmodule.version=" + s.version(),
                "-Dmodule.url=" + s.moduleUrl(),
                "-Dsidecar.url=" + s.url(),
                "-Dam.url=" + s.managers(),
                "-Dte.url=" + s.managers(),
                "-Dtm.url=" + s.managers(),
                "-Dmod-users-keycloak.url=" + s.managers(),
                "-Dkeycloak.url=" + s.keycloak(),
                "-Dkeycloak.jwks-base-url=" + s.keycloak(),
                // tokens are issued by Keycloak's own URL, the sidecar calls it through the counter
                "-Dkeycloak.uri-validation.enabled=false",
                "-D%prod.kafka.bootstrap.servers=" + s.kafka(),
                "-Dsecret-store.type=EPHEMERAL"));
    s.secrets().forEach((k, v) -> args.add("-Dsecret-store.ephemeral.content." + k + "=" + v));
    args.add("-jar");
    args.add(jar().toString());
    JavaProcess process = JavaProcess.start("sidecar of " + s.moduleId(), java(), args, log);
    ModuleSidecar sidecar = new ModuleSidecar(process, s.moduleId(), s.port());
    sidecar.awaitLog("Module is enabled for tenants", timeout);
    return sidecar;
  }

  private void awaitLog(String line, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "sidecar of " + moduleId + " exited:\n" + process.outputTail());
      }
      if (process.output().contains(line)) {
        return;
      }
      JavaProcess.pause(200);
    }
    String tail = process.outputTail();
    process.close();
    throw new IllegalStateException(
        "sidecar of " + moduleId + " did not log '" + line + "' within " + timeout + ":\n" + tail);
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  long pid() {
    return process.pid();
  }

  String outputTail() {
    return process.outputTail();
  }

  @Override
  public void close() {
    process.close();
  }
}
