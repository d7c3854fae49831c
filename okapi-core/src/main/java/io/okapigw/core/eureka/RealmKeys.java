package io.okapigw.core.eureka;

import com.github.benmanes.caffeine.cache.Ticker;
import io.jsonwebtoken.security.Jwk;
import io.jsonwebtoken.security.JwkSet;
import io.jsonwebtoken.security.Jwks;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.security.Key;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each realm's signing keys, from its JWKS ({@code /realms/{tenant}/protocol/openid-connect/certs},
 * read with JJWT's {@link Jwks}), as the sidecar keeps them per issuer: fetched on first use, again
 * after {@code eureka.jwks-refresh}, and at once when a token names a key id the set lacks
 * (Keycloak rotated its keys), but at most once per {@code eureka.jwks-refetch-min}, so tokens with
 * made-up key ids cannot make the gateway hammer Keycloak. Concurrent requests share one fetch.
 */
final class RealmKeys {

  private static final Logger log = LoggerFactory.getLogger(RealmKeys.class);

  /** A realm's signing keys by key id, and when they were fetched. */
  private record KeySet(Map<String, PublicKey> byId, long fetchedAt) {}

  private final EurekaCalls keycloak;
  private final Ticker ticker;
  private final long refreshNanos;
  private final long refetchMinNanos;
  private final Map<String, Future<KeySet>> realms = new ConcurrentHashMap<>();
  private final Map<String, Long> forcedAt = new ConcurrentHashMap<>();

  RealmKeys(EurekaCalls keycloak, EurekaOptions options, Ticker ticker) {
    this.keycloak = keycloak;
    this.ticker = ticker;
    this.refreshNanos = options.jwksRefresh().toNanos();
    this.refetchMinNanos = options.jwksRefetchMin().toNanos();
  }

  /**
   * @return the realm's signing key of that id; failed with 401 if the realm has none such, 503 if
   *     its keys cannot be read
   */
  Future<PublicKey> key(String tenant, String keyId) {
    return current(tenant)
        .compose(
            keys -> {
              PublicKey key = keys.byId().get(keyId);
              if (key != null) {
                return Future.succeededFuture(key);
              }
              if (!mayForce(tenant)) {
                return Future.failedFuture(unknownKey(tenant));
              }
              return refetch(tenant, keys).compose(fresh -> found(fresh, tenant, keyId));
            });
  }

  /**
   * @return whether the realm's keys may be fetched again for an unknown key id now: no such fetch
   *     in the last {@code eureka.jwks-refetch-min}; claims the fetch if so
   */
  private boolean mayForce(String tenant) {
    long now = ticker.read();
    boolean[] may = {false};
    forcedAt.compute(
        tenant,
        (t, last) -> {
          may[0] = last == null || now - last >= refetchMinNanos;
          return may[0] ? now : last;
        });
    return may[0];
  }

  private static Future<PublicKey> found(KeySet keys, String tenant, String keyId) {
    PublicKey key = keys.byId().get(keyId);
    return key != null ? Future.succeededFuture(key) : Future.failedFuture(unknownKey(tenant));
  }

  private static io.okapigw.core.auth.AuthRefusal unknownKey(String tenant) {
    return EurekaErrors.unauthorized("the token is not signed by a key of realm " + tenant);
  }

  private Future<KeySet> current(String tenant) {
    Future<KeySet> held = realms.get(tenant);
    if (held != null && !stale(held)) {
      return held;
    }
    return refetch(tenant, held == null || !held.succeeded() ? null : held.result());
  }

  private boolean stale(Future<KeySet> held) {
    return held.failed()
        || held.succeeded() && ticker.read() - held.result().fetchedAt() >= refreshNanos;
  }

  /** Fetches the realm's keys once for everyone who finds {@code seen} (or nothing) there now. */
  private Future<KeySet> refetch(String tenant, KeySet seen) {
    return realms.compute(
        tenant,
        (t, held) -> {
          boolean replace =
              held == null
                  || held.isComplete() && (held.failed() || seen == null || held.result() == seen);
          if (!replace) {
            return held;
          }
          return fetch(t);
        });
  }

  private Future<KeySet> fetch(String tenant) {
    long started = ticker.read();
    return keycloak
        .get("/realms/" + tenant + "/protocol/openid-connect/certs", null)
        .map(
            answer -> {
              if (answer.status() != 200) {
                throw HttpError.unavailable(
                    "Keycloak answered " + answer.status() + " for the keys of realm " + tenant);
              }
              return new KeySet(signingKeys(answer.body().toString()), started);
            })
        .onFailure(e -> log.warn("keys of realm {} not read: {}", tenant, e.getMessage()));
  }

  /** The set's signature keys ({@code use} absent or {@code sig}) that have an id. */
  static Map<String, PublicKey> signingKeys(String json) {
    JwkSet set;
    try {
      set = Jwks.setParser().build().parse(json);
    } catch (RuntimeException e) {
      throw HttpError.unavailable("Keycloak's JWKS is not readable: " + e.getMessage());
    }
    Map<String, PublicKey> byId = new HashMap<>();
    for (Jwk<?> jwk : set) {
      Key key = jwk.toKey();
      boolean signing = jwk.get("use") == null || "sig".equals(jwk.get("use"));
      if (signing && jwk.getId() != null && key instanceof PublicKey publicKey) {
        byId.put(jwk.getId(), publicKey);
      }
    }
    return Map.copyOf(byId);
  }
}
