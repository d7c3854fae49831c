package io.okapigw.testsupport.eureka;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * A tenant's Keycloak realm set up through Keycloak's admin REST API as FOLIO's Eureka sets it up
 * (read from their source): mgr-tenants makes the realm (the {@code System} role, the {@code
 * {tenant}-login-application} client with authorization services, {@code GET POST PUT DELETE PATCH
 * OPTIONS} scopes, the {@code System role policy} and {@code System role permission}, the {@code
 * username}, {@code user_id} and {@code sub} token mappers, lightweight access tokens; the {@code
 * sidecar-module-access-client} whose service account has the {@code System} role);
 * mgr-tenant-entitlements adds a resource per handler's static path with its methods as scopes;
 * mod-roles-keycloak makes a realm role per FOLIO role, its {@code Policy for role: {id}} and a
 * scope permission {@code {METHOD} access for role '{id}' to '{path}'} per endpoint;
 * mod-users-keycloak makes users with a {@code user_id} attribute. The realm also records admin
 * events (FOLIO leaves them off; the gateway reads them, docs/operations.md "Eureka tenants").
 */
public final class EurekaRealm {

  /** The master realm's client the gateway reads realms with, and its secret. */
  public static final String ADMIN_CLIENT = "folio-backend-admin-client";

  public static final String ADMIN_CLIENT_SECRET = "admin-client-secret";
  public static final String SERVICE_CLIENT = "sidecar-module-access-client";

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final List<String> LOGIN_SCOPES =
      List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
  private static final List<String> ALL_METHODS =
      List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE");

  private final String keycloak;
  private final String tenant;
  private final String loginSecret = UUID.randomUUID().toString();
  private final String serviceSecret = UUID.randomUUID().toString();
  private String loginClientId;

  /** A user's tokens from a login. */
  public record Tokens(String access, String refresh) {}

  private EurekaRealm(String keycloak, String tenant) {
    this.keycloak = keycloak;
    this.tenant = tenant;
  }

  /**
   * Gives the master realm the gateway's admin client ({@value #ADMIN_CLIENT}, secret {@value
   * #ADMIN_CLIENT_SECRET}, its service account an admin of every realm), once per Keycloak.
   */
  public static void adminClient(String keycloak) throws IOException {
    String admin = masterToken(keycloak);
    JsonObject client =
        new JsonObject()
            .put("clientId", ADMIN_CLIENT)
            .put("secret", ADMIN_CLIENT_SECRET)
            .put("serviceAccountsEnabled", true)
            .put("publicClient", false)
            .put("enabled", true);
    call(keycloak, "POST", "/admin/realms/master/clients", admin, client, 201);
    String id = clientUuid(keycloak, "master", ADMIN_CLIENT, admin);
    JsonObject account =
        new JsonObject(
            call(
                keycloak,
                "GET",
                "/admin/realms/master/clients/" + id + "/service-account-user",
                admin,
                null,
                200));
    JsonObject role =
        new JsonObject(call(keycloak, "GET", "/admin/realms/master/roles/admin", admin, null, 200));
    call(
        keycloak,
        "POST",
        "/admin/realms/master/users/" + account.getString("id") + "/role-mappings/realm",
        admin,
        new JsonArray().add(role),
        204);
  }

  /** Creates the tenant's realm as mgr-tenants does. */
  public static EurekaRealm create(String keycloak, String tenant) throws IOException {
    EurekaRealm realm = new EurekaRealm(keycloak, tenant);
    realm.setUp();
    return realm;
  }

