package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.json.JsonObject;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a deployed module writes reaches the gateway's log with its control characters escaped
 * ({@code \u001b}): a module cannot forge the gateway's log lines or drive the terminal showing
 * them.
 */
class ModuleOutputLogTest {

  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  private final int port = FreePorts.belowEphemeralRange();
  private final GatewayFixture gateway;

  ModuleOutputLogTest() {
    GatewayOptions defaults = GatewayOptions.defaults(0);
    gateway =
        new GatewayFixture(
            defaults.withDeployment(
                defaults.deployment().withPorts(port, port + 1).withWaitIterations(40)));
  }

  @AfterEach
  void stop() {
    gateway.gateway().stop().await();
    gateway.close();
  }

  private static String tinyModule() throws URISyntaxException {
    return Path.of(ModuleOutputLogTest.class.getResource("/deployment/TinyModule.java").toURI())
        .toString();
  }

  @Test
  void moduleOutput_controlCharacters_escapedInTheGatewaysLog() throws Exception {
    String start =
        "printf 'out \\033[31mred\\033[0m\\rback\\010\\177 \\302\\233x\\tTab\\n'; exec "
            + JAVA
            + " "
            + tinyModule()
            + " %p";
    try (LogCapture log = new LogCapture()) {
      gateway
          .request()
          .body(
              new JsonObject()
                  .put("srvcId", "mod-tiny-1.0.0")
                  .put("instId", "esc")
                  .put("descriptor", new JsonObject().put("cmdlineStart", start))
                  .encode())
          .post("/_/deployment/modules")
          .then()
          .statusCode(201);
      Await.until(
          () -> log.text().contains("mod-tiny-1.0.0 tiny: listening on " + port),
          "the module's output in the gateway's log");

      assertThat(log.lines())
          .contains(
              "INFO ModuleProcess - mod-tiny-1.0.0 out \\u001b[31mred\\u001b[0m\\u000dback"
                  + "\\u0008\\u007f \\u009bx\tTab");
      assertThat(log.text()).doesNotContain("\u001b", "\r", "\u0008", "\u007f", "\u009b");
    }
  }
}
