package io.okapigw.core.auth;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.upstream.UpstreamClient;
import io.okapigw.core.upstream.UpstreamClient.Target;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One call to the tenant's auth filter per Okapi's protocol: the original method and path, no
 * body, the pipeline's required/desired permissions and module permissions, {@code
 * X-Okapi-Filter: auth}. Any HTTP answer becomes an {@link AuthDecision}; an auth module that
 * cannot be reached fails the future with 503 (fail closed).
 */
public final class AuthFilterClient {

  private static final int MAX_REFUSAL_BODY = 64 * 1024;

  private final UpstreamClient upstream;

  public AuthFilterClient(UpstreamClient upstream) {
    this.upstream = upstream;
  }

  /** @return the auth module's answer; failed with a 503 {@link HttpError} if unreachable */
  public Future<AuthDecision> call(AuthRequest request) {
    return upstream.open(request.filter(), request.method(), request.uri())
        .compose(target -> send(target, request).recover(UpstreamClient.failureFor(target)))
        .compose(AuthFilterClient::decision)
        .recover(e -> Future.failedFuture(HttpError.unavailable("auth module "
            + request.filter().moduleId() + " unavailable, request refused: " + e.getMessage())));
  }

  private static Future<HttpClientResponse> send(Target target, AuthRequest request) {
    MultiMap headers = target.request().headers();
    headers.set(OkapiHeaders.FILTER, "auth")
        .set(OkapiHeaders.TENANT, request.tenant())
        .set(OkapiHeaders.URL, request.okapiUrl())
        .set(OkapiHeaders.REQUEST_ID, request.requestId())
        .set(OkapiHeaders.PERMISSIONS_REQUIRED,
            new JsonArray(List.copyOf(request.pipeline().permissionsRequired())).encode())
        .set(OkapiHeaders.PERMISSIONS_DESIRED,
            new JsonArray(List.copyOf(request.pipeline().permissionsDesired())).encode())
        .set(OkapiHeaders.MODULE_PERMISSIONS,
            new JsonObject(new HashMap<>(request.pipeline().modulePermissions())).encode())
        .set("Content-Length", "0");
    if (request.token() != null) {
      headers.set(OkapiHeaders.TOKEN, request.token());
    }
    if (request.userId() != null) {
      headers.set(OkapiHeaders.USER_ID, request.userId());
    }
    return target.request().send();
  }

  private static Future<AuthDecision> decision(HttpClientResponse response) {
    MultiMap headers = response.headers();
    if (response.statusCode() / 100 == 2) {
      return response.end().map(v -> AuthDecision.grant(response.statusCode(),
          headers.get(OkapiHeaders.TOKEN), headers.get(OkapiHeaders.USER_ID),
          headers.get(OkapiHeaders.PERMISSIONS),
          moduleTokens(headers.get(OkapiHeaders.MODULE_TOKENS))));
    }
    return response.body().map(body -> AuthDecision.refusal(response.statusCode(),
        truncate(body), headers.get("Content-Type")));
  }

  private static String truncate(Buffer body) {
    return body.length() > MAX_REFUSAL_BODY ? body.getString(0, MAX_REFUSAL_BODY)
        : body.toString();
  }

  private static Map<String, String> moduleTokens(String json) {
    Map<String, String> tokens = new HashMap<>();
    if (json == null || json.isBlank()) {
      return tokens;
    }
    try {
      new JsonObject(json).forEach(e -> {
        if (e.getValue() instanceof String token) {
          tokens.put(e.getKey(), token);
        }
      });
    } catch (RuntimeException e) {
      throw new IllegalStateException("auth module answered an unreadable X-Okapi-Module-Tokens");
    }
    return tokens;
  }
}