  private void setUp() throws IOException {
    String admin = masterToken(keycloak);
    JsonObject realm =
        new JsonObject()
            .put("realm", tenant)
            .put("enabled", true)
            .put("accessTokenLifespan", 600)
            .put("revokeRefreshToken", true)
            .put("refreshTokenMaxReuse", 0)
            .put("adminEventsEnabled", true);
    call(keycloak, "POST", "/admin/realms", admin, realm, 201);
    call(keycloak, "POST", realmPath("/roles"), admin, new JsonObject().put("name", "System"), 201);
    JsonObject profile =
        new JsonObject(call(keycloak, "GET", realmPath("/users/profile"), admin, null, 200));
    call(
        keycloak,
        "PUT",
        realmPath("/users/profile"),
        admin,
        profile.put("unmanagedAttributePolicy", "ENABLED"),
        200);
    JsonObject attributes =
        new JsonObject()
            .put("client.use.lightweight.access.token.enabled", "true")
            .put("backchannel.logout.session.required", "true");
    JsonObject systemPolicy =
        new JsonObject()
            .put("type", "role")
            .put("name", "System role policy")
            .put("logic", "POSITIVE")
            .put("decisionStrategy", "UNANIMOUS")
            .put(
                "config",
                new JsonObject()
                    .put(
                        "roles",
                        new JsonArray()
                            .add(new JsonObject().put("id", "System").put("required", false))
                            .encode())
                    .put("fetchRoles", "true"));
    JsonObject systemPermission =
        new JsonObject()
            .put("type", "scope")
            .put("name", "System role permission")
            .put("logic", "POSITIVE")
            .put("decisionStrategy", "UNANIMOUS")
            .put(
                "config",
                new JsonObject()
                    .put("scopes", new JsonArray(LOGIN_SCOPES).encode())
                    .put("applyPolicies", new JsonArray().add("System role policy").encode()));
    JsonArray scopes = new JsonArray();
    LOGIN_SCOPES.forEach(
        s -> scopes.add(new JsonObject().put("name", s).put("displayName", s).put("iconUri", s)));
    JsonObject login =
        client(tenant + "-login-application", loginSecret, attributes)
            .put("authorizationServicesEnabled", true)
            .put(
                "protocolMappers",
                new JsonArray()
                    .add(mapper("username", "oidc-usermodel-property-mapper", "username", "sub"))
                    .add(
                        mapper(
                            "user_id mapper",
                            "oidc-usermodel-attribute-mapper",
                            "user_id",
                            "user_id"))
                    .add(mapper("Subject (sub)", "oidc-sub-mapper", null, null)))
            .put(
                "authorizationSettings",
                new JsonObject()
                    .put("decisionStrategy", "AFFIRMATIVE")
                    .put("policyEnforcementMode", "ENFORCING")
                    .put("allowRemoteResourceManagement", true)
                    .put("scopes", scopes)
                    .put("policies", new JsonArray().add(systemPolicy).add(systemPermission)));
    call(keycloak, "POST", realmPath("/clients"), admin, login, 201);
    loginClientId = clientUuid(keycloak, tenant, tenant + "-login-application", admin);
    JsonObject module =
        client(SERVICE_CLIENT, serviceSecret, attributes)
            .put("authorizationServicesEnabled", true)
            .put(
                "protocolMappers",
                new JsonArray().add(mapper("Subject (sub)", "oidc-sub-mapper", null, null)));
    call(keycloak, "POST", realmPath("/clients"), admin, module, 201);
    String moduleId = clientUuid(keycloak, tenant, SERVICE_CLIENT, admin);
    JsonObject account =
        new JsonObject(
            call(
                keycloak,
                "GET",
                realmPath("/clients/" + moduleId + "/service-account-user"),
                admin,
                null,
                200));
    JsonObject system =
        new JsonObject(call(keycloak, "GET", realmPath("/roles/System"), admin, null, 200));
    call(
        keycloak,
        "POST",
        realmPath("/users/" + account.getString("id") + "/role-mappings/realm"),
        admin,
        new JsonArray().add(system),
        204);
  }

  /**
   * @return the secret of the {@code {tenant}-login-application} client, as FOLIO's secret store
   *     holds it for a sidecar (key {@code folio_{tenant}_{tenant}-login-application})
   */
  public String loginSecret() {
    return loginSecret;
  }

  /**
   * @return the secret of {@value #SERVICE_CLIENT}, as FOLIO's secret store holds it for a sidecar
   *     (key {@code folio_{tenant}_sidecar-module-access-client})
   */
  public String serviceSecret() {
    return serviceSecret;
  }

  /** Sets how long the realm's access tokens live (FOLIO's: 600 s). */
  public void lifespan(int seconds) throws IOException {
    String admin = masterToken(keycloak);
    JsonObject realm = new JsonObject(call(keycloak, "GET", realmPath(""), admin, null, 200));
    call(keycloak, "PUT", realmPath(""), admin, realm.put("accessTokenLifespan", seconds), 204);
  }

