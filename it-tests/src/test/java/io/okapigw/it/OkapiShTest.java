package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Okapi's own start script and configuration from its Debian package ({@code dist/okapi.sh}, {@code
 * dist/okapi.conf}, {@code dist/log4j2.properties} of Okapi 6.1.5's source tree) start the
 * gateway's fat jar put in Okapi's place, with an operator's site settings (PostgreSQL, port,
 * okapiurl): as shipped (its deployment settings, {@code port_start}, {@code port_end} and {@code
 * dockerurl}, read as Okapi reads them) it serves, in {@code cluster} mode as the file has it, with
 * okapi.sh's generated {@code -conf} file, {@code -Dhazelcast.logging.type=log4j} and Okapi's log
 * file format. Needs Okapi's source tree (found beside the Okapi 6.1.5 jar, see {@link
 * ReferenceOkapi}), bash and jq; skipped with a notice without them.
 */
class OkapiShTest {

  @TempDir Path dir;

  @Test
  void okapisDebianScriptAndConf_asShipped_startTheGateway() throws Exception {
    Path dist = distribution();
    int port = FreePorts.belowEphemeralRange();
    String site = siteSettings(Files.readString(dist.resolve("okapi.conf")), port);
    Path conf = Files.createDirectories(dir.resolve("etc"));
    Files.writeString(
        conf.resolve("log4j2.properties"),
        Files.readString(dist.resolve("log4j2.properties"))
            .replace("/var/log/folio/okapi", dir.resolve("log").toString()));

    Files.writeString(conf.resolve("okapi.conf"), site);
    Run edited = okapiSh(dist, "shipped.out");
    try {
      edited.awaitAnswer("http://127.0.0.1:" + port + "/_/proxy/health");
      given()
          .baseUri("http://127.0.0.1:" + port)
          .body("{\"id\":\"deb\"}")
          .post("/_/proxy/tenants")
          .then()
          .statusCode(201);
      String log = Files.readString(dir.resolve("log/okapi.log"));
      assertThat(log)
          .contains("setting WARNING is not used")
          .doesNotContain("setting dockerRegistries is not used")
          .doesNotContain("${FolioLoggingContext");
      assertThat(log.lines().filter(l -> l.contains("listening on port " + port)))
          .as("Okapi's log line format, its request fields empty")
          .singleElement()
          .asString()
          .contains("[] [] [] [] INFO  Main");
    } finally {
      edited.stop(dir);
    }
  }

  /** The operator's own settings: PostgreSQL, the port and okapiurl, the log configuration. */
  private String siteSettings(String shipped, int port) {
    PgConnectOptions pg = PgConnectOptions.fromUri(TestPostgres.get().createDatabase());
    Map<String, String> site =
        Map.of(
            "storage", "\"postgres\"",
            "postgres_host", "\"" + pg.getHost() + "\"",
            "postgres_port", "\"" + pg.getPort() + "\"",
            "postgres_username", "\"" + pg.getUser() + "\"",
            "postgres_password", "\"" + pg.getPassword() + "\"",
            "postgres_database", "\"" + pg.getDatabase() + "\"",
            "port", "\"" + port + "\"",
            "okapiurl", "\"http://127.0.0.1:" + port + "\"",
            "log4j_config", "\"" + dir.resolve("etc/log4j2.properties") + "\"",
            "vertx_cache_dir_base", "\"" + dir.resolve("vertx") + "\"");
    StringBuilder conf = new StringBuilder();
    for (String line : shipped.lines().toList()) {
      String key = line.contains("=") ? line.substring(0, line.indexOf('=')) : "";
      conf.append(site.containsKey(key) ? key + "=" + site.get(key) : line).append('\n');
    }
    return conf.toString();
  }

  private Run okapiSh(Path dist, String out) throws IOException {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.deleteIfExists(lib.resolve("okapi-core-fat.jar"));
    Files.createSymbolicLink(lib.resolve("okapi-core-fat.jar"), Jars.gateway());
    for (String sub : List.of("data", "run", "log")) {
      Files.createDirectories(dir.resolve(sub));
    }
    Path output = dir.resolve(out);
    ProcessBuilder builder =
        new ProcessBuilder("bash", dist.resolve("okapi.sh").toString())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    builder.environment().put("CONF_DIR", dir.resolve("etc").toString());
    builder.environment().put("LIB_DIR", lib.toString());
    builder.environment().put("DATA_DIR", dir.resolve("data").toString());
    builder.environment().put("PID_DIR", dir.resolve("run").toString());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    return new Run(builder.start(), output);
  }

  /** okapi.sh and the java it starts in the background, writing to one file. */
  private record Run(Process script, Path output) {

    /**
     * Waits until okapi.sh or the java it started wrote {@code text}, at most {@link
     * JavaProcess#PATIENCE}.
     */
    void awaitOutput(String text) throws IOException {
      long deadline = System.nanoTime() + JavaProcess.PATIENCE.toNanos();
      while (!Files.readString(output, StandardCharsets.UTF_8).contains(text)) {
        assertThat(System.nanoTime())
            .as("okapi.sh's output has no '%s':%n%s", text, Files.readString(output))
            .isLessThan(deadline);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
      }
    }

    void awaitAnswer(String url) throws IOException {
      long deadline = System.nanoTime() + JavaProcess.PATIENCE.toNanos();
      while (!JavaProcess.answers(url)) {
        assertThat(System.nanoTime())
            .as("%s did not answer; okapi.sh's output:%n%s", url, Files.readString(output))
            .isLessThan(deadline);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
      }
    }

    /**
     * Stops the java okapi.sh started, as systemd's stop does (SIGTERM), and okapi.sh. Found by its
     * command line, which names the test's directory, not by okapi.sh's pid file: okapi.sh writes
     * that only 3 s after the start, and a test done sooner left the gateway running (holding
     * Hazelcast's port 5701, where the next run's gateway then could not start).
     */
    void stop(Path dir) {
      String mark = dir.toString();
      ProcessHandle.allProcesses()
          .filter(p -> p.info().commandLine().map(c -> c.contains(mark)).orElse(false))
          .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
          .forEach(
              p -> {
                p.destroy();
                p.onExit().orTimeout(JavaProcess.PATIENCE.toMinutes(), TimeUnit.MINUTES).join();
              });
      script.destroy();
    }
  }

  /** Okapi 6.1.5's {@code dist/} folder, and bash and jq to run okapi.sh with. */
  private static Path distribution() {
    Path dist =
        ReferenceOkapi.v615()
            .map(o -> o.jar().toAbsolutePath().resolveSibling("../../dist").normalize())
            .orElse(Path.of("/nonexistent"));
    boolean tools = onPath("bash") && onPath("jq");
    if (!Files.isRegularFile(dist.resolve("okapi.sh")) || !tools) {
      System.err.println(
          "NOTICE: OkapiShTest skipped: needs Okapi 6.1.5's source tree (dist/okapi.sh beside its"
              + " okapi-core/target/okapi-core-fat.jar, -Dokapigw.okapi615.jar) and bash and jq on"
              + " the PATH");
    }
    assumeTrue(Files.isRegularFile(dist.resolve("okapi.sh")), "no Okapi dist/ (see NOTICE)");
    assumeTrue(tools, "bash or jq missing (see NOTICE)");
    return dist;
  }

  private static boolean onPath(String program) {
    for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(entry, program))) {
        return true;
      }
    }
    return false;
  }
}
