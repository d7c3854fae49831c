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

/**
 * Keycloak's two endpoints the gateway uses on a request's path, for unit tests (the real Keycloak
 * is it-tests' {@code EurekaTenantsIT}): a realm's JWKS, and the token endpoint answering UMA
 * decisions as Keycloak does (200 {@code {"result":true}}, 403 {@code access_denied}, 401 for a
 * token of an ended session). Tokens are minted as Keycloak mints FOLIO's lightweight tokens.
 */
final class FakeKeycloak implements AutoCloseable {

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

  FakeKeycloak(Vertx vertx) {
    keys.put("k1", Jwts.SIG.RS256.keyPair().build());
    Router router = Router.router(vertx);
    router
        .get("/realms/:realm/protocol/openid-connect/certs")
        .handler(
            ctx -> {
              keyFetches.incrementAndGet();
              JsonArray jwks = new JsonArray();
              keys.forEach((kid, pair) -> jwks.add(jwk(kid, pair)));
              ctx.json(new JsonObject().put("keys", jwks));
            });
    router.post("/realms/:realm/protocol/openid-connect/token").handler(BodyHandler.create());
    router
        .post("/realms/:realm/protocol/openid-connect/token")
        .handler(
            ctx -> {
              Asked a =
                  new Asked(
                      ctx.pathParam("realm"),
                      ctx.request().getHeader("Authorization"),
                      ctx.request().getHeader("Content-Type"),
                      ctx.body().asString());
              asked.add(a);
              String sid = claim(a.authorization().substring("Bearer ".length()), "sid");
              if (sid != null && endedSessions.contains(sid)) {
                ctx.response()
                    .setStatusCode(401)
                    .end(
                        "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid bearer token\"}");
              } else if (granted.contains(a.permission())) {
                ctx.json(new JsonObject().put("result", true));
              } else {
                ctx.response()
                    .setStatusCode(403)
                    .end("{\"error\":\"access_denied\",\"error_description\":\"not_authorized\"}");
              }
            });
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** A new signing key, used for the tokens minted from now on; the old one stays published. */
  void rotate(String kid) {
    keys.put(kid, Jwts.SIG.RS256.keyPair().build());
    currentKid = kid;
  }

  /** Keycloak's lightweight access token of a FOLIO user, as FOLIO's realms mint it. */
  String token(String realm, String userId, String sid, Instant exp) {
    KeyPair pair = keys.get(currentKid);
    return Jwts.builder()
        .header()
        .keyId(currentKid)
        .and()
        .issuer(url() + "/realms/" + realm)
        .subject("alice")
        .claim("typ", "Bearer")
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
    KeyPair other = Jwts.SIG.RS256.keyPair().build();
    return Jwts.builder()
        .header()
        .keyId(currentKid)
        .and()
        .issuer(url() + "/realms/" + realm)
        .claim("sid", sid)
        .claim("user_id", userId)
        .expiration(java.util.Date.from(exp))
        .signWith(other.getPrivate(), Jwts.SIG.RS256)
        .compact();
  }

  int decisions() {
    return asked.size();
  }

  private static JsonObject jwk(String kid, KeyPair pair) {
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
