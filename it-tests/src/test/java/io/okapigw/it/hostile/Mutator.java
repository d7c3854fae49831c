package io.okapigw.it.hostile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Random;

/**
 * Mutations of one {@link FuzzRequest}, each small and each chosen at random: the request line's
 * method, target and version (HTTP/1.0 with and without keep-alive among them); headers removed,
 * doubled, added (odd framing, Host, Okapi headers, huge values, odd names, folded lines);
 * credential lines (the token in a later {@code Cookie} line, {@code Authorization} and {@code
 * X-Okapi-Token} twice, agreeing or not) and {@code Content-Length} duplicated or split; header
 * lines split in two or reordered; bodies cut, lengthened or re-chunked badly; line endings and
 * stray bytes. The {@link FuzzRequest#ID_HEADER} line is never touched.
 */
final class Mutator {

  private static final String[] METHODS = {
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "HEAD",
    "OPTIONS",
    "TRACE",
    "CONNECT",
    "get",
    "Post",
    "FOO",
    "M-SEARCH",
    "PRI",
    "G\tET",
    "GET\u0000",
    "X".repeat(300),
    ""
  };
  private static final String[] VERSIONS = {
    "HTTP/1.0",
    "HTTP/1.1",
    "HTTP/1.2",
    "HTTP/2.0",
    "HTTP/0.9",
    "http/1.1",
    "HTTP/1.1 ",
    "HTTP/1",
    "HTTP/11",
    "HTTP/1.1\u0000",
    "HTTPS/1.1",
    null
  };
  private static final String[] SEGMENTS = {
    ".",
    "..",
    "%2e",
    "%2E%2e",
    ".%2e",
    "..;",
    "..;x=1",
    "",
    "%2F",
    "%2f",
    "%5C",
    "\\",
    "%00",
    "%zz",
    "%",
    "%4",
    "%41",
    "%7e",
    "%20",
    "%C3%A9",
    "\u00e9",
    "a;b=c",
    "~user",
    "*",
    "{id}",
    "%252e%252e",
    ":",
    "@",
    "a b"
  };
  private static final String[] TARGETS = {
    "*",
    "s/ping",
    "localhost:9130",
    "http://evil/s/ping",
    "HTTP://evil:80/s/ping?x=1",
    "https://evil/secure/x",
    "http://evil",
    "http://evil?x=1",
    "http:/s/ping",
    "//s/ping",
    "/_/proxy/tenants",
    "/_/proxy/health/../tenants",
    "/_/invoke/tenant/supertenant/../../proxy/tenants",
    "/_/invoke/tenant/diku/secure/x",
    "/_/invoke/tenant/%64iku/s/ping",
    "/_/invoke/tenant//s/ping",
    "/_/invoke/tenant/nosuch/s/x",
    "/s/ping#frag",
    "/s/ping?#",
    "/s/ping?" + "q".repeat(5000),
    "/" + "a".repeat(10_000),
    "/authn/login",
    "/secure/../s/ping",
    "/s/..%2F..%2F_/proxy/tenants",
    "/"
  };
  private static final String[] ODD_HEADERS = {
    "Transfer-Encoding: chunked",
    "Transfer-Encoding: xchunked",
    "Transfer-Encoding: chunked, chunked",
    "Transfer-Encoding: gzip",
    "Transfer-Encoding: identity",
    "Transfer-Encoding:",
    "Content-Length: 0",
    "Content-Length: -1",
    "Content-Length: 99999999999999999999",
    "Content-Length: 1e3",
    "Content-Length: +5",
    "Content-Length: 0x10",
    "Content-Length:",
    "Content-Length: 5, 5",
    "Connection: close",
    "Connection: keep-alive",
    "Connection: Upgrade",
    "Upgrade: h2c",
    "HTTP2-Settings: AAMAAABkAAQAAP__",
    "Upgrade: websocket",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    "Expect: 100-continue",
    "Expect: 200-ok",
    "Origin: null",
    "Origin: https://evil.example",
    "Origin: \u00ff\u00fe",
    "Access-Control-Request-Method: DELETE",
    "Content-Type: text/plain",
    "Content-Type: multipart/form-data; boundary=x",
    "Content-Encoding: gzip",
    "Accept-Encoding: gzip, deflate, br",
    "Range: bytes=0-1",
    "If-None-Match: *",
    "Cookie: a=b",
    "Authorization: Bearer x.y.z",
    "Forwarded: for=1.2.3.4",
    "X-Forwarded-For: 1.2.3.4",
    "X-Forwarded-Host: evil",
    "X-HTTP-Method-Override: DELETE",
    "X-Okapi-Tenant: supertenant",
    "X-Okapi-Tenant: nosuch",
    "X-Okapi-Tenant:",
    "X-Okapi-Tenant: diku, diku",
    "X-Okapi-Tenant: DIKU",
    "X-Okapi-Tenant: ../diku",
    "X-Okapi-Token: garbage",
    "X-Okapi-Token: eyJhbGciOiJub25lIn0.e30.",
    "X-Okapi-Token:",
    "X-Okapi-Url: http://evil.example",
    "X-Okapi-Module-Id: mod-authtoken-1.0.0",
    "X-Okapi-Permissions: [\"okapi.all\"]",
    "X-Okapi-User-Id: 00000000-0000-0000-0000-000000000000",
    "X-Okapi-Request-Id: 1;2;3",
    "X-Okapi-Filter: auth",
    "X-Okapi-Permissions-Required: x",
    "X-Okapi-Module-Permissions: {\"mod-backend-1.0.0\":[\"okapi.all\"]}",
    "X-Okapi-Additional-Token: x",
    "X-Okapi-Match-Path-Pattern: /*",
    "Host: y",
    "Host:",
    "Host: evil.example:80",
    "Host: [::1]",
    "Host: a b",
    "Host: x\u0000"
  };
  private static final String[] ODD_LINES = {
    "Transfer-Encoding : chunked",
    "Content-Length : 5",
    "Host : x",
    " X-Folded: y",
    "\tX-Folded: y",
    "X-No-Colon",
    ": empty-name",
    "X Space: y",
    "X(Paren): y",
    "X-\u00e9: y",
    "X-Nul\u0000: y",
    "X-Ctl: a\u0001b",
    "X-Obs: \u00e9\u00ff",
    "x-okapi-tenant : diku",
    "Transfer_Encoding: chunked",
    "Content_Length: 5",
    "X-Okapi-Tenant:\r\n diku"
  };

