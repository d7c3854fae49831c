package io.okapigw.perf.hop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Registers the hop module on a gateway through Okapi's admin API (ours and Okapi alike): the
 * module, its instance, tenant {@value #NO_AUTH} with only the module, and, when an authtoken
 * module is given, tenant {@value #AUTH} with the authtoken module's filter too; then logs in
 * there.
 */
final class GatewaySetup {

  static final String NO_AUTH = "noauth";
  static final String AUTH = "auth";
  static final String MODULE_ID = "mod-hop-1.0.0";
  static final String PERMISSION = "hop.get";
  static final String USER = "bench";

  private static final String AUTHTOKEN_ID = "mod-authtoken-1.0.0";
  private static final String DESCRIPTOR =
      """
      {"id": "%s", "provides": [{"id": "hop", "version": "1.0", "handlers": [
        {"methods": ["GET"], "pathPattern": "/hop/{bytes}", "permissionsRequired": ["%s"]}]}]}
      """
          .formatted(MODULE_ID, PERMISSION);

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          // no h2c upgrade attempt: a relay would pass the Upgrade on to the module
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  private final URI gateway;

  GatewaySetup(URI gateway) {
    this.gateway = gateway;
  }

  /**
   * On a gateway of our own, started empty: every call must succeed.
   *
   * @param authtokenDescriptor the authtoken module's descriptor, or null for no auth tenant
   */
  void registerFresh(int modulePort, Path authtokenDescriptor, int authtokenPort)
      throws IOException, InterruptedException {
    for (Call call : calls(modulePort, authtokenDescriptor, authtokenPort)) {
      int status = call.send(gateway);
      if (status / 100 != 2) {
        throw new IllegalStateException(call + " answered " + status);
      }
    }
  }

  /**
   * On a gateway that may have the module and tenant from an earlier run: the module's old instance
   * is removed, failures of calls that find their work done are ignored, and a request through the
   * gateway must then answer.
   */
  void registerOver(int modulePort) throws IOException, InterruptedException {
    send("DELETE", "/_/discovery/modules/" + MODULE_ID, null);
    for (Call call : calls(modulePort, null, 0)) {
      call.send(gateway);
    }
    HttpResponse<String> probe = get("/hop/1", NO_AUTH, null);
    if (probe.statusCode() != 200) {
      throw new IllegalStateException(
          gateway
              + "/hop/1 for tenant "
              + NO_AUTH
              + " answered "
              + probe.statusCode()
              + " after registering the module there: "
              + probe.body());
    }
  }

  /**
   * @return a token of {@value #USER} in tenant {@value #AUTH}
   */
  String login() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(gateway.resolve("/authn/login"))
            .header("X-Okapi-Tenant", AUTH)
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"username\":\"" + USER + "\",\"password\":\"" + USER + "\"}"))
            .build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    return response
        .headers()
        .firstValue("X-Okapi-Token")
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "login at "
                        + gateway
                        + " answered "
                        + response.statusCode()
                        + " without a token"));
  }

  HttpResponse<String> get(String path, String tenant, String token)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(gateway.resolve(path));
    request.header("X-Okapi-Tenant", tenant);
    if (token != null) {
      request.header("X-Okapi-Token", token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private int send(String method, String path, String json)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(gateway.resolve(path))
            .header("Content-Type", "application/json")
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private List<Call> calls(int modulePort, Path authtokenDescriptor, int authtokenPort)
      throws IOException {
    List<Call> calls =
        new java.util.ArrayList<>(
            List.of(
                new Call("/_/proxy/modules", DESCRIPTOR),
                new Call("/_/discovery/modules", instance(MODULE_ID, modulePort)),
                new Call("/_/proxy/tenants", "{\"id\":\"" + NO_AUTH + "\"}"),
                new Call("/_/proxy/tenants/" + NO_AUTH + "/modules", module(MODULE_ID))));
    if (authtokenDescriptor != null) {
      calls.addAll(
          List.of(
              new Call("/_/proxy/modules", Files.readString(authtokenDescriptor)),
              new Call("/_/discovery/modules", instance(AUTHTOKEN_ID, authtokenPort)),
              new Call("/_/proxy/tenants", "{\"id\":\"" + AUTH + "\"}"),
              new Call("/_/proxy/tenants/" + AUTH + "/modules", module(AUTHTOKEN_ID)),
              new Call("/_/proxy/tenants/" + AUTH + "/modules", module(MODULE_ID))));
    }
    return calls;
  }

  private static String instance(String id, int port) {
    return "{\"srvcId\":\"%s\",\"instId\":\"%s-1\",\"url\":\"http://127.0.0.1:%d\"}"
        .formatted(id, id, port);
  }

  private static String module(String id) {
    return "{\"id\":\"" + id + "\"}";
  }

  /** One admin POST. */
  private record Call(String path, String json) {
    int send(URI gateway) throws IOException, InterruptedException {
      HttpRequest request =
          HttpRequest.newBuilder(gateway.resolve(path))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json))
              .build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Override
    public String toString() {
      return "POST " + path;
    }
  }
}
