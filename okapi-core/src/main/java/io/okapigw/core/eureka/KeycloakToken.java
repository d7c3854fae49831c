package io.okapigw.core.eureka;

/**
 * A Keycloak access token whose signature, issuer and expiry were checked.
 *
 * @param raw the token as sent
 * @param tenant the realm that issued it (the last segment of {@code iss})
 * @param userId the FOLIO user id ({@code user_id}), or null (a client's token has none)
 * @param session the login session ({@code sid}), or null (a client's token has none)
 * @param subject {@code sub} (FOLIO's mappers put the user name there), or null
 * @param expiresAt {@code exp}, epoch seconds
 */
public record KeycloakToken(
    String raw, String tenant, String userId, String session, String subject, long expiresAt) {

  @Override
  public String toString() {
    return "KeycloakToken[tenant=" + tenant + ", userId=" + userId + ", session=" + session + "]";
  }
}
