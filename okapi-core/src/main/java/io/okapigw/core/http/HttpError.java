package io.okapigw.core.http;

/**
 * The one error type of the gateway: a failure that carries the HTTP status and the message the
 * client gets. Anything else that reaches the failure handler is a bug and answers 500.
 */
public class HttpError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String contentType;

  /**
   * @param status HTTP status code, 400-599
   * @param message text for the client; must not contain secrets
   */
  public HttpError(int status, String message) {
    this(status, message, "text/plain; charset=utf-8");
  }

  /**
   * An error whose body is passed to the client as given, such as an auth module's 401 answer.
   *
   * @param status HTTP status code, 400-599
   * @param body the response body; must not contain secrets
   * @param contentType the body's content type
   */
  public HttpError(int status, String body, String contentType) {
    super(body, null, false, false);
    this.status = status;
    this.contentType = contentType;
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