  /**
   * Adds the module's resources as mgr-tenant-entitlements does on entitlement: the HTTP methods as
   * scopes where missing, a resource per static path of the handlers of its non-system interfaces
   * ({@code _timer} included) with their methods as scopes.
   */
  public void entitle(JsonObject descriptor) throws IOException {
    String admin = masterToken(keycloak);
    String server = realmPath("/clients/" + loginClientId + "/authz/resource-server");
    Map<String, String> scopeIds = scopeIds(server, admin);
    for (String method : ALL_METHODS) {
      if (!scopeIds.containsKey(method)) {
        call(keycloak, "POST", server + "/scope", admin, new JsonObject().put("name", method), 201);
      }
    }
    scopeIds = scopeIds(server, admin);
    Map<String, JsonArray> resources = new LinkedHashMap<>();
    for (Object p : descriptor.getJsonArray("provides", new JsonArray())) {
      JsonObject itf = (JsonObject) p;
      if ("system".equals(itf.getString("interfaceType"))
          && !"_timer".equals(itf.getString("id"))) {
        continue;
      }
      for (Object h : itf.getJsonArray("handlers", new JsonArray())) {
        JsonObject handler = (JsonObject) h;
        String path = handler.getString("path", handler.getString("pathPattern"));
        JsonArray scopes = resources.computeIfAbsent(path, k -> new JsonArray());
        for (Object m : handler.getJsonArray("methods")) {
          scopes.add(new JsonObject().put("name", m).put("id", scopeIds.get((String) m)));
        }
      }
    }
    for (Map.Entry<String, JsonArray> r : resources.entrySet()) {
      call(
          keycloak,
          "POST",
          server + "/resource",
          admin,
          new JsonObject().put("name", r.getKey()).put("scopes", r.getValue()),
          201);
    }
  }

  /**
   * Makes a FOLIO role as mod-roles-keycloak does: a realm role, its role policy, a scope
   * permission per endpoint.
   *
   * @param endpoints {@code "GET /things"}, ...
   * @return the role's id
   */
  public String role(String name, List<String> endpoints) throws IOException {
    String admin = masterToken(keycloak);
    call(keycloak, "POST", realmPath("/roles"), admin, new JsonObject().put("name", name), 201);
    JsonObject role =
        new JsonObject(
            call(keycloak, "GET", realmPath("/roles/" + encode(name)), admin, null, 200));
    String roleId = role.getString("id");
    String server = realmPath("/clients/" + loginClientId + "/authz/resource-server");
    String policyId = UUID.randomUUID().toString();
    JsonObject policy =
        new JsonObject()
            .put("id", policyId)
            .put("name", "Policy for role: " + roleId)
            .put("type", "role")
            .put("logic", "POSITIVE")
            .put("decisionStrategy", "UNANIMOUS")
            .put("fetchRoles", true)
            .put(
                "roles",
                new JsonArray().add(new JsonObject().put("id", roleId).put("required", false)));
    call(keycloak, "POST", server + "/policy/role", admin, policy, 201);
    Map<String, String> scopeIds = scopeIds(server, admin);
    for (String endpoint : endpoints) {
      String[] mp = endpoint.split(" ", 2);
      JsonArray found =
          new JsonArray(
              call(
                  keycloak,
                  "GET",
                  server + "/resource?exactName=true&name=" + encode(mp[1]),
                  admin,
                  null,
                  200));
      JsonObject permission =
          new JsonObject()
              .put("name", mp[0] + " access for role '" + roleId + "' to '" + mp[1] + "'")
              .put("decisionStrategy", "UNANIMOUS")
              .put("policies", new JsonArray().add(policyId))
              .put("resources", new JsonArray().add(found.getJsonObject(0).getString("_id")))
              .put("scopes", new JsonArray().add(scopeIds.get(mp[0])));
      call(keycloak, "POST", server + "/permission/scope", admin, permission, 201);
    }
    return roleId;
  }

