package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.restassured.path.json.JsonPath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Modules the gateway starts as processes ({@code exec}, {@code cmdlineStart}), as Okapi starts
 * them: {@code /_/deployment/modules}, discovery with a {@code nodeId}, {@code /_/env}, ports from
 * the node's range, Okapi's answers to bad deployments, and nothing left running once a module is
 * undeployed, fails to start, or the node stops. The module is {@code TinyModule.java} (test
 * resources), run by this JVM's {@code java} from its source.
 */
class ProcessDeploymentTest {

  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(30);
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();

  private final int firstPort = FreePorts.belowEphemeralRange();
  private GatewayFixture gateway = start(3);

  private GatewayFixture start(int ports) {
    return start(ports, false);
  }

  private GatewayFixture start(int ports, boolean restart) {
    GatewayOptions defaults = GatewayOptions.defaults(0);
    return new GatewayFixture(
        defaults.withDeployment(
            defaults
                .deployment()
                .withPorts(firstPort, firstPort + ports)
                .withWaitIterations(40)
                .withRestart(restart)));
  }

  private boolean stopped;

  @AfterEach
  void stop() {
    if (!stopped) {
      stopped = true;
      gateway.gateway().stop().await();
      gateway.close();
    }
  }

  private static String tinyModule() {
    try {
      return Path.of(ProcessDeploymentTest.class.getResource("/deployment/TinyModule.java").toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonObject exec(String args) {
    return new JsonObject().put("exec", JAVA + " " + tinyModule() + " " + args);
  }

  private static JsonObject deployment(String srvcId, String instId, JsonObject descriptor) {
    JsonObject json = new JsonObject().put("srvcId", srvcId).put("descriptor", descriptor);
    return instId == null ? json : json.put("instId", instId);
  }

  private JsonPath post(String path, JsonObject body, int status) {
    return gateway
        .request()
        .body(body.encode())
        .post(path)
        .then()
        .statusCode(status)
        .extract()
        .jsonPath();
  }

  @Test
  void deploymentModules_startsTheProcess_withEnv_registersIt_andUndeployStopsIt()
      throws Exception {
    post("/_/env", new JsonObject().put("name", "DB_HOST").put("value", "from-env"), 201);
    JsonObject descriptor =
        exec("%p")
            .put(
                "env",
                new JsonArray()
                    .add(new JsonObject().put("name", "DB_HOST").put("value", "from-descriptor"))
                    .add(new JsonObject().put("name", "DB_PORT").put("value", "5433")));

    JsonPath deployed;
    try (LogCapture log = new LogCapture()) {
      deployed =
          gateway
              .request()
              .body(deployment("mod-tiny-1.0.0", "tiny-1", descriptor).encode())
              .post("/_/deployment/modules")
              .then()
              .statusCode(201)
              .header("Location", "/_/deployment/modules/tiny-1")
              .body("srvcId", equalTo("mod-tiny-1.0.0"))
              .body("nodeId", equalTo("localhost"))
              .body("url", equalTo("http://localhost:" + firstPort))
              .extract()
              .jsonPath();
      Await.until(
          () ->
              log.lines()
                  .contains("INFO ModuleProcess - mod-tiny-1.0.0 tiny: listening on " + firstPort),
          "the module's output in the gateway's log, each line prefixed with the module id");
    }
    String url = deployed.getString("url");

    assertThat(get(url + "/env/DB_HOST")).as("/_/env wins").isEqualTo("from-env");
    assertThat(get(url + "/env/DB_PORT")).isEqualTo("5433");
    gateway
        .request()
        .get("/_/discovery/modules/mod-tiny-1.0.0/tiny-1")
        .then()
        .statusCode(200)
        .body("url", equalTo(url))
        .body("nodeId", equalTo("localhost"));
    gateway
        .request()
        .get("/_/deployment/modules")
        .then()
        .body("instId", equalTo(List.of("tiny-1")));
    gateway
        .request()
        .get("/_/discovery/health/mod-tiny-1.0.0/tiny-1")
        .then()
        .body("healthStatus", equalTo(true));

    gateway.request().delete("/_/deployment/modules/tiny-1").then().statusCode(204);

    assertThat(FreePorts.listening(firstPort)).as("the process is stopped").isFalse();
    gateway.request().get("/_/discovery/modules/mod-tiny-1.0.0").then().statusCode(404);
    gateway
        .request()
        .delete("/_/deployment/modules/tiny-1")
        .then()
        .statusCode(404)
        .body(equalTo("not found: tiny-1"));
  }

  /** What a launch keeps of the gateway's environment, as docs/operations.md lists it. */
  private static final Set<String> KEPT =
      Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR", "JAVA_HOME");

  @Test
  void deployedProcess_environment_descriptorsAndEnvsOnly_noneOfTheGateways() throws Exception {
    post("/_/env", new JsonObject().put("name", "FROM_ENV").put("value", "e"), 201);
    JsonObject descriptor =
        exec("%p")
            .put(
                "env",
                new JsonArray()
                    .add(new JsonObject().put("name", "FROM_DESCRIPTOR").put("value", "d")));

    String url =
        post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "tiny-env", descriptor), 201)
            .getString("url");

    Set<String> names = new TreeSet<>(List.of(get(url + "/env").split("\n")));
    Set<String> allowed = new TreeSet<>(KEPT);
    allowed.addAll(List.of("FROM_ENV", "FROM_DESCRIPTOR"));
    Set<String> gatewaysOwn = new TreeSet<>(System.getenv().keySet());
    gatewaysOwn.removeAll(allowed);
    assertThat(names).contains("FROM_ENV", "FROM_DESCRIPTOR", "PATH");
    assertThat(names).as("the module's environment").isSubsetOf(allowed);
    assertThat(names).doesNotContainAnyElementsOf(gatewaysOwn);
  }

  @Test
  void discoveryWithNodeId_deploysTheModulesLaunchDescriptor_andDeleteStopsIt() throws Exception {
    gateway.addModule(
        GatewayFixture.module("mod-tiny-1.0.0", "tiny").put("launchDescriptor", exec("%p")));

    JsonPath added =
        post(
            "/_/discovery/modules",
            new JsonObject().put("srvcId", "mod-tiny-1.0.0").put("nodeId", "localhost"),
            201);
    String instId = added.getString("instId");
    assertThat(instId).as("made up, as Okapi does").hasSize(36);
    assertThat(get(added.getString("url") + "/")).isEqualTo("tiny");

    gateway
        .request()
        .delete("/_/discovery/modules/mod-tiny-1.0.0/" + instId)
        .then()
        .statusCode(204);
    assertThat(FreePorts.listening(firstPort)).isFalse();
    gateway.request().get("/_/deployment/modules").then().body("size()", equalTo(0));
  }

  @Test
  void badDeployments_answeredAsOkapi_nothingLeftRunningOrRegistered() throws Exception {
    post("/_/deployment/modules", new JsonObject().put("descriptor", exec("%p")), 400);
    gateway
        .request()
        .body(new JsonObject().put("descriptor", exec("%p")).encode())
        .post("/_/deployment/modules")
        .then()
        .body(equalTo("Needs srvcId"));
    gateway
        .request()
        .body(new JsonObject().put("srvcId", "mod-tiny-1.0.0").encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("No LaunchDescriptor"));
    gateway
        .request()
        .body(deployment("mod-tiny-1.0.0", null, exec("")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("Can not deploy: No %p in the exec line"));
    gateway
        .request()
        .body(deployment("mod-tiny-1.0.0", null, exec("exit %p")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("Service mod-tiny-1.0.0 returned with exit code 3"));
    gateway
        .request()
        .body(
            deployment("mod-tiny-1.0.0", null, new JsonObject().put("exec", "/no/such/program %p"))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(startsWith("Execution for service mod-tiny-1.0.0 failed"));
    gateway
        .request()
        .body(new JsonObject().put("srvcId", "m").put("bogus", 1).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(containsString("bogus"));

    gateway.request().get("/_/deployment/modules").then().body("size()", equalTo(0));
    gateway.request().get("/_/discovery/modules").then().body("size()", equalTo(0));
    for (int port = firstPort; port < firstPort + 3; port++) {
      assertThat(FreePorts.listening(port)).as("port %d", port).isFalse();
    }
  }

  @Test
  void portRangeUsedUp_allPortsInUse_theOthersKeepRunning() throws Exception {
    stop();
    stopped = false;
    gateway = start(1);
    post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "a", exec("%p")), 201);
    gateway
        .request()
        .body(deployment("mod-tiny-1.0.0", "b", exec("%p")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("all ports in use"));
    gateway
        .request()
        .body(deployment("mod-tiny-1.0.0", "a", exec("%p")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("already deployed: a"));
    assertThat(get("http://localhost:" + firstPort + "/")).isEqualTo("tiny");

    gateway.request().delete("/_/deployment/modules/a").then().statusCode(204);
    post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "b", exec("%p")), 201);
  }

  @Test
  void cmdlineStart_inTheBackground_stoppedWithItsProcessGroup() throws Exception {
    JsonObject descriptor =
        new JsonObject().put("cmdlineStart", JAVA + " " + tinyModule() + " %p > /dev/null 2>&1 &");
    post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "bg", descriptor), 201);
    assertThat(get("http://localhost:" + firstPort + "/")).isEqualTo("tiny");

    gateway.request().delete("/_/deployment/modules/bg").then().statusCode(204);

    assertThat(FreePorts.listening(firstPort))
        .as("the module the shell left running is stopped with the group")
        .isFalse();
  }

  @Test
  void moduleThatDies_reportedAndLeft_asOkapi() throws Exception {
    post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "a", exec("%p")), 201);
    get("http://localhost:" + firstPort + "/exit");
    Await.until(() -> !FreePorts.listening(firstPort), "the module exited");

