package io.okapigw.core.auth;

import io.okapigw.core.http.HttpError;

/**
 * The auth filter's 4xx answer, passed to the client as it is (status, content type and body), as
 * Okapi passes it. Pre and post filters are told about it.
 */
public final class AuthRefusal extends HttpError {

  private static final long serialVersionUID = 1L;

  /**
   * @param status the auth filter's 4xx status
   * @param body its response body
   * @param contentType the body's content type
   */
  public AuthRefusal(int status, String body, String contentType) {
    super(status, body, contentType);
  }
}