  private final Random r;
  private final String token;

  Mutator(Random r, String token) {
    this.r = r;
    this.token = token;
  }

  /** Applies one mutation at random. */
  void mutate(FuzzRequest d) {
    switch (r.nextInt(20)) {
      case 0 -> d.method = pick(METHODS);
      case 1 -> d.target = segments(d.target);
      case 2 -> d.target = r.nextBoolean() ? pick(TARGETS) : "http://h" + d.target;
      case 3 -> d.version = pick(VERSIONS);
      case 4 -> removeHeader(d);
      case 5 -> duplicateHeader(d);
      case 6, 7 -> insert(d, pick(ODD_HEADERS));
      case 8 -> insert(d, pick(ODD_LINES));
      case 9 -> insert(d, "X-Big: " + "b".repeat(pick(1_000, 8_000, 15_000, 17_000, 70_000)));
      case 10 -> manyHeaders(d);
      case 11 -> body(d);
      case 12 -> d.lineEnd = pick(new String[] {"\n", "\r", "\r\r\n", " \r\n"});
      case 13 -> strayByte(d);
      case 14 -> insert(d, "X-Okapi-Token: " + (r.nextBoolean() ? token + token : token + "x"));
      case 15 -> insert(d, "X-Okapi-Request-Id: " + "r".repeat(pick(10, 600, 9_000)));
      case 16 -> credentialLines(d);
      case 17 -> splitOrDoubleFraming(d);
      case 18 -> Collections.shuffle(d.headers, r);
      default -> version(d);
    }
  }

  /** The token where a reader of the first line only would miss it, or twice, agreeing or not. */
  private void credentialLines(FuzzRequest d) {
    String other = r.nextBoolean() ? token : token.substring(0, token.length() - 1) + "x";
    switch (r.nextInt(6)) {
      case 0 -> {
        insert(d, "Cookie: a=b");
        d.headers.add("Cookie: folioAccessToken=" + token);
      }
      case 1 -> insert(d, "Cookie: x=y; folioAccessToken=" + token + "; z=1");
      case 2 -> {
        insert(d, "Authorization: Bearer " + token);
        insert(d, "Authorization: " + (r.nextBoolean() ? "Bearer " : "") + other);
      }
      case 3 -> {
        insert(d, "X-Okapi-Token: " + token);
        insert(d, "X-Okapi-Token: " + other);
      }
      case 4 -> {
        insert(d, "Cookie: folioAccessToken=" + other);
        insert(d, "Cookie: folioAccessToken=" + token);
      }
      default -> {
        d.remove("X-Okapi-Token");
        insert(d, "X-Okapi-User-Id: " + pick(new String[] {"alice", "", "x".repeat(300)}));
      }
    }
  }

