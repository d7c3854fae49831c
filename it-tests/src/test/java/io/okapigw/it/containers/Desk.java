package io.okapigw.it.containers;

import io.okapigw.folio.data.CirculationData;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * A circulation desk's calls through one gateway node: login, check-out, check-in, and the
 * authtoken module's user and permission calls. Thread-safe (one JDK HTTP client); every call
 * answers the HTTP status and body.
 */
final class Desk {

  /** An HTTP answer. */
  record Answer(int status, String body, String token) {}

  /** The library the simulated modules serve (the {@code modules} command's defaults). */
  static final CirculationData DATA = CirculationData.generate(CirculationData.Options.defaults());

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String gatewayUrl;

  Desk(String gatewayUrl) {
    this.gatewayUrl = gatewayUrl;
  }

  /**
   * @return the login answer; {@link Answer#token()} is the X-Okapi-Token
   */
  Answer login(String username, String password) {
    return login(ContainerCluster.TENANT, username, password);
  }

  /**
   * @return the login answer of a user of {@code tenant}
   */
  Answer login(String tenant, String username, String password) {
    return send(
        "POST",
        "/authn/login",
        tenant,
        null,
        new JsonObject().put("username", username).put("password", password).encode());
  }

  /**
   * @return the token of a successful login; fails the test otherwise
   */
  String token(String username, String password) {
    return token(ContainerCluster.TENANT, username, password);
  }

  /**
   * @return the token of a successful login of a user of {@code tenant}
   */
  String token(String tenant, String username, String password) {
    Answer answer = login(tenant, username, password);
    if (answer.status() != 201 || answer.token() == null) {
      throw new AssertionError(
          "login of "
              + username
              + " through "
              + gatewayUrl
              + ": "
              + answer.status()
              + " "
              + answer.body());
    }
    return answer.token();
  }

  Answer checkOut(String token, String itemBarcode, String patronBarcode) {
    return post(
        "/circulation/check-out-by-barcode",
        token,
        new JsonObject()
            .put("itemBarcode", itemBarcode)
            .put("userBarcode", patronBarcode)
            .put("servicePointId", DATA.servicePointId()));
  }

  Answer checkIn(String token, String itemBarcode) {
    return post(
        "/circulation/check-in-by-barcode",
        token,
        new JsonObject()
            .put("itemBarcode", itemBarcode)
            .put("servicePointId", DATA.servicePointId()));
  }

  Answer createUser(String token, String username, String password, List<String> permissions) {
    return post(
        "/users",
        token,
        new JsonObject()
            .put("username", username)
            .put("password", password)
            .put("permissions", new JsonArray(permissions)));
  }

  Answer setPermissions(String token, String userId, List<String> permissions) {
    return send(
        "PUT",
        "/perms/users/" + userId + "/permissions",
        token,
        new JsonArray(permissions).encode());
  }

  /**
   * @param token null for none
   * @return {@code GET path} of the admin API, with no tenant header: routed for the token's
   *     tenant, else the supertenant
   */
  Answer adminGet(String token, String path) {
    return send("GET", path, null, token, null);
  }

  private Answer post(String path, String token, JsonObject body) {
    return send("POST", path, ContainerCluster.TENANT, token, body.encode());
  }

  private Answer send(String method, String path, String token, String body) {
    return send(method, path, ContainerCluster.TENANT, token, body);
  }

  private Answer send(String method, String path, String tenant, String token, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(gatewayUrl + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (tenant != null) {
      request.header("X-Okapi-Tenant", tenant);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("X-Okapi-Token", token);
    }
    try {
      HttpResponse<String> response =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(
          response.statusCode(),
          response.body(),
          response.headers().firstValue("X-Okapi-Token").orElse(null));
    } catch (IOException e) {
      return new Answer(-1, method + " " + path + ": " + e, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(-1, method + " " + path + ": interrupted", null);
    }
  }
}