    gateway
        .request()
        .get("/_/discovery/health/mod-tiny-1.0.0/a")
        .then()
        .body("healthStatus", equalTo(false));
    gateway.request().get("/_/deployment/modules").then().body("instId", equalTo(List.of("a")));
  }

  @Test
  void moduleThatDies_startedAgainOnItsPort_withRestart() throws Exception {
    stop();
    stopped = false;
    gateway = start(3, true);
    String url =
        post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "a", exec("%p")), 201)
            .getString("url");
    get(url + "/exit");

    Await.until(Duration.ofMinutes(2), () -> answers(url), "the module started again");
    gateway.request().get("/_/discovery/modules/mod-tiny-1.0.0/a").then().body("url", equalTo(url));
    gateway.request().delete("/_/deployment/modules/a").then().statusCode(204);
    assertThat(FreePorts.listening(firstPort))
        .as("the module started again is stopped too")
        .isFalse();
  }

  private static boolean answers(String url) {
    try {
      return "tiny".equals(get(url + "/"));
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void nodeStop_stopsTheModulesItStarted() throws Exception {
    post("/_/deployment/modules", deployment("mod-tiny-1.0.0", "a", exec("%p")), 201);
    assertThat(FreePorts.listening(firstPort)).isTrue();

    stop();

    assertThat(FreePorts.listening(firstPort)).isFalse();
  }

  private static String get(String url) throws IOException, InterruptedException {
    return CLIENT
        .send(
            HttpRequest.newBuilder(URI.create(url)).timeout(HTTP_TIMEOUT).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
