package io.okapigw.it.hostile;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

/**
 * Valid requests the fuzzer starts from: the traffic the gateway is for (open and guarded module
 * calls, the token in a header, {@code Authorization} or a cookie, uploads plain and chunked,
 * logins, CORS, the health check, invocations, admin calls without a token), and request smuggling
 * shapes, each a head two parsers could frame two ways with a request hidden where one of them
 * would read it.
 */
final class FuzzCorpus {

  /** The path of the request hidden in a smuggling shape: the module must never receive it. */
  static final String SMUGGLED_PATH = "/s/smuggled";

  private final String token;

  /**
   * @param token a valid token (alice's, tenant diku)
   */
  FuzzCorpus(String token) {
    this.token = token;
  }

  /**
   * @return a valid request for the public listener, tagged {@code id}
   */
  FuzzRequest pick(Random r, String id) {
    FuzzRequest d =
        switch (r.nextInt(19)) {
          case 0 -> new FuzzRequest("GET", "/s/ping");
          case 1 -> new FuzzRequest("GET", "/secure/x").header("X-Okapi-Token", token);
          case 2 ->
              new FuzzRequest("POST", "/s/echo")
                  .header("Content-Type", "application/json")
                  .body("{\"a\":[1,2,3],\"b\":\"" + "x".repeat(r.nextInt(200)) + "\"}");
          case 3 ->
              new FuzzRequest("POST", "/s/echo")
                  .chunked("y".repeat(1 + r.nextInt(3000)), 1 + r.nextInt(1000));
          case 4 ->
              new FuzzRequest("PUT", "/s/items/" + r.nextInt(100) + "?x=1&y=%20z")
                  .body(random(r, r.nextInt(10) == 0 ? 200_000 : r.nextInt(4096)));
          case 5 -> new FuzzRequest("DELETE", "/s/items/" + r.nextInt(100));
          case 6 -> new FuzzRequest("HEAD", "/s/ping");
          case 7 ->
              new FuzzRequest("OPTIONS", "/s/ping")
                  .header("Origin", "https://ui.example")
                  .header("Access-Control-Request-Method", "POST")
                  .header("Access-Control-Request-Headers", "x-okapi-token, content-type");
          case 8 -> new FuzzRequest("GET", "/s/cors").header("Origin", "https://ui.example");
          case 9 ->
              new FuzzRequest("POST", "/authn/login")
                  .header("Content-Type", "application/json")
                  .body(
                      r.nextBoolean()
                          ? "{\"username\":\"alice\",\"password\":\"alice\"}"
                          : "{\"username\":\"mallory\",\"password\":\"nope\"}");
          case 10 -> new FuzzRequest("GET", "/_/proxy/health");
          case 11 -> new FuzzRequest("GET", "/_/invoke/tenant/diku/s/ping");
          case 12 -> {
            FuzzRequest old = new FuzzRequest("GET", "/s/ping").header("Connection", "keep-alive");
            old.version = "HTTP/1.0";
            yield old;
          }
          case 13 ->
              new FuzzRequest("POST", "/s/echo")
                  .header("Expect", "100-continue")
                  .body(random(r, r.nextInt(2048)));
          case 14 -> new FuzzRequest("GET", "/s/ping").header("X-Okapi-Token", unsignedJwt(r));
          case 15 ->
              new FuzzRequest("POST", "/s/upload").body(random(r, 70_000 + r.nextInt(50_000)));
          case 16 ->
              new FuzzRequest("GET", "/secure/x")
                  .header("Cookie", "a=b")
                  .header("Cookie", "folioAccessToken=" + token);
          case 17 -> new FuzzRequest("GET", "/secure/x").header("Authorization", "Bearer " + token);
          default -> new FuzzRequest("GET", "/s/q?" + "p=" + r.nextInt() + "&list=a,b;c");
        };
    return common(d, r, id);
  }

