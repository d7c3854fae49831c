package io.okapigw.core.auth;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.upstream.UpstreamClient;
import io.okapigw.core.upstream.UpstreamClient.Target;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One call to the tenant's auth filter as Okapi 6.1.5 makes it: the original method and path, no
 * body, the client's headers, Okapi's request headers, {@code X-Okapi-Permissions-Required} and
 * {@code -Desired} comma-separated and only when not empty, {@code X-Okapi-Module-Permissions}
 * always ({@code {}} when none), and no {@code X-Okapi-Filter}. Unlike Okapi, its only credentials
 * are those the decision is cached under ({@link AuthRequest#token()}, {@link
 * AuthRequest#userId()}): the token as one {@code X-Okapi-Token}, whatever line or cookie it came
 * in, and the user id sent with it; no {@code Cookie}, {@code Authorization} or other line of the
 * client's that an auth module could read another token or user from. Any HTTP answer becomes an
 * {@link AuthDecision}, a refusal keeping the first 64 KiB of its body; an auth module that cannot
 * be reached, or whose answer does not end within {@code proxy.idle-timeout}, fails the future with
 * 503 (fail closed).
 */
public final class AuthFilterClient {

  private static final int MAX_REFUSAL_BODY = 64 * 1024;

  private final UpstreamClient upstream;

  public AuthFilterClient(UpstreamClient upstream) {
    this.upstream = upstream;
  }

  /**
   * @return the auth module's answer; failed with a 503 {@link HttpError} if unreachable
   */
  public Future<AuthDecision> call(AuthRequest request) {
    return upstream
        .open(request.filter(), request.method(), request.uri())
        .compose(
            target ->
                send(target, request)
                    .map(UpstreamClient::finalAnswer)
                    .compose(this::read)
                    .recover(UpstreamClient.failureFor(target)))
        .map(AuthFilterClient::decision)
        .recover(
            e ->
                Future.failedFuture(
                    HttpError.unavailable(
                        "auth module "
                            + request.filter().moduleId()
                            + " unavailable, request refused: "
                            + e.getMessage())));
  }

  private static Future<HttpClientResponse> send(Target target, AuthRequest request) {
    MultiMap headers = target.request().headers();
    request.headers().writeTo(headers, request.filter());
    headers.remove("Content-Length");
    Pipeline pipeline = request.pipeline();
    setList(
        headers,
        OkapiHeaders.PERMISSIONS_REQUIRED,
        pipeline.permissionsRequired(request.token() != null));
    setList(headers, OkapiHeaders.PERMISSIONS_DESIRED, pipeline.permissionsDesired());
    headers.set(
        OkapiHeaders.MODULE_PERMISSIONS,
        new JsonObject(new LinkedHashMap<>(pipeline.modulePermissions())).encode());
    Set<String> extra = pipeline.extraPermissions();
    if (!extra.isEmpty()) {
      headers.set(OkapiHeaders.EXTRA_PERMISSIONS, new JsonArray(List.copyOf(extra)).encode());
    }
    if (request.token() != null) {
      headers.add(OkapiHeaders.TOKEN, request.token());
    }
    if (request.userId() != null) {
      headers.add(OkapiHeaders.USER_ID, request.userId());
    }
    return target.request().send();
  }

  private static void setList(MultiMap headers, String name, Set<String> values) {
    if (!values.isEmpty()) {
      headers.set(name, String.join(",", values));
    }
  }

  /** Reads the answer to its end (within the idle timeout), keeping the start of a refusal. */
  private Future<Answer> read(HttpClientResponse response) {
    int keep = response.statusCode() / 100 == 2 ? 0 : MAX_REFUSAL_BODY;
    return upstream.read(response, keep).map(body -> new Answer(response, body));
  }

  private static AuthDecision decision(Answer answer) {
    MultiMap headers = answer.head().headers();
    int status = answer.head().statusCode();
    if (status / 100 == 2) {
      return AuthDecision.grant(
          status,
          headers.get(OkapiHeaders.TOKEN),
          headers.get(OkapiHeaders.USER_ID),
          headers.get(OkapiHeaders.PERMISSIONS),
          moduleTokens(headers.get(OkapiHeaders.MODULE_TOKENS)));
    }
    return AuthDecision.refusal(status, answer.body().toString(), headers.get("Content-Type"));
  }

  private static Map<String, String> moduleTokens(String json) {
    Map<String, String> tokens = new HashMap<>();
    if (json == null || json.isBlank()) {
      return tokens;
    }
    try {
      new JsonObject(json)
          .forEach(
              e -> {
                if (e.getValue() instanceof String token) {
                  tokens.put(e.getKey(), token);
                }
              });
    } catch (RuntimeException e) {
      throw new IllegalStateException("auth module answered an unreadable X-Okapi-Module-Tokens");
    }
    return tokens;
  }

  /** The auth filter's answer: its head, and its body (kept for refusals only). */
  private record Answer(HttpClientResponse head, Buffer body) {}
}
