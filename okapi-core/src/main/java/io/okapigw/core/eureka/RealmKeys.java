package io.okapigw.core.eureka;

import io.jsonwebtoken.security.Jwk;
import io.jsonwebtoken.security.JwkSet;
import io.jsonwebtoken.security.Jwks;
import io.okapigw.core.auth.AuthRefusal;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.upstream.ModuleCall;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.security.Key;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each realm's signing keys, from its JWKS ({@code /realms/{tenant}/protocol/openid-connect/certs},
 * read with JJWT's {@link Jwks}), as the sidecar keeps them per issuer. The rules:
 *
 * <ul>
 *   <li>A token of a known key id is checked with the keys held, never waits for a fetch and never
 *       loses them: neither a failed fetch nor an unknown key id drops a key. Keys older than
 *       {@code eureka.jwks-refresh} are fetched again in the background, still used meanwhile.
 *   <li>An unknown key id (Keycloak rotated its keys, or a made-up token) joins the fetch under
 *       way; else fetches at once, unless the last fetch succeeded less than {@code
 *       eureka.jwks-refetch-min} ago: then it waits for one fetch due at the end of that time
 *       (shared by all that come meanwhile) when that is at most {@link #MAX_WAIT} away, else 401.
 *       So made-up key ids cost Keycloak one fetch per {@code eureka.jwks-refetch-min}, and a
 *       genuine new key right after a made-up one is taken within it.
 *   <li>A failed fetch is remembered for {@code eureka.jwks-retry}: meanwhile no fetch, and an
 *       unknown key id gets its answer at once (503; 401 for a realm Keycloak lacks, whose keys
 *       held, if any, are dropped).
 * </ul>
 */
final class RealmKeys {

  private static final Logger log = LoggerFactory.getLogger(RealmKeys.class);

  /** The longest an unknown key id waits for the next allowed fetch (longer: 401 at once). */
  static final Duration MAX_WAIT = Duration.ofSeconds(5);

  /** Reads a realm's JWKS. */
  interface Certs {
    Future<ModuleCall.Answer> get(String realm);
  }

  private final Certs certs;
  private final Timing scheduler;
  private final Duration refresh;
  private final Duration refetchMin;
  private final Duration retry;
  private final Map<String, Realm> realms = new ConcurrentHashMap<>();

  RealmKeys(EurekaCalls keycloak, EurekaOptions options, Timing scheduler) {
    this(
        realm -> keycloak.get("/realms/" + realm + "/protocol/openid-connect/certs", null),
        options,
        scheduler);
  }

  RealmKeys(Certs certs, EurekaOptions options, Timing scheduler) {
    this.certs = certs;
    this.scheduler = scheduler;
    this.refresh = options.jwksRefresh();
    this.refetchMin = options.jwksRefetchMin();
    this.retry = options.jwksRetry();
  }

  /**
   * @return the realm's signing key of that id; failed with 401 if the realm has none such (or is
   *     not Keycloak's), 503 if its keys cannot be read
   */
  Future<PublicKey> key(String tenant, String keyId) {
    return realms.computeIfAbsent(tenant, Realm::new).key(keyId);
  }

  private static AuthRefusal unknownKey(String tenant) {
    return EurekaErrors.unauthorized("the token is not signed by a key of realm " + tenant);
  }

  /** One realm's keys and its fetches; every field guarded by the realm's lock. */
  private final class Realm {

    private final String name;
    private Map<String, PublicKey> held;
    private Instant heldFrom;
    private Future<Map<String, PublicKey>> fetching;
    private Instant lastForced;
    private Instant failedAt;
    private Throwable failure;
    private Promise<Map<String, PublicKey>> due;

    Realm(String name) {
      this.name = name;
    }

    synchronized Future<PublicKey> key(String keyId) {
      Instant now = scheduler.now();
      PublicKey key = held == null ? null : held.get(keyId);
      if (key != null) {
        if (!now.isBefore(heldFrom.plus(refresh)) && fetching == null && !failedRecently(now)) {
          fetch(now);
        }
        return Future.succeededFuture(key);
      }
      return keysForUnknown(now).compose(keys -> found(keys, keyId));
    }

    private Future<PublicKey> found(Map<String, PublicKey> keys, String keyId) {
      PublicKey key = keys.get(keyId);
      return key != null ? Future.succeededFuture(key) : Future.failedFuture(unknownKey(name));
    }

    private Future<Map<String, PublicKey>> keysForUnknown(Instant now) {
      if (fetching != null) {
        return fetching;
      }
      if (failedRecently(now)) {
        return Future.failedFuture(failure);
      }
      if (held != null && lastForced != null) {
        Instant allowed = lastForced.plus(refetchMin);
        if (now.isBefore(allowed)) {
          return Duration.between(now, allowed).compareTo(MAX_WAIT) <= 0
              ? dueAt(allowed)
              : Future.failedFuture(unknownKey(name));
        }
      }
      if (held != null) {
        lastForced = now;
      }
      return fetch(now);
    }

    private boolean failedRecently(Instant now) {
      return failure != null && now.isBefore(failedAt.plus(retry));
    }

    /** One fetch at {@code at} for every unknown key id until then. */
    private Future<Map<String, PublicKey>> dueAt(Instant at) {
      if (due == null) {
        Promise<Map<String, PublicKey>> promise = Promise.promise();
        due = promise;
        scheduler.at(
            at,
            () -> {
              Future<Map<String, PublicKey>> keys;
              synchronized (this) {
                due = null;
                if (fetching != null) {
                  keys = fetching;
                } else {
                  lastForced = scheduler.now();
                  keys = fetch(lastForced);
                }
              }
              keys.onComplete(promise);
              return keys.<Void>mapEmpty().otherwiseEmpty();
            });
      }
      return due.future();
    }

    private Future<Map<String, PublicKey>> fetch(Instant now) {
      Future<Map<String, PublicKey>> keys = certs.get(name).map(this::read);
      fetching = keys;
      keys.onComplete(
          done -> {
            synchronized (this) {
              if (fetching == keys) {
                fetching = null;
              }
              if (done.succeeded()) {
                held = done.result();
                heldFrom = now;
                failure = null;
              } else {
                failure = done.cause();
                failedAt = scheduler.now();
                log.warn("keys of realm {} not read: {}", name, failure.getMessage());
              }
            }
          });
      return keys;
    }

    private Map<String, PublicKey> read(ModuleCall.Answer answer) {
      if (answer.status() == 404) {
        synchronized (this) {
          held = null;
        }
        throw EurekaErrors.unauthorized("Keycloak has no realm " + name);
      }
      if (answer.status() != 200) {
        throw HttpError.unavailable(
            "Keycloak answered " + answer.status() + " for the keys of realm " + name);
      }
      return signingKeys(answer.body().toString());
    }
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
