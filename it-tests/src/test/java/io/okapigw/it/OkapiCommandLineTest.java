package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Okapi's command line starts the gateway's fat jar as it starts Okapi: {@code java -Dport=...
 * -Dstorage=postgres -Dpostgres_host=... -jar okapi-core-fat.jar dev}, the same keys in {@code
 * -conf okapi.json}, {@code initdatabase}, {@code healthPort}'s {@code /readiness} and {@code
 * /liveness}, against a real PostgreSQL. Where Okapi 6.1.5 and 7.0.7 are built ({@link
 * ReferenceOkapi}), the same command lines run Okapi too and both answer alike; where not, that
 * part is skipped with a notice saying what is missing.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class OkapiCommandLineTest {

  private static final Duration START = JavaProcess.PATIENCE;

  @TempDir Path dir;

  /** A program to run: the java executable and the fat jar. */
  private record Program(String name, Path java, Path jar) {
    static Program ours() {
      return new Program(
          "our gateway", Path.of(System.getProperty("java.home"), "bin", "java"), Jars.gateway());
    }

    JavaProcess run(List<String> properties, List<String> args) throws IOException {
      List<String> jvm = new ArrayList<>(List.of("-Xmx256m"));
      jvm.addAll(properties);
      return JavaProcess.launch(java, jar, jvm, args);
    }

    JavaProcess run(OkapiCommandLine line, Path dir) throws IOException {
      return line.launch(java, jar, dir);
    }
  }

  /** What a program answered to the same command lines, to compare. */
  private record Answers(
      int readiness,
      int liveness,
      int readinessPost,
      String nodeName,
      int tenantAfterRestartWithConf,
      int initdatabaseExit,
      int tenantAfterInit,
      int helpExit) {}

  @Test
  void okapisCommandLines_startOurGateway_onPostgres() throws IOException {
    Answers ours = answers(Program.ours(), TestPostgres.get().createDatabase());

    assertThat(ours).isEqualTo(new Answers(204, 204, 405, "node-a", 200, 0, 404, 0));
  }

  @Test
  void sameCommandLines_okapi615_answersAsOurs() throws IOException {
    sideBySide(ReferenceOkapi.v615());
  }

  @Test
  void sameCommandLines_okapi707_answersAsOurs() throws IOException {
    sideBySide(ReferenceOkapi.v707());
  }

  @Test
  void okapisUnsupportedKey_ourGatewayExitsTwoNamingIt_okapiWouldIgnoreIt() throws IOException {
    JavaProcess refused =
        Program.ours()
            .run(
                List.of("-Dport=" + FreePorts.belowEphemeralRange(), "-Dkube_token=t"),
                List.of("dev"));
    assertThat(refused.awaitExit(START)).isEqualTo(2);
    assertThat(refused.output())
        .contains("bad setting: kube_token: this gateway does not look modules up in Kubernetes");
    refused.close();
  }

  /** The same command lines through Okapi and ours; skipped, saying so, where Okapi is absent. */
  private void sideBySide(Optional<ReferenceOkapi> reference) throws IOException {
    assumeTrue(reference.isPresent(), "Okapi is not built here: see the NOTICE above");
    ReferenceOkapi built = reference.get();
    Program okapi = new Program("Okapi " + built.version(), built.java(), built.jar());
    Answers theirs = answers(okapi, TestPostgres.get().createDatabase());
    Answers ours = answers(Program.ours(), TestPostgres.get().createDatabase());
    System.out.println(okapi.name() + ": " + theirs + "\nour gateway: " + ours);
    assertThat(ours).isEqualTo(theirs);
  }

  /** Runs one program through the same command lines and records what it answered. */
  private Answers answers(Program program, String database) throws IOException {
    int healthPort = FreePorts.belowEphemeralRange();
    OkapiCommandLine line =
        okapiKeys(OkapiCommandLine.dev(database, FreePorts.belowEphemeralRange()), healthPort);
    String url = line.url();
    String health = "http://127.0.0.1:" + healthPort;
    Path files = dir.resolve(program.name().replace(' ', '-'));

    JavaProcess first = program.run(line, files);
    int readiness;
    int liveness;
    int readinessPost;
    String nodeName;
    try {
      awaitServing(first, url);
      readiness = awaitAnswer(first, health + "/readiness");
      liveness = given().baseUri(health).get("/liveness").statusCode();
      readinessPost = given().baseUri(health).post("/readiness").statusCode();
      nodeName =
          new JsonArray(given().baseUri(url).get("/_/discovery/nodes").asString())
              .getJsonObject(0)
              .getString("nodeName");
      given()
          .baseUri(url)
          .body("{\"id\":\"diku\"}")
          .post("/_/proxy/tenants")
          .then()
          .statusCode(201);
    } finally {
      first.stop();
    }

    JavaProcess second = program.run(line.inConfFile(), files);
    int tenantAfterRestart;
    try {
      awaitServing(second, url);
      tenantAfterRestart = given().baseUri(url).get("/_/proxy/tenants/diku").statusCode();
    } finally {
      second.stop();
    }

    JavaProcess init = program.run(line.command("initdatabase"), files);
    int initExit = init.awaitExit(START);
    init.close();
    JavaProcess third = program.run(line, files);
    int tenantAfterInit;
    try {
      awaitServing(third, url);
      tenantAfterInit = given().baseUri(url).get("/_/proxy/tenants/diku").statusCode();
    } finally {
      third.stop();
    }

    JavaProcess help = program.run(List.of(), List.of("help"));
    int helpExit = help.awaitExit(START);
    help.close();
    return new Answers(
        readiness,
        liveness,
        readinessPost,
        nodeName,
        tenantAfterRestart,
        initExit,
        tenantAfterInit,
        helpExit);
  }

  /**
   * Waits until the program answers its health check and serves the admin API: Okapi 7 on
   * PostgreSQL answered {@code /_/proxy/health} before its own module served {@code
   * /_/proxy/tenants} (a 404 for a tenant's POST, once, in a fresh-clone run).
   */
  private static void awaitServing(JavaProcess process, String url) throws IOException {
    process.awaitReady(url + "/_/proxy/health", START);
    process.awaitReady(url + "/_/proxy/tenants", START);
  }

  /**
   * Waits until the program's health listener answers (it starts after the main port, in Okapi
   * too), at most {@link #START}.
   *
   * @return the status it answered
   */
  private static int awaitAnswer(JavaProcess process, String url) {
    long deadline = System.nanoTime() + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("exited:\n" + process.outputTail());
      }
      try {
        return given().baseUri(url).get().statusCode();
      } catch (Exception refused) { // connection refused: not listening yet
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
      }
    }
    throw new IllegalStateException(url + " did not answer within " + START);
  }

  /**
   * Okapi's keys for a node on this database, as an operator writes them: with a health port, a
   * node name and the URL with a trailing slash (which Okapi drops).
   */
  private static OkapiCommandLine okapiKeys(OkapiCommandLine dev, int healthPort) {
    return dev.with("okapiurl", dev.url() + "/")
        .with("healthPort", String.valueOf(healthPort))
        .with("nodename", "node-a");
  }
}