  /** A header line split in two lines of the same name, or Content-Length doubled. */
  private void splitOrDoubleFraming(FuzzRequest d) {
    int length = d.indexOf("Content-Length");
    if (length >= 0 && r.nextBoolean()) {
      String value = d.headers.get(length).substring("Content-Length:".length()).trim();
      String second = r.nextBoolean() ? value : Integer.toString(r.nextInt(100));
      if (r.nextBoolean()) {
        insert(d, "Content-Length: " + second);
      } else {
        d.headers.set(length, "Content-Length: " + value + ", " + second);
      }
      return;
    }
    int i = r.nextInt(d.headers.size());
    String line = d.headers.get(i);
    int colon = line.indexOf(':');
    int cut = line.indexOf(line.contains(";") ? ';' : ',', colon + 1);
    if (line.startsWith(FuzzRequest.ID_HEADER) || colon <= 0 || cut < 0) {
      return;
    }
    String name = line.substring(0, colon);
    d.headers.set(i, line.substring(0, cut));
    d.headers.add(i + 1, name + ": " + line.substring(cut + 1).trim());
  }

  /** HTTP/1.0 with or without keep-alive, or HTTP/1.1 closing. */
  private void version(FuzzRequest d) {
    d.remove("Connection");
    switch (r.nextInt(3)) {
      case 0 -> d.version = "HTTP/1.0";
      case 1 -> {
        d.version = "HTTP/1.0";
        insert(d, "Connection: keep-alive");
      }
      default -> {
        d.version = "HTTP/1.1";
        insert(d, "Connection: close");
      }
    }
  }

  private String segments(String target) {
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q);
    String[] parts = path.split("/", -1);
    int at = 1 + r.nextInt(Math.max(1, parts.length - 1));
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < parts.length; i++) {
      out.append('/');
      if (i == at) {
        out.append(pick(SEGMENTS)).append(r.nextBoolean() ? "/" : "");
      }
      out.append(parts[i]);
    }
    return (out.length() == 0 ? "/" : out.toString()) + query;
  }

  private void removeHeader(FuzzRequest d) {
    int i = r.nextInt(d.headers.size());
    if (!d.headers.get(i).startsWith(FuzzRequest.ID_HEADER)) {
      d.headers.remove(i);
    }
  }

  private void duplicateHeader(FuzzRequest d) {
    String line = d.headers.get(r.nextInt(d.headers.size()));
    if (line.startsWith(FuzzRequest.ID_HEADER)) {
      return;
    }
    insert(d, r.nextBoolean() ? line : line + (line.endsWith("0") ? "1" : "0"));
  }

  private void manyHeaders(FuzzRequest d) {
    int n = pick(100, 300, 1_500);
    for (int i = 0; i < n; i++) {
      d.headers.add("X-Many-" + i + ": " + i);
    }
  }

  private void body(FuzzRequest d) {
    byte[] b = d.body;
    switch (r.nextInt(6)) {
      case 0 -> { // cut, declared length kept
        if (b.length > 0) {
          d.body = Arrays.copyOf(b, r.nextInt(b.length));
          d.bodyShort = true;
        }
      }
      case 1 -> d.body = concat(b, FuzzCorpus.random(r, 1 + r.nextInt(100))); // extra bytes
      case 2 ->
          d.set("Content-Length", Integer.toString(b.length + 1 + r.nextInt(1000))).bodyShort =
              true;
      case 3 ->
          d.body =
              ("5;" + "e".repeat(r.nextInt(3) * 5000) + "\r\nhello\r\n0\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1);
      case 4 ->
          d.body =
              pick(new String[] {
                    "ffffffffffffffff\r\nx\r\n0\r\n\r\n",
                    "-1\r\nx\r\n0\r\n\r\n",
                    " 5\r\nhello\r\n0\r\n\r\n",
                    "5\r\nhelloXX0\r\n\r\n",
                    "5\nhello\n0\n\n",
                    "0\r\nTrailer: x\r\n\r\n",
                    "0\r\n",
                    "3\r\nabc\r\n",
                    "5 ;x\r\nhello\r\n0\r\n\r\n",
                    "0x5\r\nhello\r\n0\r\n\r\n",
                    "00000000005\r\nhello\r\n0\r\n\r\n"
                  })
                  .getBytes(StandardCharsets.ISO_8859_1);
      default -> d.body = new byte[0];
    }
  }

  private void strayByte(FuzzRequest d) {
    String[] stray = {"\u0000", "\u0007", "\u007f", "\u00ff", "\r", "\n", " ", "\t"};
    int i = r.nextInt(d.headers.size());
    String line = d.headers.get(i);
    if (!line.startsWith(FuzzRequest.ID_HEADER)) {
      int at = r.nextInt(line.length() + 1);
      d.headers.set(i, line.substring(0, at) + pick(stray) + line.substring(at));
    }
  }

  private void insert(FuzzRequest d, String line) {
    d.headers.add(r.nextInt(d.headers.size() + 1), line);
  }

  private String pick(String[] options) {
    return options[r.nextInt(options.length)];
  }

  private int pick(int... options) {
    return options[r.nextInt(options.length)];
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
