package io.okapigw.core.upstream;

import io.netty.channel.ConnectTimeoutException;
import io.okapigw.core.http.HttpError;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

/**
 * The one mapping of a failed module call to the status the caller answers, naming the module and
 * its instance: a timeout 504, anything else (no instance, refused, reset, an answer that breaks
 * HTTP) 502. An {@link HttpError} is kept as it is. Callers with a policy of their own start from
 * it: the auth stage fails closed with 503, the health check reports a reason.
 */
public final class CallFailures {

  private CallFailures() {}

  /**
   * @return the failure as an {@link HttpError} naming {@code call}'s module and instance
   */
  public static Throwable map(ModuleCall call, Throwable failure) {
    if (failure instanceof HttpError) {
      return failure;
    }
    String module = call.describe();
    if (isTimeout(failure)) {
      return HttpError.gatewayTimeout(module + " did not answer " + within(call));
    }
    if (failure instanceof BadAnswer) {
      return HttpError.badGateway(module + " " + failure.getMessage());
    }
    return HttpError.badGateway(module + " could not be reached: " + describe(failure));
  }

  /**
   * @return the failure of a call that found no instance to go to
   */
  static HttpError noInstance(String moduleId) {
    return HttpError.badGateway(
        "module " + moduleId + " has no running instance (register one at /_/discovery/modules)");
  }

  /**
   * A timeout: {@code Future.timeout} and a request's idle timeout (Vert.x's {@code
   * NoStackTraceTimeoutException} is a {@link TimeoutException}); Netty's {@link
   * ConnectTimeoutException} (the client's connect timeout; a {@link ConnectException} otherwise
   * taken for a refusal); Netty's read and write timeouts. A stream reset or a closed connection is
   * not a timeout.
   *
   * @return whether {@code failure} is a timeout
   */
  public static boolean isTimeout(Throwable failure) {
    return failure instanceof TimeoutException
        || failure instanceof ConnectTimeoutException
        || failure instanceof io.netty.handler.timeout.TimeoutException;
  }

  private static String within(ModuleCall call) {
    return call.timeoutMillis() > 0 ? "within " + call.timeoutMillis() + " ms" : "in time";
  }

  private static String describe(Throwable failure) {
    if (failure instanceof ConnectException) {
      return "connection refused";
    }
    String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message;
  }

  /** A module's answer that breaks HTTP: the call fails with 502 naming the module. */
  public static final class BadAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadAnswer(String message) {
      super(message, null, false, false);
    }
  }
}
