package io.okapigw.core.eureka.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.cache.AuthDecision;
import io.okapigw.config.Settings;
import io.okapigw.core.eureka.EurekaOptions;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** mod-login-keycloak's logout events applied to the decision cache (no broker needed). */
class LogoutEventsTest {

  private static final String TOPIC = "folio.eur.mod-login-keycloak.logout";

  private final AuthCache cache =
      AuthCache.create(AuthCacheOptions.defaults(), new SimpleMeterRegistry());
  private final LogoutEvents events =
      LogoutEvents.create(
          cache,
          EurekaOptions.from(
              Settings.of(
                  Map.of(
                      "eureka.keycloak-url",
                      "http://127.0.0.1:1",
                      "eureka.kafka",
                      "127.0.0.1:1",
                      "eureka.logout-settle",
                      "0s"))),
          "node-1");

  @AfterEach
  void close() {
    events.close();
  }

  private boolean cached(String user, String session) {
    AtomicInteger calls = new AtomicInteger();
    cache
        .get(
            new AuthCacheKey("eur", "GET", "/things", user, null, session),
            k -> {
              calls.incrementAndGet();
              return CompletableFuture.completedFuture(
                  AuthDecision.grant(200, null, user, null, null));
            })
        .join();
    return calls.get() == 0;
  }

  @Test
  void logout_dropsThatSessionsDecisions_only() {
    cached("u1", "s1");
    cached("u1", "s2");

    events.handle(TOPIC, "{\"userId\":\"u1\",\"sessionId\":\"s1\",\"type\":\"LOGOUT\"}");

    assertThat(cached("u1", "s1")).isFalse();
    assertThat(cached("u1", "s2")).isTrue();
  }

  @Test
  void logoutAll_dropsTheUsersDecisions_inThatTenantOnly() {
    cached("u1", "s1");
    cached("u2", "s3");

    events.handle(TOPIC, "{\"userId\":\"u1\",\"keycloakUserId\":\"k1\",\"type\":\"LOGOUT_ALL\"}");
    events.handle(
        "folio.other.mod-login-keycloak.logout", "{\"userId\":\"u2\",\"type\":\"LOGOUT_ALL\"}");

    assertThat(cached("u1", "s1")).isFalse();
    assertThat(cached("u2", "s3")).isTrue();
  }

  @Test
  void unknownEvent_refused_nothingDropped() {
    cached("u1", "s1");

    assertThatThrownBy(() -> events.handle(TOPIC, "{\"userId\":\"u1\",\"type\":\"LOGIN\"}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(cached("u1", "s1")).isTrue();
  }
}