  /**
   * @return a valid request for the admin listener (no token: 401, or 403 for a tenant)
   */
  FuzzRequest pickAdmin(Random r, String id) {
    FuzzRequest d =
        switch (r.nextInt(5)) {
          case 0 -> new FuzzRequest("GET", "/_/proxy/modules");
          case 1 ->
              new FuzzRequest("POST", "/_/proxy/tenants")
                  .body("{\"id\":\"fuzz" + r.nextInt(9) + "\"}");
          case 2 -> new FuzzRequest("DELETE", "/_/proxy/tenants/diku");
          case 3 ->
              new FuzzRequest("POST", "/_/proxy/modules")
                  .body(
                      "{\"id\":\"mod-fuzz-1.0.0\","
                          + "\"provides\":[{\"id\":\"f\",\"version\":\"1.0\",\"handlers\":[{\"methods\":[\"GET\"],"
                          + "\"pathPattern\":\"/s/{id\"}]}]}");
          default -> new FuzzRequest("GET", "/_/proxy/health");
        };
    d.headers.add(0, "Host: localhost");
    d.header(FuzzRequest.ID_HEADER, id);
    if (r.nextInt(4) == 0) {
      d.header("X-Okapi-Token", r.nextBoolean() ? token : unsignedJwt(r));
    }
    return d;
  }

  private static FuzzRequest common(FuzzRequest d, Random r, String id) {
    d.headers.add(0, "Host: " + (r.nextBoolean() ? "x" : "localhost:9130"));
    if (!d.target.startsWith("/_/proxy/health")) {
      d.headers.add(1, "X-Okapi-Tenant: diku");
    }
    d.header(FuzzRequest.ID_HEADER, id);
    if (r.nextInt(3) == 0) {
      d.header("User-Agent", "fuzz/1.0").header("Accept", "*/*");
    }
    return d;
  }

  /**
   * A smuggling shape: a POST whose Content-Length covers a hidden request, with a second framing
   * (a Transfer-Encoding in some spelling, or a second Content-Length) under which the hidden
   * request would be read as a request of its own. Read by Content-Length the hidden request is
   * body; refused, it is nothing; only read the other way does it reach the module.
   */
  FuzzRequest smuggle(Random r, String id) {
    String hidden =
        "GET "
            + SMUGGLED_PATH
            + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
            + FuzzRequest.ID_HEADER
            + ": "
            + id
            + "-hidden\r\n\r\n";
    String body = "0\r\n\r\n" + hidden;
    FuzzRequest d =
        new FuzzRequest("POST", "/s/echo")
            .header("Host", "x")
            .header("X-Okapi-Tenant", "diku")
            .header(FuzzRequest.ID_HEADER, id);
    String[] second = {
      "Transfer-Encoding: chunked",
      "Transfer-Encoding: xchunked",
      "Transfer-Encoding: chunked, chunked",
      "Transfer-Encoding: gzip, chunked",
      "Transfer-Encoding : chunked",
      "Transfer-Encoding:\tchunked",
      "Transfer-Encoding: chunked\t",
      "Transfer-Encoding:\r\n chunked",
      "Transfer-Encoding: \u000bchunked",
      "Transfer-Encoding: chunked\u0000",
      "transfer-encoding: CHUNKED",
      "Transfer-Encoding: chunke",
      "Transfer-Encoding: identity",
      " Transfer-Encoding: chunked",
      "X: y\r\n Transfer-Encoding: chunked",
      "Content-Length: 0",
      "Content-Length: 5"
    };
    String framing = second[r.nextInt(second.length)];
    boolean before = r.nextBoolean();
    if (before) {
      d.headers.add(framing);
    }
    d.header("Content-Length", Integer.toString(body.length()));
    if (!before) {
      d.headers.add(framing);
    }
    d.body = body.getBytes(StandardCharsets.ISO_8859_1);
    return d;
  }

  static byte[] random(Random r, int n) {
    byte[] bytes = new byte[n];
    r.nextBytes(bytes);
    return bytes;
  }

  /**
   * @return a token-shaped string with {@code alg: none}: no signature anyone should accept
   */
  static String unsignedJwt(Random r) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(
            ("{\"sub\":\"admin\",\"tenant\":\"diku\",\"user_id\":\"" + r.nextInt() + "\"}")
                .getBytes(StandardCharsets.UTF_8))
        + ".";
  }
}
