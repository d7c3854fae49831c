package io.okapigw.core.eureka.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.config.Settings;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.UpstreamOptions;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Keycloak's admin events read by the cluster's reader: what it logs when Keycloak cannot be
 * reached.
 */
class AdminEventsTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  /**
   * Keycloak down: a round a second would log a line a second per realm; one line a minute per
   * kind, then how many were not logged.
   */
  @Test
  void keycloakUnreachable_oneLineAMinute_notOneARound() {
    EurekaOptions options =
        EurekaOptions.from(
            Settings.of(
                Map.of(
                    "eureka.keycloak-url",
                    "http://127.0.0.1:" + FreePorts.belowEphemeralRange(),
                    "eureka.admin-client-secret",
                    "adm")));
    ModuleClient modules =
        ModuleClient.create(vertx, UpstreamOptions.defaults(), CallObserver.NONE);
    EurekaCalls keycloak = new EurekaCalls(modules, options);
    AtomicLong nanos = new AtomicLong();
    ClusterBus bus = ClusterBus.create(vertx, Duration.ofSeconds(1));
    AdminEvents events =
        AdminEvents.create(
                vertx,
                AuthCache.create(AuthCacheOptions.defaults(), new SimpleMeterRegistry()),
                keycloak,
                new ServiceTokens(keycloak, options, Ticker.systemTicker()),
                () -> Set.of("eur"),
                options,
                bus,
                ReaderRole.start(vertx, bus, true).await(),
                nanos::get)
            .await();

    try (LogCapture log = new LogCapture()) {
      for (int round = 0; round < 30; round++) {
        events.pollAll().await();
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
      }
      assertThat(log.lines())
          .filteredOn(l -> l.contains("admin events of realm eur not read"))
          .hasSize(1);

      nanos.addAndGet(TimeUnit.SECONDS.toNanos(31));
      events.pollAll().await();
      assertThat(log.text()).contains("29 more upstream failures not logged");
      assertThat(log.lines())
          .filteredOn(l -> l.contains("admin events of realm eur not read"))
          .hasSize(2);
    }
  }
}
