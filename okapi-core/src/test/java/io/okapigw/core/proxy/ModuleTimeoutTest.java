package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.upstream.UpstreamOptions;
import io.okapigw.testsupport.HoldingModule;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code proxy.module-timeout}: a module's own timeout, shorter than the callers' — a call to an
 * instance that does not answer ends at it as 504 naming the module, and a GET goes to another
 * instance instead; a module without one keeps {@code proxy.idle-timeout}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ModuleTimeoutTest {

  private static final String MODULE = "mod-hang-1.0.0";

  private GatewayFixture gw;

  @AfterEach
  void close() {
    gw.close();
  }

  private HoldingModule start(Map<String, Duration> timeouts) {
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withUpstream(UpstreamOptions.defaults().withModuleTimeouts(timeouts)));
    HoldingModule holding = HoldingModule.start(gw.vertx());
    gw.createTenant("diku");
    gw.install(
        "diku",
        module(MODULE, "hang", handler("GET", "/slow"), handler("POST", "/slow")),
        holding.url());
    return holding;
  }

  @Test
  void post_instanceSilentPastTheModulesTimeout_504NamingTheModule() {
    HoldingModule holding = start(Map.of("mod-hang", Duration.ofSeconds(5)));

    gw.tenant("diku")
        .body("{}")
        .post("/slow")
        .then()
        .statusCode(504)
        .body(containsString(MODULE), containsString("within 5000 ms"));

    assertThat(holding.held()).isEqualTo(1);
  }

  @Test
  void get_instanceSilentPastTheModulesTimeout_answeredByAnotherInstance() {
    HoldingModule holding = start(Map.of(MODULE, Duration.ofSeconds(5)));
    TestModule other =
        TestModule.start(
            gw.vertx(),
            router -> router.route("/slow").handler(ctx -> ctx.response().end("other")));
    gw.deploy(MODULE, other.url());

    for (int i = 0; i < 2; i++) {
      gw.tenant("diku").get("/slow").then().statusCode(200).body(containsString("other"));
    }

    assertThat(holding.held()).as("calls that went to the silent instance first").isPositive();
  }

  @Test
  void otherModule_keepsTheIdleTimeout() {
    HoldingModule holding = start(Map.of("mod-other", Duration.ofSeconds(1)));
    gw.vertx()
        .setTimer(
            8000,
            id -> holding.answerAll("late, past the other module's timeout, within this one's"));

    gw.tenant("diku").get("/slow").then().statusCode(200).body(containsString("late"));
  }
}
