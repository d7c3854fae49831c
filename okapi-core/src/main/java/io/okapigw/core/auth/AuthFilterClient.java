package io.okapigw.core.auth;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.ModuleCall;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One call to the tenant's auth filter as Okapi 6.1.5 makes it: the original method and path, no
 * body, the client's headers, Okapi's request headers, {@code X-Okapi-Permissions-Required} and
 * {@code -Desired} comma-separated and only when not empty, {@code X-Okapi-Module-Permissions}
 * always ({@code {}} when none), and no {@code X-Okapi-Filter}. Unlike Okapi, its only credentials
 * are those the decision is cached under ({@link AuthRequest#token()}, {@link
 * AuthRequest#userId()}): the token as one {@code X-Okapi-Token}, whatever line or cookie it came
 * in, and the user id sent with it; no {@code Cookie}, {@code Authorization} or other line of the
 * client's that an auth module could read another token or user from. Any HTTP answer becomes an
 * {@link AuthDecision}, a refusal keeping its body of up to 64 KiB (a longer one replaced by the
 * gateway's own words, never relayed cut); an auth module that cannot be reached, or that does not
 * answer within {@code auth.timeout} ({@code auth.cold-timeout} while it is cold: {@link
 * ColdAuthModules}), fails the future with 503 (fail closed). A variant asks the auth filter about
 * a system call ({@link #callForSystem}).
 */
public final class AuthFilterClient {

  private static final int MAX_REFUSAL_BODY = 64 * 1024;

  /** The body of a refusal whose own is longer than the gateway relays (never relayed cut). */
  static final String TOO_LONG =
      "the auth module's refusal has a body longer than the "
          + MAX_REFUSAL_BODY / 1024
          + " KiB the gateway relays: its status is relayed, its body is not";

  private final ModuleClient modules;
  private final ColdAuthModules cold;

  /**
   * @param modules opens the calls to the auth module
   * @param timeout how long the auth module may stay silent on a request's auth call, cold or warm
   */
  public AuthFilterClient(ModuleClient modules, Duration timeout) {
    this(
        modules,
        new ColdAuthModules(
            AuthOptions.defaults().withTimeout(timeout).withColdTimeout(timeout), () -> 0));
  }

  /**
   * @param modules opens the calls to the auth module
   * @param cold which auth modules are in their warm-up: the node's, shared with the handler calls
   *     to them ({@link AuthModuleCalls})
   */
  public AuthFilterClient(ModuleClient modules, ColdAuthModules cold) {
    this.modules = modules;
    this.cold = cold;
  }

  /**
   * @return the auth module's answer; failed with a 503 {@link HttpError} if unreachable
   */
  public Future<AuthDecision> call(AuthRequest request) {
    return cold.call(
            request.filter().moduleId(),
            timeoutMillis ->
                modules
                    .open(
                        CallKind.AUTH,
                        request.filter(),
                        request.method(),
                        request.uri(),
                        timeoutMillis)
                    .compose(call -> ask(call, headers -> writeHeaders(headers, request), null)))
        .recover(
            e ->
                Future.failedFuture(
                    HttpError.unavailable(
                        "auth module "
                            + request.filter().moduleId()
                            + " unavailable, request refused: "
                            + e.getMessage())));
  }

  /**
   * The auth filter asked about a system call ({@code _tenant}, {@code _tenantPermissions}, {@code
   * _timer}) as Okapi 6.1.5 asks it: the system call's method and path under the auth module's URL,
   * an empty body, {@code X-Okapi-Filter: auth}, the handler's {@code X-Okapi-Module-Permissions},
   * no token.
   *
   * @param filter the auth module's instances
   * @param headers the system call's headers (tenant, URL); copied
   * @param modulePermissions {@code X-Okapi-Module-Permissions}: a JSON object
   * @param timeoutMillis how long the auth module may stay silent; 0 for no limit
   * @return the auth module's answer, a refusal too; failed with 502/504 naming the auth module if
   *     it cannot be reached or does not answer in time
   */
  public Future<AuthDecision> callForSystem(
      Instances filter,
      HttpMethod method,
      String path,
      MultiMap headers,
      String modulePermissions,
      long timeoutMillis) {
    return modules
        .open(CallKind.AUTH, filter, method, path, timeoutMillis)
        .compose(
            call ->
                ask(
                    call,
                    out ->
                        out.addAll(headers)
                            .set(OkapiHeaders.FILTER, "auth")
                            .set(OkapiHeaders.MODULE_PERMISSIONS, modulePermissions),
                    Buffer.buffer()));
  }

  /**
   * Sends the call, reads the answer (the start of a refusal kept) and decides; failures mapped.
   */
  private static Future<AuthDecision> ask(
      ModuleCall call, Consumer<MultiMap> headers, Buffer body) {
    headers.accept(call.headers());
    // one byte past the bound kept: a longer refusal is known, and never relayed cut as whole
    return call.exchange(body, status -> status / 100 == 2 ? 0 : MAX_REFUSAL_BODY + 1)
        .map(AuthFilterClient::decision);
  }

  private static void writeHeaders(MultiMap headers, AuthRequest request) {
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
  }

  private static void setList(MultiMap headers, String name, Set<String> values) {
    if (!values.isEmpty()) {
      headers.set(name, String.join(",", values));
    }
  }

  private static AuthDecision decision(ModuleCall.Answer answer) {
    MultiMap headers = answer.headers();
    int status = answer.status();
    if (status / 100 == 2) {
      return AuthDecision.grant(
          status,
          headers.get(OkapiHeaders.TOKEN),
          headers.get(OkapiHeaders.USER_ID),
          headers.get(OkapiHeaders.PERMISSIONS),
          moduleTokens(headers.get(OkapiHeaders.MODULE_TOKENS)));
    }
    if (answer.body().length() > MAX_REFUSAL_BODY) {
      return AuthDecision.refusal(status, TOO_LONG, "text/plain");
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
}
