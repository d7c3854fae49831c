package io.okapigw.core.eureka.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.VersionFilter;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.UpstreamOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * mgr-applications' {@code {env}.discovery} events applied to the gateway's discovery (no broker
 * needed): the event names a module, whose discovery is read again from mgr-applications ({@code
 * GET /modules/{id}/discovery}, as the sidecar's {@code ApplicationManagerClient} reads it) and its
 * instance follows.
 */
class DiscoveryEventsTest {

  private static final String THINGS = "mod-things-1.0.0";

  private final Vertx vertx = Vertx.vertx();
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private volatile String location = "http://10.0.0.1:8081";
  private Registry registry;
  private DiscoveryEvents events;

  @BeforeEach
  void start() {
    Router router = Router.router(vertx);
    router
        .get("/modules/:id/discovery")
        .handler(
            ctx -> {
              asked.add(ctx.request().uri());
              if (location == null || !THINGS.equals(ctx.pathParam("id"))) {
                ctx.response().setStatusCode(404).end();
              } else {
                ctx.json(
                    new JsonObject()
                        .put("id", THINGS)
                        .put("name", "mod-things")
                        .put("version", "1.0.0")
                        .put("location", location));
              }
            });
    int port =
        vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await().actualPort();
    EurekaOptions options =
        EurekaOptions.from(
            Settings.of(
                Map.of(
                    "eureka.keycloak-url", "http://127.0.0.1:1",
                    "eureka.kafka", "127.0.0.1:1",
                    "eureka.applications-url", "http://127.0.0.1:" + port)));
    ModuleClient modules =
        ModuleClient.create(vertx, UpstreamOptions.defaults(), CallObserver.NONE);
    registry = new Registry(vertx, RegistryStore.inMemory());
    registry
        .addModules(
            List.of(
                ModuleDescriptor.fromPosted(
                    GatewayFixture.module(
                        THINGS, "things", GatewayFixture.handler("GET", "/things")))),
            false,
            VersionFilter.ALL)
        .await();
    events =
        DiscoveryEvents.create(
            vertx,
            options,
            new EurekaCalls(modules, "mgr-applications", options.applicationsUrl(), options),
            new ServiceTokens(
                new EurekaCalls(modules, options),
                options,
                com.github.benmanes.caffeine.cache.Ticker.systemTicker()),
            registry);
  }

  @AfterEach
  void stop() {
    events.close();
    vertx.close().await();
  }

  private List<String> urls() {
    return registry.discovery().instances(null).await().stream()
        .filter(d -> d.srvcId().equals(THINGS))
        .map(DeploymentDescriptor::url)
        .toList();
  }

  private void event(String moduleId) {
    events.handle(new JsonObject().put("moduleId", moduleId)).await();
  }

  @Test
  void discoveryChanged_theInstanceMoves_noMomentWithout_deleted_itGoes() {
    event(THINGS);
    assertThat(urls()).containsExactly("http://10.0.0.1:8081");

    location = "http://10.0.0.2:8081";
    event(THINGS);
    assertThat(urls()).containsExactly("http://10.0.0.2:8081");

    event(THINGS);
    assertThat(urls()).as("the same place again: nothing changes").hasSize(1);

    location = null;
    event(THINGS);
    assertThat(urls()).isEmpty();
    assertThat(asked).hasSize(4).containsOnly("/modules/" + THINGS + "/discovery");
  }

  @Test
  void unknownModule_orNoModuleId_skipped_mgrApplicationsNotAsked() {
    event("mod-unknown-1.0.0");
    events.handle(new JsonObject().put("other", "x")).await();
    assertThat(asked).isEmpty();
    assertThat(urls()).isEmpty();
  }

  @Test
  void instanceRegisteredByHand_leftAlone() {
    registry
        .discovery()
        .add(
            new JsonObject()
                .put("srvcId", THINGS)
                .put("instId", "by-hand")
                .put("url", "http://127.0.0.1:9999"))
        .await();

    event(THINGS);

    assertThat(urls()).containsExactly("http://127.0.0.1:9999");
    assertThat(asked).isEmpty();
  }
}
