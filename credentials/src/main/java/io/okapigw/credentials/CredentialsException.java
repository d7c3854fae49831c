package io.okapigw.credentials;

/**
 * A request whose credentials cannot be read by the rule: each program answers it with {@link
 * #status()} and the message, which names the header and the problem and never holds a token.
 */
public final class CredentialsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;

  CredentialsException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  /**
   * @return 400 for credentials that disagree, 431 for a token or user id too long to be one
   */
  public int status() {
    return status;
  }
}
