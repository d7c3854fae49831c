package io.okapigw.core.eureka;

import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Jwks;
import io.jsonwebtoken.security.RsaPublicJwk;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keycloak's endpoints the gateway uses, for unit tests (the real Keycloak is it-tests' {@code
 * EurekaTenantsTest}): a realm's JWKS; the token endpoint answering UMA decisions as Keycloak does
 * (200 {@code {"result":true}}, 403 {@code access_denied}, 401 for a token of an ended session;
 * every permission granted to the service client's token, whose service account has the {@code
 * System} role), and the {@code client_credentials} and {@code password} grants of the clients and
 * users given ({@link #client}, {@link #user}), tokens living {@link #tokenLife} seconds; the admin
 * API's client lookup and client secret. Tokens are minted as Keycloak mints FOLIO's lightweight
 * tokens.
 */
final class FakeKeycloak implements AutoCloseable {

  /** The client whose service account has the {@code System} role. */
  static final String SERVICE_CLIENT = "sidecar-module-access-client";

  /** A decision request as received. */
  record Asked(String realm, String authorization, String contentType, String body) {
    String permission() {
      return form().get("permission");
    }

    Map<String, String> form() {
      Map<String, String> fields = new HashMap<>();
      for (String pair : body.split("&")) {
        String[] kv = pair.split("=", 2);
        fields.put(
            java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
            java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
      }
      return fields;
    }
  }

  private final HttpServer server;
  private final Map<String, KeyPair> keys = new ConcurrentHashMap<>();
  private volatile String currentKid = "k1";
  final Set<String> granted = ConcurrentHashMap.newKeySet();
  final Set<String> endedSessions = ConcurrentHashMap.newKeySet();
  final List<Asked> asked = new CopyOnWriteArrayList<>();
  final AtomicInteger keyFetches = new AtomicInteger();

  /** Fetches of each realm's keys. */
  final Map<String, AtomicInteger> keyFetchesOf = new ConcurrentHashMap<>();

  /** The status of the keys' endpoint: 200, or a failure (Keycloak down: 500, 503). */
  volatile int certsStatus = 200;

  /**
   * Permissions ({@code {path}#{METHOD}}) whose scope the realm's resource lacks: 400 {@code
   * invalid_resource}, as Keycloak answers a handler registered with {@code "methods": ["*"]}.
   */
  final Set<String> invalidResources = ConcurrentHashMap.newKeySet();

  /** Decisions not answered: the connection closed, as a Keycloak that went away. */
  volatile boolean decisionsCut;

  /** A status every decision answers with, Keycloak failing (500); 0: decide. */
  volatile int decisionStatus;

  /** Realms Keycloak has not: their keys' endpoint answers 404, as Keycloak's. */
  final Set<String> missingRealms = ConcurrentHashMap.newKeySet();

  /**
   * Token grants made, {@code client_credentials} and {@code password}, in order: "realm client".
   */
  final List<String> grants = new CopyOnWriteArrayList<>();

  /** Client secrets read through the admin API: "realm client". */
  final List<String> secretReads = new CopyOnWriteArrayList<>();

  /** How long minted tokens live ({@code expires_in}), seconds. */
  volatile int tokenLife = 300;

  private final AtomicReference<KeyPair> attackersKey = new AtomicReference<>();
  private final Map<String, String> clientSecrets = new ConcurrentHashMap<>();
  private final Map<String, String> passwords = new ConcurrentHashMap<>();
  private final Map<String, String> userIds = new ConcurrentHashMap<>();

  FakeKeycloak(Vertx vertx) {
    keys.put("k1", Jwts.SIG.RS256.keyPair().build());
    Router router = Router.router(vertx);
    router
        .get("/realms/:realm/protocol/openid-connect/certs")
        .handler(
            ctx -> {
              keyFetches.incrementAndGet();
              String realm = ctx.pathParam("realm");
              keyFetchesOf.computeIfAbsent(realm, r -> new AtomicInteger()).incrementAndGet();
              if (missingRealms.contains(realm)) {
                ctx.response().setStatusCode(404).end("{\"error\":\"Realm does not exist\"}");
                return;
              }
              if (certsStatus != 200) {
                ctx.response().setStatusCode(certsStatus).end();
                return;
              }
              JsonArray jwks = new JsonArray();
              keys.forEach((kid, pair) -> jwks.add(jwk(kid, pair)));
              ctx.json(new JsonObject().put("keys", jwks));
            });
    router.post("/realms/:realm/protocol/openid-connect/token").handler(BodyHandler.create());
    router
        .post("/realms/:realm/protocol/openid-connect/token")
        .handler(
            ctx -> {
              String realm = ctx.pathParam("realm");
              Map<String, String> form = formOf(ctx.body().asString());
              switch (form.getOrDefault("grant_type", "")) {
                case "client_credentials" -> clientCredentials(ctx, realm, form);
                case "password" -> password(ctx, realm, form);
                default -> decision(ctx);
              }
            });
    router
        .get("/admin/realms/:realm/clients")
        .handler(
            ctx -> {
              if (!admin(ctx)) {
                return;
              }
              String realm = ctx.pathParam("realm");
              String clientId = ctx.request().getParam("clientId");
              JsonArray found = new JsonArray();
              if (clientSecrets.containsKey(realm + " " + clientId)) {
                found.add(new JsonObject().put("id", "uuid-" + clientId).put("clientId", clientId));
              }
              ctx.json(found);
            });
    router
        .get("/admin/realms/:realm/clients/:id/client-secret")
        .handler(
            ctx -> {
              if (!admin(ctx)) {
                return;
              }
              String realm = ctx.pathParam("realm");
              String clientId = ctx.pathParam("id").substring("uuid-".length());
              secretReads.add(realm + " " + clientId);
              ctx.json(
                  new JsonObject()
                      .put("type", "secret")
                      .put("value", clientSecrets.get(realm + " " + clientId)));
            });
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** A confidential client of the realm, with its secret. */
  FakeKeycloak client(String realm, String clientId, String secret) {
    clientSecrets.put(realm + " " + clientId, secret);
    return this;
  }

  /** A user of the realm (FOLIO's {@code user_id} attribute), with a password. */
  FakeKeycloak user(String realm, String username, String password, String folioUserId) {
    passwords.put(realm + " " + username, password);
    userIds.put(realm + " " + username, folioUserId);
    return this;
  }

  private void decision(io.vertx.ext.web.RoutingContext ctx) {
    Asked a =
        new Asked(
            ctx.pathParam("realm"),
            ctx.request().getHeader("Authorization"),
            ctx.request().getHeader("Content-Type"),
            ctx.body().asString());
    asked.add(a);
    if (decisionsCut) {
      ctx.response().reset();
      return;
    }
    if (decisionStatus != 0) {
      ctx.response().setStatusCode(decisionStatus).end();
      return;
    }
    if (invalidResources.contains(a.permission())) {
      ctx.response()
          .setStatusCode(400)
          .putHeader("Content-Type", "application/json")
          .end(
              "{\"error\":\"invalid_resource\",\"error_description\":\"Resource with id ["
                  + a.permission()
                  + "] does not exist.\"}");
      return;
    }
    String token = a.authorization().substring("Bearer ".length());
    String sid = claim(token, "sid");
    if (sid != null && endedSessions.contains(sid) || !"Bearer".equals(claim(token, "typ"))) {
      ctx.response()
          .setStatusCode(401)
          .end("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid bearer token\"}");
    } else if (granted.contains(a.permission())
        || SERVICE_CLIENT.equals(claim(token, "azp")) && sid == null) {
      ctx.json(new JsonObject().put("result", true));
    } else {
      ctx.response()
          .setStatusCode(403)
          .end("{\"error\":\"access_denied\",\"error_description\":\"not_authorized\"}");
    }
  }

  private void clientCredentials(
      io.vertx.ext.web.RoutingContext ctx, String realm, Map<String, String> form) {
    String clientId = form.get("client_id");
    if (!clientOk(realm, form)) {
      unauthorizedClient(ctx);
      return;
    }
    grants.add(realm + " " + clientId);
    String token = mint(realm, "service-account-" + clientId, clientId, null, null);
    ctx.json(new JsonObject().put("access_token", token).put("expires_in", tokenLife));
  }

  private void password(
      io.vertx.ext.web.RoutingContext ctx, String realm, Map<String, String> form) {
    if (!clientOk(realm, form)) {
      unauthorizedClient(ctx);
      return;
    }
    String username = form.get("username");
    String password = passwords.get(realm + " " + username);
    if (password == null || !password.equals(form.get("password"))) {
      ctx.response()
          .setStatusCode(401)
          .end("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid user credentials\"}");
      return;
    }
    grants.add(realm + " " + username);
    String token =
        mint(
            realm,
            username,
            form.get("client_id"),
            java.util.UUID.randomUUID().toString(),
            userIds.get(realm + " " + username));
    ctx.json(new JsonObject().put("access_token", token).put("expires_in", tokenLife));
  }

  private boolean clientOk(String realm, Map<String, String> form) {
    String secret = clientSecrets.get(realm + " " + form.get("client_id"));
    return secret != null && secret.equals(form.get("client_secret"));
  }

  private static void unauthorizedClient(io.vertx.ext.web.RoutingContext ctx) {
    ctx.response()
        .setStatusCode(401)
        .end(
            "{\"error\":\"unauthorized_client\",\"error_description\":\"Invalid client"
                + " or Invalid client credentials\"}");
  }

  /** Admin calls need a token of the master realm's admin client. */
  private boolean admin(io.vertx.ext.web.RoutingContext ctx) {
    String authorization = ctx.request().getHeader("Authorization");
    if (authorization == null
        || !authorization.startsWith("Bearer ")
        || !(url() + "/realms/master").equals(claim(authorization.substring(7), "iss"))) {
      ctx.response().setStatusCode(401).end();
      return false;
    }
    return true;
  }

  private String mint(String realm, String subject, String azp, String sid, String userId) {
    KeyPair pair = keys.get(currentKid);
    Instant now = Instant.now();
    return Jwts.builder()
        .header()
        .keyId(currentKid)
        .and()
        .issuer(url() + "/realms/" + realm)
        .subject(subject)
        .claim("typ", "Bearer")
        .claim("azp", azp)
        .claim("sid", sid)
        .claim("user_id", userId)
        .issuedAt(java.util.Date.from(now))
        .expiration(java.util.Date.from(now.plusSeconds(tokenLife)))
        .signWith(pair.getPrivate(), Jwts.SIG.RS256)
        .compact();
  }

  private static Map<String, String> formOf(String body) {
    Map<String, String> fields = new HashMap<>();
    if (body == null || body.isEmpty()) {
      return fields;
    }
    for (String pair : body.split("&")) {
      String[] kv = pair.split("=", 2);
      fields.put(
          java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
          kv.length < 2 ? "" : java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
    }
    return fields;
  }

  /** A new signing key, used for the tokens minted from now on; the old one stays published. */
  void rotate(String kid) {
    keys.put(kid, Jwts.SIG.RS256.keyPair().build());
    currentKid = kid;
  }

  /** Keycloak's lightweight access token of a FOLIO user, as FOLIO's realms mint it. */
  String token(String realm, String userId, String sid, Instant exp) {
    return token(url(), realm, userId, sid, exp);
  }

  /** As {@link #token(String, String, String, Instant)}, Keycloak reached as {@code base}. */
  String token(String base, String realm, String userId, String sid, Instant exp) {
    return token(base, realm, userId, sid, exp, "Bearer");
  }

  /**
   * A token of the realm's signing key as {@link #token(String, String, String, Instant)} but of
   * another {@code typ}: {@code ID} (the ID token of the same login), {@code Refresh}, ...; null
   * for none.
   */
  String token(String realm, String userId, String sid, Instant exp, String typ) {
    return token(url(), realm, userId, sid, exp, typ);
  }

  private String token(
      String base, String realm, String userId, String sid, Instant exp, String typ) {
    KeyPair pair = keys.get(currentKid);
    return Jwts.builder()
        .header()
        .keyId(currentKid)
        .and()
        .issuer(base + "/realms/" + realm)
        .subject("alice")
        .claim("typ", typ)
        .claim("azp", realm + "-login-application")
        .claim("sid", sid)
        .claim("user_id", userId)
        .issuedAt(java.util.Date.from(exp.minusSeconds(600)))
        .expiration(java.util.Date.from(exp))
        .signWith(pair.getPrivate(), Jwts.SIG.RS256)
        .compact();
  }

  /** A token signed by a key Keycloak never published. */
  String forged(String realm, String userId, String sid, Instant exp) {
    return forged(realm, userId, sid, exp, currentKid);
  }

  /**
   * A token signed by a key Keycloak never published (one per fake: an attacker's, made once),
   * naming it {@code kid}.
   */
  String forged(String realm, String userId, String sid, Instant exp, String kid) {
    KeyPair other =
        attackersKey.updateAndGet(k -> k != null ? k : Jwts.SIG.RS256.keyPair().build());
    return Jwts.builder()
        .header()
        .keyId(kid)
        .and()
        .issuer(url() + "/realms/" + realm)
        .claim("sid", sid)
        .claim("user_id", userId)
        .expiration(java.util.Date.from(exp))
        .signWith(other.getPrivate(), Jwts.SIG.RS256)
        .compact();
  }

  /**
   * @return the current signing key's public key as its JWKS publishes it, X.509 DER bytes (what an
   *     attacker uses as an HMAC secret)
   */
  byte[] publicKeyBytes() {
    return keys.get(currentKid).getPublic().getEncoded();
  }

  String currentKid() {
    return currentKid;
  }

  int decisions() {
    return asked.size();
  }

  static JsonObject jwk(String kid, KeyPair pair) {
    RsaPublicJwk jwk =
        Jwks.builder()
            .key((RSAPublicKey) pair.getPublic())
            .id(kid)
            .publicKeyUse("sig")
            .algorithm("RS256")
            .build();
    Map<String, Object> fields = new HashMap<>();
    jwk.forEach((k, v) -> fields.put(k, v instanceof Set<?> set ? List.copyOf(set) : v.toString()));
    return new JsonObject(fields);
  }

  static String claim(String token, String name) {
    String payload = token.split("\\.")[1];
    Object value =
        new JsonObject(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8))
            .getValue(name);
    return value == null ? null : value.toString();
  }

  static MultiMap none() {
    return MultiMap.caseInsensitiveMultiMap();
  }

  @Override
  public void close() {
    server.close();
  }
}
