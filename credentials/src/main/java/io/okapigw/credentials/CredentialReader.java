package io.okapigw.credentials;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.util.AsciiString;
import io.vertx.core.MultiMap;
import java.util.Iterator;
import java.util.Map;

/**
 * One reading of one request's headers by the rule of {@link Credentials}: a single pass that picks
 * the credential headers by length and name, without allocating per header. Not reusable.
 */
final class CredentialReader {

  private static final AsciiString COOKIE = AsciiString.cached("Cookie");
  private static final AsciiString TOKEN = AsciiString.cached("X-Okapi-Token");
  private static final AsciiString AUTHORIZATION = AsciiString.cached("Authorization");
  private static final AsciiString TENANT = AsciiString.cached("X-Okapi-Tenant");
  private static final AsciiString USER_ID = AsciiString.cached("X-Okapi-User-Id");
  private static final String BEARER = "Bearer";

  /** The single-valued headers, in the order their disagreement is reported. */
  private static final AsciiString[] SINGLE = {TENANT, TOKEN, AUTHORIZATION, USER_ID};

  private String tokenHeader;
  private String authorization;
  private String tenant;
  private String userId;
  private String cookies;
  private StringBuilder moreCookies;

  /** The headers sent in lines that disagree, as bits by index in {@link #SINGLE}. */
  private int disagreeing;

  Credentials read(MultiMap headers) {
    if (headers instanceof HttpHeaders netty) {
      Iterator<Map.Entry<CharSequence, CharSequence>> it = netty.iteratorCharSequence();
      while (it.hasNext()) {
        Map.Entry<CharSequence, CharSequence> header = it.next();
        take(header.getKey(), header.getValue());
      }
    } else {
      headers.forEach((name, value) -> take(name, value));
    }
    return credentials();
  }

  private void take(CharSequence name, CharSequence value) {
    switch (name.length()) {
      case 6 -> {
        if (COOKIE.contentEqualsIgnoreCase(name)) {
          cookie(value);
        }
      }
      case 13 -> {
        if (TOKEN.contentEqualsIgnoreCase(name)) {
          tokenHeader = agree(tokenHeader, trimmed(value), 1);
        } else if (AUTHORIZATION.contentEqualsIgnoreCase(name)) {
          authorization = agree(authorization, withoutBearer(trimmed(value)), 2);
        }
      }
      case 14 -> {
        if (TENANT.contentEqualsIgnoreCase(name)) {
          tenant = agree(tenant, trimmed(value), 0);
        }
      }
      case 15 -> {
        if (USER_ID.contentEqualsIgnoreCase(name)) {
          userId = agree(userId, trimmed(value), 3);
        }
      }
      default -> {
        // not a credential
      }
    }
  }

  /** RFC 9113 8.2.3: several cookie lines are one list, joined with "; ". */
  private void cookie(CharSequence value) {
    String line = trimmed(value);
    if (line == null) {
      return;
    }
    if (cookies == null) {
      cookies = line;
    } else {
      if (moreCookies == null) {
        moreCookies = new StringBuilder(cookies);
      }
      moreCookies.append("; ").append(line);
    }
  }

  private Credentials credentials() {
    if (disagreeing != 0) {
      throw new CredentialsException(
          400,
          SINGLE[Integer.numberOfTrailingZeros(disagreeing)]
              + " is sent in several lines with different values; send it once");
    }
    String token = tokenHeader;
    TokenSource source = token == null ? TokenSource.NONE : TokenSource.TOKEN_HEADER;
    if (authorization != null) {
      token = agreeSources(token, source, authorization, TokenSource.AUTHORIZATION);
      source = source == TokenSource.NONE ? TokenSource.AUTHORIZATION : source;
    }
    String cookie = accessTokenCookie(moreCookies == null ? cookies : moreCookies.toString());
    if (cookie != null) {
      token = agreeSources(token, source, cookie, TokenSource.COOKIE);
      source = source == TokenSource.NONE ? TokenSource.COOKIE : source;
    }
    if (token != null && token.length() > Credentials.MAX_TOKEN_LENGTH) {
      throw tooLong(
          "the token (" + source.description() + ")", token, Credentials.MAX_TOKEN_LENGTH);
    }
    if (userId != null && userId.length() > Credentials.MAX_USER_ID_LENGTH) {
      throw tooLong(USER_ID.toString(), userId, Credentials.MAX_USER_ID_LENGTH);
    }
    return new Credentials(tenant, token, source, token == null ? null : userId);
  }

  private static String agreeSources(
      String token, TokenSource source, String other, TokenSource otherSource) {
    if (token != null && !token.equals(other)) {
      throw new CredentialsException(
          400,
          source.description()
              + " and "
              + otherSource.description()
              + " carry different tokens; send one of them");
    }
    return other;
  }

  /**
   * @return the value of the one {@value Credentials#ACCESS_TOKEN_COOKIE} cookie, or null
   */
  private static String accessTokenCookie(String cookies) {
    if (cookies == null || !cookies.contains(Credentials.ACCESS_TOKEN_COOKIE)) {
      return null;
    }
    String value = null;
    for (Cookie cookie : ServerCookieDecoder.STRICT.decodeAll(cookies)) {
      if (Credentials.ACCESS_TOKEN_COOKIE.equals(cookie.name())) {
        if (value != null) {
          throw new CredentialsException(
              400, "more than one " + Credentials.ACCESS_TOKEN_COOKIE + " cookie");
        }
        value = cookie.value();
      }
    }
    return value == null || value.isBlank() ? null : value.trim();
  }

  /**
   * Several lines of one header: blank ones are none, the others must be the same; a disagreement
   * is noted (reported once all lines are read, so the report does not depend on their order).
   *
   * @param single the header's index in {@link #SINGLE}
   */
  private String agree(String current, String line, int single) {
    if (current == null || line == null) {
      return current == null ? line : current;
    }
    if (!current.equals(line)) {
      disagreeing |= 1 << single;
    }
    return current;
  }

  /**
   * @return the token of an {@code Authorization} value: after {@code Bearer } (any case), else the
   *     whole value, as Okapi reads it
   */
  private static String withoutBearer(String value) {
    if (value == null || !value.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return value;
    }
    if (value.length() == BEARER.length()) {
      return null;
    }
    char after = value.charAt(BEARER.length());
    if (after != ' ' && after != '\t') {
      return value;
    }
    String token = value.substring(BEARER.length() + 1).trim();
    return token.isEmpty() ? null : token;
  }

  private static String trimmed(CharSequence value) {
    String s = value.toString().trim();
    return s.isEmpty() ? null : s;
  }

  private static CredentialsException tooLong(String what, String value, int max) {
    return new CredentialsException(
        431, what + " is " + value.length() + " characters long; at most " + max + " are accepted");
  }
}
