package io.okapigw.credentials;

/** Where a request's token came from. */
public enum TokenSource {
  /** The request has no token. */
  NONE("no token"),
  /** {@code X-Okapi-Token}. */
  TOKEN_HEADER("X-Okapi-Token"),
  /** {@code Authorization}, with or without {@code Bearer }. */
  AUTHORIZATION("Authorization"),
  /** The {@value Credentials#ACCESS_TOKEN_COOKIE} cookie. */
  COOKIE("the " + Credentials.ACCESS_TOKEN_COOKIE + " cookie");

  private final String description;

  TokenSource(String description) {
    this.description = description;
  }

  /**
   * @return the header or cookie, as an error message names it
   */
  public String description() {
    return description;
  }
}
