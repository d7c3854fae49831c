package io.okapigw.core.auth;

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
import java.util.Map;

/**
 * Calls the tenant's auth filter per Okapi's protocol: the original method and path, no body,
 * the pipeline's required/desired permissions and module permissions, {@code X-Okapi-Filter:
 * auth}. Fails closed: an auth module that cannot be reached gives 503, never a pass.
 */
public final class AuthFilterClient implements AuthStage {

  private static final int MAX_DENIAL_BODY = 64 * 1024;

  private final UpstreamClient upstream;

  public AuthFilterClient(UpstreamClient upstream) {
    this.upstream = upstream;
  }

  @Override
  public Future<AuthGrant> authorize(AuthRequest request) {
    return upstream.open(request.filter(), request.method(), request.uri())
        .compose(target -> send(target, request)
            .recover(UpstreamClient.failureFor(target)))
        .recover(e -> Future.failedFuture(failClosed(request, e)))
        .compose(this::decide);
  }

  private Future<HttpClientResponse> send(Target target, AuthRequest request) {
    MultiMap headers = target.request().headers();
    headers.set(OkapiHeaders.FILTER, "auth")
        .set(OkapiHeaders.TENANT, request.tenant())
        .set(OkapiHeaders.URL, request.okapiUrl())
        .set(OkapiHeaders.REQUEST_ID, request.requestId())
        .set(OkapiHeaders.PERMISSIONS_REQUIRED,
            new JsonArray(java.util.List.copyOf(request.pipeline().permissionsRequired())).encode())
        .set(OkapiHeaders.PERMISSIONS_DESIRED,
            new JsonArray(java.util.List.copyOf(request.pipeline().permissionsDesired())).encode())
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

  private Future<AuthGrant> decide(HttpClientResponse response) {
    if (response.statusCode() / 100 == 2) {
      return response.end().map(v -> grant(response.headers()));
    }
    String type = response.getHeader("Content-Type");
    return response.body()
        .recover(e -> Future.succeededFuture(Buffer.buffer()))
        .compose(body -> Future.failedFuture(denial(response.statusCode(), type, body)));
  }

  private static HttpError denial(int status, String contentType, Buffer body) {
    String text = body.length() > MAX_DENIAL_BODY
        ? body.getString(0, MAX_DENIAL_BODY) : body.toString();
    if (status == 401 || status == 403 || status == 400 || status == 422) {
      return new HttpError(status, text.isEmpty() ? "access denied by the auth module" : text,
          contentType == null ? "text/plain; charset=utf-8" : contentType);
    }
    return HttpError.unavailable("auth module answered " + status + "; request refused");
  }

  private static Throwable failClosed(AuthRequest request, Throwable e) {
    if (e instanceof HttpError error && error.status() < 500) {
      return error;
    }
    return HttpError.unavailable("auth module " + request.filter().moduleId()
        + " unavailable, request refused: " + e.getMessage());
  }

  private static AuthGrant grant(MultiMap headers) {
    return new AuthGrant(headers.get(OkapiHeaders.TOKEN), headers.get(OkapiHeaders.USER_ID),
        headers.get(OkapiHeaders.PERMISSIONS), moduleTokens(headers.get(OkapiHeaders.MODULE_TOKENS)));
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
      throw HttpError.unavailable("auth module answered an unreadable X-Okapi-Module-Tokens");
    }
    return tokens;
  }
}
