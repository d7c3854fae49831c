package io.okapigw.authtoken.http;

import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.okapigw.credentials.Credentials;
import io.okapigw.credentials.CredentialsException;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import java.util.regex.Pattern;

/** Names of the Okapi headers this module reads and writes, and the tenant header check. */
public final class OkapiHeaders {
  /** Tenant of the request. */
  public static final String TENANT = "X-Okapi-Tenant";

  /** The caller's token (a JWT). */
  public static final String TOKEN = "X-Okapi-Token";

  /** User id of the caller. */
  public static final String USER_ID = "X-Okapi-User-Id";

  /** Gateway URL. */
  public static final String URL = "X-Okapi-Url";

  /** Request id, for logs. */
  public static final String REQUEST_ID = "X-Okapi-Request-Id";

  /**
   * Marks a filter call: {@code auth} from older gateways and on Okapi's system calls, {@code pre
   * PATTERN} / {@code post PATTERN} for other filters.
   */
  public static final String FILTER = "X-Okapi-Filter";

  /** Another place for the token: {@code Bearer TOKEN} or the bare token. */
  public static final String AUTHORIZATION = "Authorization";

  /** The cookie a browser client keeps its access token in. */
  public static final String ACCESS_TOKEN_COOKIE = Credentials.ACCESS_TOKEN_COOKIE;

  /**
   * Permissions the pipeline requires (comma-separated as Okapi sends them; a JSON array is
   * accepted).
   */
  public static final String PERMISSIONS_REQUIRED = "X-Okapi-Permissions-Required";

  /** Permissions the pipeline would like (comma-separated; a JSON array is accepted). */
  public static final String PERMISSIONS_DESIRED = "X-Okapi-Permissions-Desired";

  /**
   * Module id to module permissions (JSON object). Okapi sends it to the auth filter on every
   * proxied request ({@code {}} when no module has any) and strips it from every other request.
   */
  public static final String MODULE_PERMISSIONS = "X-Okapi-Module-Permissions";

  /** Module id to module token (JSON object), answered by the filter. */
  public static final String MODULE_TOKENS = "X-Okapi-Module-Tokens";

  /** Permissions held among required and desired (JSON array), answered by the filter. */
  public static final String PERMISSIONS = "X-Okapi-Permissions";

  private static final Pattern TENANT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private OkapiHeaders() {}

  /**
   * Reads and checks {@code X-Okapi-Tenant}.
   *
   * @param headers request headers
   * @return the tenant id
   * @throws ApiException 400 if missing or not 1-64 characters of {@code [A-Za-z0-9_-]}
   */
  public static String tenant(MultiMap headers) {
    String tenant = headers.get(TENANT);
    if (tenant == null || tenant.isEmpty()) {
      throw ApiException.badRequest("missing header " + TENANT);
    }
    if (!TENANT_ID.matcher(tenant).matches()) {
      throw ApiException.badRequest(
          "invalid header " + TENANT + ": must be 1-64 characters of letters, digits, '_' and '-'");
    }
    return tenant;
  }

  /**
   * Reads the request's credentials by the rule the gateway reads them by ({@link Credentials}):
   * the token from {@code X-Okapi-Token}, {@code Authorization} (with or without {@code Bearer })
   * or the {@value #ACCESS_TOKEN_COOKIE} cookie, every line of each counted, and the user id sent
   * with the token. Behind a gateway the token always arrives as {@code X-Okapi-Token}; the other
   * places serve direct calls.
   *
   * @param headers request headers
   * @return the credentials
   * @throws ApiException 400 if lines or places disagree or the cookie is sent twice (Okapi answers
   *     400 for both), 431 for a token or user id too long to be one
   */
  public static Credentials credentials(MultiMap headers) {
    try {
      return Credentials.read(headers);
    } catch (CredentialsException e) {
      throw new ApiException(e.status(), e.getMessage());
    }
  }

  /**
   * @param headers request headers
   * @return the token ({@link #credentials}), or {@code null} if none was sent
   * @throws ApiException as {@link #credentials}
   */
  public static String token(MultiMap headers) {
    return credentials(headers).token();
  }

  /**
   * Reads one cookie of the request (Netty's strict decoder, every {@code Cookie} header).
   *
   * @param headers request headers
   * @param name the cookie's name
   * @return its value, or {@code null} if it was not sent or is empty
   * @throws ApiException 400 if it is sent twice
   */
  public static String cookie(MultiMap headers, String name) {
    String found = null;
    for (String header : headers.getAll(HttpHeaders.COOKIE)) {
      for (Cookie cookie : ServerCookieDecoder.STRICT.decodeAll(header)) {
        if (name.equals(cookie.name())) {
          if (found != null) {
            throw ApiException.badRequest("more than one " + name + " cookie");
          }
          found = cookie.value();
        }
      }
    }
    return emptyToNull(found);
  }

  private static String emptyToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
