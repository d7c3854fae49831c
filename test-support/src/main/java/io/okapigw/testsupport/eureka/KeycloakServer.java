package io.okapigw.testsupport.eureka;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real Keycloak ({@code org.keycloak:keycloak-quarkus-dist} from Maven Central, unpacked by
 * it-tests' {@code eureka} profile), started with {@code kc.sh start-dev} on loopback: H2 in
 * memory, an admin {@code admin}/{@code admin} in the master realm. It needs Java 21 or later:
 * {@code -Dokapigw.keycloak.java=JAVA_HOME}, else a Temurin 25 or 21 under {@code /usr/lib/jvm},
 * else the {@code JAVA_HOME} of the environment.
 */
public final class KeycloakServer implements AutoCloseable {

  /** Where the unpacked distribution is ({@code keycloak-26.4.0/}, with {@code bin/kc.sh}). */
  public static final String HOME = "okapigw.keycloak.home";

  /** The admin user and password of the master realm. */
  public static final String ADMIN = "admin";

  private final Process process;
  private final Path log;
  private final String url;

  private KeycloakServer(Process process, Path log, String url) {
    this.process = process;
    this.log = log;
    this.url = url;
  }

  /**
   * @return the unpacked distribution, if {@code -Dokapigw.keycloak.home} names one
   */
  public static Optional<Path> home() {
    String home = System.getProperty(HOME);
    if (home == null || home.isBlank()) {
      return Optional.empty();
    }
    Path kc = Path.of(home).resolve("bin/kc.sh");
    return Files.isRegularFile(kc) ? Optional.of(Path.of(home)) : Optional.empty();
  }

  /**
   * @return why Keycloak cannot start here, or empty if it can
   */
  public static Optional<String> missing() {
    if (home().isEmpty()) {
      return Optional.of(
          "no Keycloak distribution (-D"
              + HOME
              + "="
              + System.getProperty(HOME)
              + "; it-tests' eureka profile, -Peureka, unpacks it)");
    }
    if (javaHome().isEmpty()) {
      return Optional.of("no Java 21 or later for Keycloak (-Dokapigw.keycloak.java=JAVA_HOME)");
    }
    return Optional.empty();
  }

  /**
   * Starts Keycloak on a free port and waits until its master realm answers (Keycloak's first start
   * builds itself: minutes on a busy machine).
   *
   * @param dir where its log goes
   */
  public static KeycloakServer start(Path dir, Duration timeout) throws IOException {
    return start(dir, FreePorts.belowEphemeralRange(), timeout);
  }

  /**
   * As {@link #start(Path, Duration)}, on {@code port}: a gateway can be told its URL before it
   * starts ({@link #url(int)}).
   */
  public static KeycloakServer start(Path dir, int port, Duration timeout) throws IOException {
    Path home = home().orElseThrow(() -> new IllegalStateException(missing().orElse("")));
    Path log = dir.resolve("keycloak.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                home.resolve("bin/kc.sh").toString(),
                "start-dev",
                "--db",
                "dev-mem",
                "--http-port",
                Integer.toString(port),
                "--http-host",
                "127.0.0.1",
                "--http-management-port",
                Integer.toString(FreePorts.belowEphemeralRange()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("JAVA_HOME", javaHome().orElseThrow().toString());
    builder.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN);
    builder.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", ADMIN);
    builder.environment().put("JAVA_OPTS_APPEND", "-Xms64m -Xmx512m");
    KeycloakServer server = new KeycloakServer(builder.start(), log, "http://127.0.0.1:" + port);
    try {
      server.awaitReady(timeout);
      return server;
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private void awaitReady(Duration timeout) throws IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (!JavaProcess.answers(url + "/realms/master")) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        throw new IOException(
            "Keycloak did not start within " + timeout + " (log " + log + "):\n" + tail());
      }
      JavaProcess.pause(500);
    }
  }

  private String tail() throws IOException {
    String text = Files.readString(log);
    return text.substring(Math.max(0, text.length() - 3000));
  }

  /**
   * @return Keycloak's base URL, {@code http://127.0.0.1:PORT}
   */
  public String url() {
    return url;
  }

  /**
   * @return the base URL of a Keycloak started on {@code port}
   */
  public static String url(int port) {
    return "http://127.0.0.1:" + port;
  }

  private static Optional<Path> javaHome() {
    String given = System.getProperty("okapigw.keycloak.java");
    if (given != null && Files.isExecutable(Path.of(given, "bin/java"))) {
      return Optional.of(Path.of(given));
    }
    for (String candidate :
        new String[] {"/usr/lib/jvm/temurin-25-jdk-amd64", "/usr/lib/jvm/temurin-21-jdk-amd64"}) {
      if (Files.isExecutable(Path.of(candidate, "bin/java"))) {
        return Optional.of(Path.of(candidate));
      }
    }
    String env = System.getenv("JAVA_HOME");
    return Runtime.version().feature() >= 21 && env != null
        ? Optional.of(Path.of(env))
        : Optional.empty();
  }

  @Override
  public void close() {
    Stream.concat(process.descendants(), Stream.of(process.toHandle()))
        .forEach(ProcessHandle::destroy);
    try {
      process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Stream.concat(process.descendants(), Stream.of(process.toHandle()))
        .forEach(ProcessHandle::destroyForcibly);
  }
}
