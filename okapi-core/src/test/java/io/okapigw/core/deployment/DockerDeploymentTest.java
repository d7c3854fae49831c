package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.deployment.FakeDockerEngine.Call;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Containers through the Docker Engine API as Okapi 6.1.5 drives it, against an engine that stands
 * in for Docker ({@link FakeDockerEngine}): the pull from each of {@code dockerRegistries} in turn
 * with its credentials, a failed pull no error, the image's first exposed port published on the
 * module's port, {@code dockerCMD}, the environment, {@code dockerArgs} with {@code %p} and {@code
 * %c}, Okapi's messages for an image the engine lacks or one without {@code EXPOSE}, and the
 * container stopped and removed on undeploy. (The real engine: it-tests' {@code
 * DeploymentDockerIT}.)
 */
class DockerDeploymentTest {

  private final int firstPort = FreePorts.belowEphemeralRange();
  private GatewayFixture gateway;
  private FakeDockerEngine engine;

  @AfterEach
  void stop() {
    gateway.gateway().stop().await();
    gateway.close();
    engine.close();
  }

  private void startWith(JsonArray registries) {
    GatewayOptions defaults = GatewayOptions.defaults(0);
    engine = FakeDockerEngine.start();
    gateway =
        new GatewayFixture(
            defaults.withDeployment(
                new DeploymentOptions(
                    "localhost",
                    firstPort,
                    firstPort + 2,
                    engine.url(),
                    registries,
                    "127.0.0.1",
                    5,
                    false,
                    null)));
  }

  private JsonObject deployment(JsonObject descriptor) {
    return new JsonObject()
        .put("srvcId", "mod-tiny-1.0.0")
        .put("instId", "d1")
        .put("descriptor", descriptor);
  }

  @Test
  void container_createdAsOkapiCreatesIt_stoppedAndRemovedOnUndeploy() {
    startWith(null);
    engine.image("folioorg/mod-tiny:1.0.0", "8081/tcp");
    JsonObject descriptor =
        new JsonObject()
            .put("dockerImage", "folioorg/mod-tiny:1.0.0")
            .put("dockerCMD", new JsonArray().add("-Dhttp.port=8081"))
            .put("env", new JsonArray().add(new JsonObject().put("name", "E").put("value", "1")))
            .put(
                "dockerArgs",
                new JsonObject()
                    .put(
                        "HostConfig",
                        new JsonObject()
                            .put("Memory", 1000)
                            .put(
                                "PortBindings",
                                new JsonObject()
                                    .put(
                                        "8081/tcp",
                                        new JsonArray()
                                            .add(new JsonObject().put("HostPort", "%p")))))
                    .put("Labels", new JsonObject().put("p", "%p").put("c", "%c").put("x", "%%")));

    try (LogCapture log = new LogCapture()) {
      gateway
          .request()
          .body(deployment(descriptor).encode())
          .post("/_/deployment/modules")
          .then()
          .statusCode(201)
          .body("url", equalTo("http://localhost:" + firstPort));
      Await.until(
          () -> log.lines().contains("INFO ModuleContainer - mod-tiny-1.0.0 module: listening"),
          "the container's output in the gateway's log, each line prefixed with the module id");
      assertThat(log.lines())
          .as("control characters escaped")
          .contains("INFO ModuleContainer - mod-tiny-1.0.0 module: \\u001b[31mred\\u001b[0m");
    }

    assertThat(engine.calls())
        .extracting(Call::method, Call::uri)
        .startsWith(
            tuple("POST", "/v1.35/images/create?fromImage=folioorg%2Fmod-tiny%3A1.0.0"),
            tuple("GET", "/v1.35/images/folioorg/mod-tiny:1.0.0/json"),
            tuple("POST", "/v1.35/containers/create"));
    JsonObject created = engine.containers().values().iterator().next();
    assertThat(created.getString("Image")).isEqualTo("folioorg/mod-tiny:1.0.0");
    assertThat(created.getJsonArray("env")).containsExactly("E=1");
    assertThat(created.getJsonArray("Cmd")).containsExactly("-Dhttp.port=8081");
    assertThat(created.getJsonObject("Labels").getMap())
        .containsEntry("p", Integer.toString(firstPort))
        .containsEntry("c", "127.0.0.1")
        .containsEntry("x", "%");
    assertThat(created.getJsonObject("HostConfig").getValue("Memory"))
        .as("dockerArgs' HostConfig replaces Okapi's, as Okapi merges them (one level deep)")
        .isEqualTo(1000);
    assertThat(
            created
                .getJsonObject("HostConfig")
                .getJsonObject("PortBindings")
                .getJsonArray("8081/tcp")
                .getJsonObject(0)
                .getString("HostPort"))
        .isEqualTo(Integer.toString(firstPort));

    gateway.request().delete("/_/deployment/modules/d1").then().statusCode(204);
    assertThat(engine.containers()).isEmpty();
    assertThat(engine.calls())
        .extracting(Call::method, Call::uri)
        .endsWith(
            tuple("POST", "/v1.35/containers/c10123456789abcdef/stop"),
            tuple("DELETE", "/v1.35/containers/c10123456789abcdef?force=true"));
  }

  @Test
  void registries_triedInOrder_withTheirCredentials_imageFoundUnderTheirPrefix() {
    startWith(
        new JsonArray()
            .add(
                new JsonObject()
                    .put("registry", "reg.one")
                    .put("username", "u1")
                    .put("password", "p1"))
            .add(new JsonObject().put("registry", "reg.two/")));
    engine.image("reg.two/mod-tiny:1.0.0", "8081/tcp");

    gateway
        .request()
        .body(deployment(new JsonObject().put("dockerImage", "mod-tiny:1.0.0")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(201);

    List<Call> pulls =
        engine.calls().stream().filter(c -> c.uri().contains("/images/create")).toList();
    assertThat(pulls)
        .extracting(Call::uri)
        .containsExactly(
            "/v1.35/images/create?fromImage=reg.one%2Fmod-tiny%3A1.0.0",
            "/v1.35/images/create?fromImage=reg.two%2Fmod-tiny%3A1.0.0");
    assertThat(
            new String(
                Base64.getDecoder().decode(pulls.get(0).registryAuth()), StandardCharsets.UTF_8))
        .isEqualTo("{\"username\":\"u1\",\"password\":\"p1\"}");
    assertThat(pulls.get(1).registryAuth()).isNull();
    assertThat(engine.containers().values().iterator().next().getString("Image"))
        .isEqualTo("reg.two/mod-tiny:1.0.0");
  }

  @Test
  void noRegistries_okapisMessage() {
    startWith(new JsonArray());
    gateway
        .request()
        .body(deployment(new JsonObject().put("dockerImage", "nosuch:1")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(startsWith("dockerRegistries=[] contains no registry"));
  }

  @Test
  void imageTheEngineLacks_orWithoutExpose_answeredAsOkapi_nothingLeft() {
    startWith(null);
    engine.image("noexpose:1", null);
    gateway
        .request()
        .body(
            deployment(new JsonObject().put("dockerImage", "nosuch:1").put("dockerPull", false))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(startsWith("getImage HTTP error 404"));
    gateway
        .request()
        .body(deployment(new JsonObject().put("dockerImage", "noexpose:1")).encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("Missing EXPOSE in image"));
    assertThat(engine.containers()).isEmpty();
    gateway.request().get("/_/discovery/modules").then().body("size()", equalTo(0));
  }
}
