package io.okapigw.core.proxy;

import io.okapigw.core.auth.UnverifiedClaims;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.credentials.Credentials;
import io.okapigw.credentials.CredentialsException;
import io.vertx.core.MultiMap;

/**
 * Who a request is for. Its credentials (token, where it came from, user id) are read once, by the
 * one rule of {@link Credentials} that the authtoken module applies too; they are what the auth
 * cache keys the decision by and the only credentials the auth filter is sent. The tenant comes
 * from {@code X-Okapi-Tenant}, else from the token's {@code tenant} claim (read unverified, like
 * Okapi; the auth filter verifies every token), else it is the {@code supertenant}.
 *
 * @param tenant the tenant id
 * @param credentials the request's token and user id
 */
public record ClientIdentity(String tenant, Credentials credentials) {

  /**
   * @throws HttpError 400 if the credentials disagree (see {@link Credentials#read}) or no tenant
   *     is named and the token is not a readable JWT; 431 for a token or user id too long
   */
  public static ClientIdentity from(MultiMap headers) {
    Credentials credentials = read(headers);
    String tenant = credentials.tenant();
    if (tenant != null) {
      return new ClientIdentity(tenant, credentials);
    }
    if (!credentials.hasToken()) {
      return new ClientIdentity(TenantDescriptor.SUPERTENANT, credentials);
    }
    UnverifiedClaims claims =
        UnverifiedClaims.of(credentials.token())
            .orElseThrow(
                () ->
                    HttpError.badRequest(
                        "no X-Okapi-Tenant header, and the token is not a JWT that names a tenant"));
    return new ClientIdentity(claims.tenant().orElse(TenantDescriptor.SUPERTENANT), credentials);
  }

  /**
   * @param tenant the tenant the request is for, whatever its headers say
   * @throws HttpError as {@link #from}
   */
  public static ClientIdentity forTenant(String tenant, MultiMap headers) {
    return new ClientIdentity(tenant, read(headers));
  }

  /**
   * @return the client's token, or {@code null}
   */
  public String token() {
    return credentials.token();
  }

  /**
   * @return the user id the client sent with its token, or {@code null}
   */
  public String userId() {
    return credentials.userId();
  }

  private static Credentials read(MultiMap headers) {
    try {
      return Credentials.read(headers);
    } catch (CredentialsException e) {
      throw new HttpError(e.status(), e.getMessage());
    }
  }
}