  /**
   * Makes a user as mod-users-keycloak does (the FOLIO user id as attribute {@code user_id}), with
   * a password and these realm roles.
   */
  public void user(String username, String password, String folioUserId, String... roles)
      throws IOException {
    String admin = masterToken(keycloak);
    JsonObject user =
        new JsonObject()
            .put("username", username)
            .put("enabled", true)
            .put("email", username + "@example.org")
            .put("emailVerified", true)
            .put("firstName", username)
            .put("lastName", tenant)
            .put("attributes", new JsonObject().put("user_id", new JsonArray().add(folioUserId)))
            .put(
                "credentials",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("type", "password")
                            .put("value", password)
                            .put("temporary", false)));
    call(keycloak, "POST", realmPath("/users"), admin, user, 201);
    for (String role : roles) {
      grant(username, role);
    }
  }

  /** Gives the user the realm role, as mod-roles-keycloak's user-roles do. */
  public void grant(String username, String role) throws IOException {
    roleMapping("POST", username, role);
  }

  /** Takes the realm role from the user. */
  public void revoke(String username, String role) throws IOException {
    roleMapping("DELETE", username, role);
  }

  private void roleMapping(String method, String username, String role) throws IOException {
    String admin = masterToken(keycloak);
    JsonArray users =
        new JsonArray(
            call(
                keycloak,
                "GET",
                realmPath("/users?exact=true&username=" + encode(username)),
                admin,
                null,
                200));
    JsonObject r =
        new JsonObject(
            call(keycloak, "GET", realmPath("/roles/" + encode(role)), admin, null, 200));
    call(
        keycloak,
        method,
        realmPath("/users/" + users.getJsonObject(0).getString("id") + "/role-mappings/realm"),
        admin,
        new JsonArray().add(r),
        204);
  }

  /** Logs in as mod-login-keycloak does: the password grant of the login client. */
  public Tokens login(String username, String password) throws IOException {
    return tokens(
        Map.of(
            "grant_type",
            "password",
            "client_id",
            tenant + "-login-application",
            "client_secret",
            loginSecret,
            "username",
            username,
            "password",
            password));
  }

  /** A new access token of the same session. */
  public Tokens refresh(Tokens tokens) throws IOException {
    return tokens(
        Map.of(
            "grant_type",
            "refresh_token",
            "client_id",
            tenant + "-login-application",
            "client_secret",
            loginSecret,
            "refresh_token",
            tokens.refresh()));
  }

  /** Ends the session in Keycloak, as mod-login-keycloak's logout does. */
  public void logout(Tokens tokens) throws IOException {
    form(
        "/realms/" + tenant + "/protocol/openid-connect/logout",
        Map.of(
            "client_id",
            tenant + "-login-application",
            "client_secret",
            loginSecret,
            "refresh_token",
            tokens.refresh()),
        204);
  }

  private Tokens tokens(Map<String, String> fields) throws IOException {
    JsonObject answer =
        new JsonObject(form("/realms/" + tenant + "/protocol/openid-connect/token", fields, 200));
    return new Tokens(answer.getString("access_token"), answer.getString("refresh_token"));
  }

  private String form(String path, Map<String, String> fields, int expected) throws IOException {
    StringJoiner body = new StringJoiner("&");
    fields.forEach((k, v) -> body.add(encode(k) + "=" + encode(v)));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(keycloak + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build();
    return send(request, expected);
  }

  private Map<String, String> scopeIds(String server, String admin) throws IOException {
    Map<String, String> ids = new LinkedHashMap<>();
    new JsonArray(call(keycloak, "GET", server + "/scope", admin, null, 200))
        .forEach(
            s -> ids.put(((JsonObject) s).getString("name"), ((JsonObject) s).getString("id")));
    return ids;
  }

  private String realmPath(String path) {
    return "/admin/realms/" + tenant + path;
  }

  private static JsonObject client(String clientId, String secret, JsonObject attributes) {
    return new JsonObject()
        .put("clientId", clientId)
        .put("name", clientId)
        .put("secret", secret)
        .put("enabled", true)
        .put("publicClient", false)
        .put("directAccessGrantsEnabled", true)
        .put("frontchannelLogout", true)
        .put("clientAuthenticatorType", "client-secret")
        .put("serviceAccountsEnabled", true)
        .put("redirectUris", new JsonArray().add("/*"))
        .put("webOrigins", new JsonArray().add("/*"))
        .put("attributes", attributes);
  }

  private static JsonObject mapper(String name, String type, String attribute, String claim) {
    JsonObject config =
        new JsonObject()
            .put("access.token.claim", "true")
            .put("id.token.claim", "true")
            .put("userinfo.token.claim", "true")
            .put("lightweight.claim", "true");
    if (attribute != null) {
      config
          .put("user.attribute", attribute)
          .put("claim.name", claim)
          .put("jsonType.label", "String");
    }
    return new JsonObject()
        .put("name", name)
        .put("protocol", "openid-connect")
        .put("protocolMapper", type)
        .put("config", config);
  }

  private static String clientUuid(String keycloak, String realm, String clientId, String admin)
      throws IOException {
    JsonArray found =
        new JsonArray(
            call(
                keycloak,
                "GET",
                "/admin/realms/" + realm + "/clients?clientId=" + encode(clientId),
                admin,
                null,
                200));
    return found.getJsonObject(0).getString("id");
  }

  private static String masterToken(String keycloak) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(keycloak + "/realms/master/protocol/openid-connect/token"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "grant_type=password&client_id=admin-cli&username=admin&password=admin"))
            .build();
    return new JsonObject(send(request, 200)).getString("access_token");
  }

  private static String call(
      String keycloak, String method, String path, String token, Object body, int expected)
      throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(keycloak + path))
            .header("Authorization", "Bearer " + token);
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
    }
    return send(request.build(), expected);
  }

  private static String send(HttpRequest request, int expected) throws IOException {
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != expected) {
        throw new IOException(
            request.method()
                + " "
                + request.uri().getPath()
                + ": Keycloak answered "
                + response.statusCode()
                + " "
                + response.body());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
