package io.okapigw.cache;

import java.util.HashMap;
import java.util.Map;

/**
 * A decision as the cache holds it: the request's token, which the auth module hands back as the
 * module token ({@code X-Okapi-Token}) and as the default of {@code X-Okapi-Module-Tokens} ({@code
 * _}), held by none of them: a marker stands in its place, and the token comes back from the
 * request that finds the entry (whose token has the key's digest, so it is that token). The user id
 * is the key's copy; the strings entries share are held once ({@link Names}).
 */
final class CompactDecision {

  /** Stands in for the request's token; compared by identity. No header value holds a NUL. */
  @SuppressWarnings("StringOperationCanBeSimplified")
  static final String REQUEST_TOKEN = new String("\0the request's token");

  private static final Map<String, String> DEFAULT_ONLY = Map.of("_", REQUEST_TOKEN);

  private CompactDecision() {}

  /**
   * @param decision the decision as loaded
   * @param token the request's token
   * @param key the key it is stored under
   * @return the decision as held
   */
  static AuthDecision compact(AuthDecision decision, String token, StoredKey key, Names names) {
    return new AuthDecision(
        decision.status(),
        stand(decision.moduleToken(), token),
        decision.userId().equals(key.userId()) ? key.userId() : decision.userId(),
        names.canonical(decision.permissions()),
        moduleTokens(decision.moduleTokens(), token),
        decision.body(),
        names.canonical(decision.contentType()),
        decision.expiresAt(),
        decision.stale());
  }

  /**
   * @param held a decision as held
   * @param token the token of the request that found it
   * @return the decision as the auth module answered it
   */
  static AuthDecision expand(AuthDecision held, String token) {
    boolean inModuleTokens = held.moduleTokens().containsValue(REQUEST_TOKEN);
    if (held.moduleToken() != REQUEST_TOKEN && !inModuleTokens) {
      return held;
    }
    Map<String, String> moduleTokens = held.moduleTokens();
    if (moduleTokens == DEFAULT_ONLY) {
      moduleTokens = Map.of("_", token);
    } else if (inModuleTokens) {
      moduleTokens = new HashMap<>(moduleTokens);
      moduleTokens.replaceAll((module, t) -> t == REQUEST_TOKEN ? token : t);
    }
    return new AuthDecision(
        held.status(),
        held.moduleToken() == REQUEST_TOKEN ? token : held.moduleToken(),
        held.userId(),
        held.permissions(),
        moduleTokens,
        held.body(),
        held.contentType(),
        held.expiresAt(),
        held.stale());
  }

  /**
   * @return whether {@code s} is the marker of the request's token
   */
  static boolean isRequestToken(String s) {
    return s == REQUEST_TOKEN;
  }

  /**
   * @return whether {@code map} is the one held for {@code {"_": the request's token}}, shared by
   *     every entry that has it
   */
  static boolean isDefaultOnly(Map<String, String> map) {
    return map == DEFAULT_ONLY;
  }

  private static String stand(String s, String token) {
    return !token.isEmpty() && s.equals(token) ? REQUEST_TOKEN : s;
  }

  private static Map<String, String> moduleTokens(Map<String, String> tokens, String token) {
    if (tokens.isEmpty() || token.isEmpty() || !tokens.containsValue(token)) {
      return tokens;
    }
    if (tokens.size() == 1 && token.equals(tokens.get("_"))) {
      return DEFAULT_ONLY;
    }
    Map<String, String> compact = new HashMap<>(tokens);
    compact.replaceAll((module, t) -> t.equals(token) ? REQUEST_TOKEN : t);
    return compact;
  }
}
