package io.okapigw.core.eureka;

import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Every call to Eureka's services (Keycloak; mgr-tenant-entitlements and mgr-applications), through
 * the node's one {@link ModuleClient} (its pools, timeouts, failure mapping, metrics {@code
 * kind=keycloak} and trace spans), the service being the instances of a module of its name. Forms
 * are written as the sidecar's Vert.x web client writes them: fields in the order given, {@code
 * application/x-www-form-urlencoded}, encoded as Netty's {@code QueryStringEncoder} encodes them.
 */
public final class EurekaCalls {

  /** Bodies of Keycloak's answers kept: a JWKS, a token, a page of admin events. */
  private static final int MAX_BODY = 1024 * 1024;

  private final ModuleClient modules;
  private final Instances keycloak;
  private final long timeoutMillis;

  /**
   * @param modules the node's module client
   * @param options where Keycloak is, how long it may take
   */
  public EurekaCalls(ModuleClient modules, EurekaOptions options) {
    this(modules, "keycloak", options.keycloakUrl(), options);
  }

  /**
   * @param name the service, as metrics and errors name it
   * @param url its base URL
   */
  public EurekaCalls(ModuleClient modules, String name, String url, EurekaOptions options) {
    this.modules = modules;
    this.keycloak = Instances.of(name, List.of(url));
    this.timeoutMillis = options.callTimeout().toMillis();
  }

  /**
   * @param path under Keycloak's URL, e.g. {@code /realms/diku/protocol/openid-connect/certs}
   * @param bearer an access token sent as {@code Authorization: Bearer}, or null
   * @return Keycloak's answer, any status; failed with 502/504 if Keycloak cannot be reached
   */
  public Future<Answer> get(String path, String bearer) {
    return call(HttpMethod.GET, path, bearer, null);
  }

  /**
   * Posts a form.
   *
   * @param fields the form's fields, in order
   * @param bearer an access token sent as {@code Authorization: Bearer}, or null
   * @return Keycloak's answer, any status; failed with 502/504 if Keycloak cannot be reached
   */
  public Future<Answer> postForm(String path, Map<String, String> fields, String bearer) {
    return call(HttpMethod.POST, path, bearer, form(fields));
  }

  /**
   * @return the form as the sidecar's web client encodes it ({@code sendForm}: Netty's {@code
   *     QueryStringEncoder}, UTF-8, a space as {@code %20})
   */
  static String form(Map<String, String> fields) {
    StringJoiner body = new StringJoiner("&");
    fields.forEach((name, value) -> body.add(encode(name) + "=" + encode(value)));
    return body.toString();
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A");
  }

  private Future<Answer> call(HttpMethod method, String path, String bearer, String form) {
    return modules
        .open(CallKind.KEYCLOAK, keycloak, method, path, timeoutMillis)
        .compose(
            call -> {
              MultiMap headers = call.headers();
              if (bearer != null) {
                headers.set("Authorization", "Bearer " + bearer);
              }
              Buffer body = null;
              if (form != null) {
                headers.set("Content-Type", "application/x-www-form-urlencoded");
                body = Buffer.buffer(form);
              }
              return call.exchange(body, status -> MAX_BODY);
            });
  }
}
