package io.okapigw.it;

import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * An Okapi built from source outside the project (docs: ../shared/ENVIRONMENT.md), for tests that
 * check this gateway against it; where it is absent those tests are skipped with a notice saying
 * what is missing and how to point at it.
 *
 * @param version what it is ({@code 6.1.5}, {@code 7.0.7})
 * @param jar its {@code okapi-core-fat.jar}
 * @param java the {@code java} it runs on (7.0.x needs Java 21 or later)
 * @param testModule the {@code okapi-test-module-fat.jar} of the same tree
 */
public record ReferenceOkapi(String version, Path jar, Path java, Path testModule) {

  /**
   * Okapi 6.1.5: {@code -Dokapigw.okapi615.jar} (default {@code
   * /work/ref/okapi-6.1.5/okapi-core/target/okapi-core-fat.jar}), on this JVM's Java.
   */
  public static Optional<ReferenceOkapi> v615() {
    return find(
        "6.1.5",
        "okapigw.okapi615.jar",
        "/work/ref/okapi-6.1.5/okapi-core/target/okapi-core-fat.jar",
        "okapigw.okapi615.java",
        Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /**
   * Okapi 7.0.7: {@code -Dokapigw.okapi707.jar} (default {@code
   * /work/ref/okapi-7.0.7/okapi-core/target/okapi-core-fat.jar}), on {@code
   * -Dokapigw.okapi707.java} (default {@code /usr/lib/jvm/temurin-25-jdk-amd64/bin/java}).
   */
  public static Optional<ReferenceOkapi> v707() {
    return find(
        "7.0.7",
        "okapigw.okapi707.jar",
        "/work/ref/okapi-7.0.7/okapi-core/target/okapi-core-fat.jar",
        "okapigw.okapi707.java",
        "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
  }

  private static Optional<ReferenceOkapi> find(
      String version, String jarKey, String jarDefault, String javaKey, String javaDefault) {
    Path jar = Path.of(System.getProperty(jarKey, jarDefault));
    Path java = Path.of(System.getProperty(javaKey, javaDefault));
    Path testModule =
        jar.toAbsolutePath()
            .resolveSibling("../../okapi-test-module/target/okapi-test-module-fat.jar")
            .normalize();
    for (Path needed : List.of(jar, java, testModule)) {
      if (!Files.exists(needed)) {
        System.err.printf(
            "NOTICE: Okapi %s tests skipped: %s is missing (build Okapi %s from source:"
                + " git clone https://github.com/folio-org/okapi, tag v%s, mvn -DskipTests"
                + " install; then -D%s=PATH to its okapi-core/target/okapi-core-fat.jar, -D%s=PATH"
                + " to the java to run it with)%n",
            version, needed, version, version, jarKey, javaKey);
        return Optional.empty();
      }
    }
    return Optional.of(new ReferenceOkapi(version, jar, java, testModule));
  }

  /**
   * Starts Okapi with a deployment's command line and waits until it answers.
   *
   * @param dir where a {@code -conf} file goes
   */
  Running start(OkapiCommandLine line, Path dir) throws IOException {
    Running okapi = launch(line, dir);
    okapi.process().awaitReady(okapi.url() + "/_/version", JavaProcess.PATIENCE);
    return okapi;
  }

  /** Like {@link #start} without waiting for it. */
  Running launch(OkapiCommandLine line, Path dir) throws IOException {
    return new Running(line.launch(java, jar, dir), line.url());
  }

  /**
   * Starts Okapi in {@code dev} mode, its registry in memory, on a free port, and waits until it
   * answers: a registry to pull from, as FOLIO's is.
   *
   * @param log where its output goes
   */
  public Running startInMemory(Path log) throws IOException {
    int port = FreePorts.belowEphemeralRange();
    String url = "http://127.0.0.1:" + port;
    JavaProcess process =
        JavaProcess.start(
            "Okapi " + version,
            java,
            List.of(
                "-Xmx256m",
                "-Dport=" + port,
                "-Dokapiurl=" + url,
                "-Dloglevel=WARN",
                "-jar",
                jar.toString(),
                "dev"),
            log);
    process.awaitReady(url + "/_/version", JavaProcess.PATIENCE);
    return new Running(process, url);
  }

  /** Starts Okapi's test module on a free port and waits for it. */
  public Running startTestModule() throws IOException {
    int port = FreePorts.belowEphemeralRange();
    JavaProcess process =
        JavaProcess.launch(java, testModule, List.of("-Xmx128m", "-Dport=" + port), List.of());
    String url = "http://127.0.0.1:" + port;
    process.awaitReady(url + "/testb", JavaProcess.PATIENCE);
    return new Running(process, url);
  }

  /**
   * Creates tenant {@code diku} on the gateway and enables Okapi's test module at {@code moduleUrl}
   * for it as {@code test-basic-1.0.0}, serving {@code GET /recurse?depth=N}, which calls itself N
   * times through the gateway with okapi-common's {@code OkapiClient}.
   */
  public static void enableRecurse(String gatewayUrl, String moduleUrl) {
    AdminCalls admin = AdminCalls.at(gatewayUrl);
    admin.createTenant("diku");
    admin.register(
        Descriptors.module("test-basic-1.0.0", "recurse", Descriptors.handler("GET", "/recurse")),
        moduleUrl);
    admin.enable("diku", "test-basic-1.0.0");
  }

  /** A program started, at its URL. */
  public record Running(JavaProcess process, String url) implements AutoCloseable {

    /** Asks it to stop, as an operator does (SIGTERM), and waits for its end. */
    void stop() {
      process.stop();
    }

    @Override
    public void close() {
      process.close();
    }
  }
}
