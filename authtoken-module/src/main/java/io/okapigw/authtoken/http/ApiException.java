package io.okapigw.authtoken.http;

/**
 * The one error type of this module: a failure carrying the HTTP status and a message safe to show
 * to the client (it never contains tokens, passwords or keys).
 *
 * <p>Every client mistake is reported through one of the static factories; the {@link
 * FailureHandler} turns it into the response.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final long retryAfterSeconds;

  /**
   * @param status HTTP status to answer with (400..599)
   * @param message message for the client
   */
  public ApiException(int status, String message) {
    this(status, message, 0);
  }

  private ApiException(int status, String message, long retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * @return the HTTP status
   */
  public int status() {
    return status;
  }

  /**
   * @return the seconds a client should wait before trying again ({@code Retry-After}), 0 for none
   */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /**
   * @param message what is limited, and for how long
   * @param retryAfterSeconds when to try again, at least 1
   * @return a 429 error answered with {@code Retry-After}
   */
  public static ApiException tooManyRequests(String message, long retryAfterSeconds) {
    return new ApiException(429, message, Math.max(1, retryAfterSeconds));
  }

  /**
   * @param message what is wrong with the request @return a 400 error
   */
  public static ApiException badRequest(String message) {
    return new ApiException(400, message);
  }

  /**
   * @param message why the caller is not authenticated @return a 401 error
   */
  public static ApiException unauthorized(String message) {
    return new ApiException(401, message);
  }

  /**
   * @param message which permission is missing @return a 403 error
   */
  public static ApiException forbidden(String message) {
    return new ApiException(403, message);
  }

  /**
   * @param message what was not found @return a 404 error
   */
  public static ApiException notFound(String message) {
    return new ApiException(404, message);
  }

  /**
   * @param message which field is invalid @return a 422 error
   */
  public static ApiException unprocessable(String message) {
    return new ApiException(422, message);
  }

  /**
   * @param message what cannot be reached
   * @return a 503 error answered with {@code Retry-After: 5}
   */
  public static ApiException unavailable(String message) {
    return new ApiException(503, message, 5);
  }

  /**
   * Maps any failure to an {@code ApiException}: itself if it is one; a 503 for a database or
   * service this module needs that cannot be reached or will not serve now ({@link Unavailable});
   * else a 500. The message reveals nothing of the cause (no address, no query).
   *
   * @param failure the failure, may be {@code null}
   * @param status the status set by Vert.x Web when there is no failure object, or -1
   * @return the error to answer with
   */
  public static ApiException from(Throwable failure, int status) {
    if (failure instanceof ApiException api) {
      return api;
    }
    if (failure instanceof io.vertx.core.json.DecodeException) {
      return badRequest("request body is not valid JSON");
    }
    if (failure == null && status == 413) {
      return new ApiException(413, "request body too large");
    }
    if (failure == null && status >= 400 && status < 500) {
      return new ApiException(status, "bad request");
    }
    if (Unavailable.database(failure)) {
      return unavailable("database unavailable, try again shortly");
    }
    if (Unavailable.connection(failure)) {
      return unavailable(
          "unavailable: the database or the gateway cannot be reached now, try again shortly");
    }
    return new ApiException(500, "internal error");
  }
}
