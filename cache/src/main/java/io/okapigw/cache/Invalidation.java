package io.okapigw.cache;

import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Which entries an invalidation removes. A completed entry is judged on its key and decision; a
 * load in flight on its key only, since its decision is not known yet.
 *
 * @param scope bounded metric tag: all, tenant, user or token
 * @param inFlight matches keys of loads in flight
 * @param cached matches completed entries
 */
record Invalidation(
    String scope, Predicate<StoredKey> inFlight, BiPredicate<StoredKey, AuthDecision> cached) {

  static Invalidation all() {
    return new Invalidation("all", key -> true, (key, decision) -> true);
  }

  static Invalidation tenant(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    return new Invalidation(
        "tenant",
        key -> key.tenant().equals(tenant),
        (key, decision) -> key.tenant().equals(tenant));
  }

  /** A load in flight may turn out to be the user's, so every one of the tenant matches. */
  static Invalidation user(String tenant, String userId) {
    Objects.requireNonNull(tenant, "tenant");
    requireNotEmpty(userId, "userId");
    return new Invalidation(
        "user",
        key -> key.tenant().equals(tenant),
        (key, decision) ->
            key.tenant().equals(tenant)
                && (key.userId().equals(userId) || decision.userId().equals(userId)));
  }

  static Invalidation token(String token) {
    requireNotEmpty(token, "token");
    long[] digest = StoredKey.digest(token);
    return new Invalidation(
        "token",
        key -> key.hasToken(digest),
        (key, decision) -> key.hasToken(digest) || handsOut(decision, token));
  }

  /**
   * @param decisionOrNull the decision as held: the request's token in it is the key's ({@link
   *     CompactDecision})
   */
  boolean matches(StoredKey key, AuthDecision decisionOrNull) {
    return decisionOrNull == null ? inFlight.test(key) : cached.test(key, decisionOrNull);
  }

  private static boolean handsOut(AuthDecision decision, String token) {
    return decision.moduleToken().equals(token) || decision.moduleTokens().containsValue(token);
  }

  private static void requireNotEmpty(String value, String name) {
    if (Objects.requireNonNull(value, name).isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }
}
