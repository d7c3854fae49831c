package io.okapigw.perf.cluster;

import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The calls an invalidation trial makes, with the JDK's HTTP client (this tool blocks). */
final class Admin {

  private final HttpClient http = HttpClient.newHttpClient();
  private final String gateway;
  private final String authtoken;
  private final String tenant;
  private final String userId;
  private String token;

  Admin(String gateway, String authtoken, String tenant, String userId) {
    this.gateway = gateway;
    this.authtoken = authtoken;
    this.tenant = tenant;
    this.userId = userId;
  }

  void login(String username, String password) throws IOException, InterruptedException {
    HttpResponse<String> r =
        send(
            HttpRequest.newBuilder(URI.create(gateway + "/authn/login"))
                .header("X-Okapi-Tenant", tenant)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"username\":\"" + username + "\",\"password\":\"" + password + "\"}"))
                .build());
    token =
        r.headers()
            .firstValue("X-Okapi-Token")
            .orElseThrow(() -> new IllegalStateException("login answered " + r.statusCode()));
  }

  /** Changes the user's permissions in the authtoken module directly (no gateway told). */
  void setPermissions(List<String> permissions) throws IOException, InterruptedException {
    expectStatus(
        send(
            HttpRequest.newBuilder(
                    URI.create(authtoken + "/perms/users/" + userId + "/permissions"))
                .header("X-Okapi-Tenant", tenant)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(new JsonArray(permissions).encode()))
                .build()),
        204);
  }

  HttpResponse<String> invalidateUser(String node) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(URI.create(node + "/_/proxy/auth-cache/invalidate"))
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"tenant\":\"" + tenant + "\",\"userId\":\"" + userId + "\"}"))
            .build());
  }

  void expect(String node, int status) throws IOException, InterruptedException {
    expectStatus(send(items(node)), status);
  }

  /**
   * @return the statuses of {@code GET /items} on every node, asked at once
   */
  List<Integer> getAll(GatewayCluster cluster) {
    List<CompletableFuture<Integer>> all = new ArrayList<>();
    for (int n = 0; n < cluster.size(); n++) {
      all.add(
          http.sendAsync(items(cluster.url(n)), HttpResponse.BodyHandlers.discarding())
              .thenApply(HttpResponse::statusCode));
    }
    return all.stream().map(CompletableFuture::join).toList();
  }

  private HttpRequest items(String node) {
    return HttpRequest.newBuilder(URI.create(node + "/items"))
        .header("X-Okapi-Tenant", tenant)
        .header("X-Okapi-Token", token)
        .GET()
        .build();
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static void expectStatus(HttpResponse<String> r, int status) {
    if (r.statusCode() != status) {
      throw new IllegalStateException(
          r.request().method()
              + " "
              + r.request().uri().getPath()
              + " answered "
              + r.statusCode()
              + " (expected "
              + status
              + "): "
              + r.body());
    }
  }
}
