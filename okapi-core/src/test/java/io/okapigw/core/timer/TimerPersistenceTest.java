package io.okapigw.core.timer;

import static io.okapigw.core.timer.TimerFiringTest.START;
import static io.okapigw.core.timer.TimerFiringTest.TIMER_MODULE;
import static io.okapigw.core.timer.TimerFiringTest.every;
import static io.okapigw.core.timer.TimerFiringTest.timerModule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.storage.Storage;
import io.okapigw.core.storage.StorageOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Changed timers are kept, as Okapi keeps them: in PostgreSQL they survive a full restart of the
 * gateway, and they are forgotten when their module is disabled. One contract for both stores.
 */
class TimerPersistenceTest {

  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  private static GatewayFixture gateway(String db, FakeScheduler clock) {
    return new GatewayFixture(
        GatewayOptions.from(Settings.of(Map.of("port", "0", "storage", db))), clock);
  }

  @Test
  void changedTimer_survivesARestartOnPostgres_andIsForgottenOnDisable() {
    String db = TestPostgres.get().createDatabase();
    FakeScheduler clock = new FakeScheduler(START);
    GatewayFixture first = gateway(db, clock);
    TestModule module =
        TestModule.start(
            vertx,
            router -> router.route().handler(ctx -> ctx.response().setStatusCode(204).end()));
    try {
      first.createTenant("diku");
      first.install(
          "diku",
          timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")),
          module.url());
      first
          .request()
          .body("{\"unit\":\"minute\",\"delay\":\"7\"}")
          .patch("/_/proxy/tenants/diku/timers/mod-timer_0")
          .then()
          .statusCode(204);
    } finally {
      first.close();
    }
    assertThat(clock.pending()).as("the closed gateway's timers are cancelled").isZero();

    GatewayFixture second = gateway(db, clock);
    try {
      second
          .request()
          .get("/_/proxy/tenants/diku/timers/mod-timer_0")
          .then()
          .statusCode(200)
          .body("modified", equalTo(true))
          .body("routingEntry.delay", equalTo("7"));
      module.drain();
      clock.advance(Duration.ofMinutes(14));
      assertThat(module.drain()).hasSize(2);
      second
          .request()
          .delete("/_/proxy/tenants/diku/modules/" + TIMER_MODULE)
          .then()
          .statusCode(204);
      second.enable("diku", TIMER_MODULE);
    } finally {
      second.close();
    }

    GatewayFixture third = gateway(db, clock);
    try {
      third
          .request()
          .get("/_/proxy/tenants/diku/timers/mod-timer_0")
          .then()
          .statusCode(200)
          .body("modified", equalTo(false))
          .body("routingEntry.delay", equalTo("1"));
    } finally {
      third.close();
      module.close();
    }
  }

  static Stream<Function<Vertx, TimerStore>> stores() {
    return Stream.of(
        v -> TimerStore.shared(v).await(),
        v ->
            Storage.open(v, StorageOptions.of(TestPostgres.get().createDatabase()))
                .await()
                .timers());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void store_putReplaceListDelete(Function<Vertx, TimerStore> factory) {
    TimerStore store = factory.apply(vertx);
    JsonObject seven = new JsonObject().put("unit", "minute").put("delay", "7");
    JsonObject off = new JsonObject().put("delay", "0");
    store.put(new TimerStore.Patch("diku", "mod-a_0", seven)).await();
    store.put(new TimerStore.Patch("diku", "mod-a_1", seven)).await();
    store.put(new TimerStore.Patch("other", "mod-a_0", seven)).await();
    store.put(new TimerStore.Patch("diku", "mod-a_1", off)).await();
    assertThat(store.forTenant("diku").await()).isEqualTo(Map.of("mod-a_0", seven, "mod-a_1", off));
    assertThat(store.all().await())
        .hasSize(3)
        .contains(new TimerStore.Patch("other", "mod-a_0", seven));
    store.delete("diku", "mod-a_0").await();
    store.delete("diku", "nosuch_0").await();
    assertThat(store.forTenant("diku").await()).isEqualTo(Map.of("mod-a_1", off));
    assertThat(store.forTenant("nosuch").await()).isEmpty();
    assertThat(store.all().await())
        .extracting(TimerStore.Patch::tenant)
        .containsExactlyInAnyOrderElementsOf(List.of("diku", "other"));
    store.close().await();
  }
}
