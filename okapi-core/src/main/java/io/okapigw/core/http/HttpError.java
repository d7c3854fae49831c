package io.okapigw.core.http;

/**
 * The one error type of the gateway: a failure that carries the HTTP status, the message the client
 * gets and, for a refusal the client may retry later (429, 503), the {@code Retry-After} it is
 * sent. Anything else that reaches the failure handler is a bug and answers 500.
 */
public class HttpError extends RuntimeException {

  private static final long serialVersionUID = 1L;
  private static final String TEXT = "text/plain; charset=utf-8";

  private final int status;
  private final String contentType;
  private final long retryAfterSeconds;

  /**
   * @param status HTTP status code, 400-599
   * @param message text for the client; must not contain secrets
   */
  public HttpError(int status, String message) {
    this(status, message, 0);
  }

  /**
   * A refusal the client may try again: the response carries {@code Retry-After}.
   *
   * @param status HTTP status code, 400-599
   * @param message text for the client; must not contain secrets
   * @param retryAfterSeconds the {@code Retry-After} sent, in seconds; 0 for none
   */
  public HttpError(int status, String message, long retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.contentType = TEXT;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * An error whose body is passed to the client as given, such as an auth module's 401 answer.
   *
   * @param status HTTP status code, 400-599
   * @param body the response body; must not contain secrets
   * @param contentType the body's content type
   */
  public HttpError(int status, String body, String contentType) {
    this(status, body, contentType, 0);
  }

  /**
   * An error whose body is passed to the client as given, which the client may try again.
   *
   * @param status HTTP status code, 400-599
   * @param body the response body; must not contain secrets
   * @param contentType the body's content type
   * @param retryAfterSeconds the {@code Retry-After} sent, in seconds; 0 for none
   */
  public HttpError(int status, String body, String contentType, long retryAfterSeconds) {
    super(body, null, false, false);
    this.status = status;
    this.contentType = contentType;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * @return the HTTP status code
   */
  public int status() {
    return status;
  }

  /**
   * @return the content type of the message
   */
  public String contentType() {
    return contentType;
  }

  /**
   * @return the {@code Retry-After} the client is sent, in seconds; 0 for none
   */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  public static HttpError badRequest(String message) {
    return new HttpError(400, message);
  }

  public static HttpError notFound(String message) {
    return new HttpError(404, message);
  }

  public static HttpError badGateway(String message) {
    return new HttpError(502, message);
  }

  public static HttpError unavailable(String message) {
    return new HttpError(503, message);
  }

  public static HttpError gatewayTimeout(String message) {
    return new HttpError(504, message);
  }
}
