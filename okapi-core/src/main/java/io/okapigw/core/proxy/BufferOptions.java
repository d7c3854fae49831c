package io.okapigw.core.proxy;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.Sizes;

/**
 * How much of the node's memory bodies read whole may take ({@code proxy.buffered-*} settings): the
 * handler types other than {@code request-response} read the client's body whole before the module
 * is called ({@link BufferedHandler}), and Okapi buffers them without a bound.
 *
 * @param maxBody the largest body one request may have read whole (413 past it), and the largest
 *     module answer read whole (502 past it)
 * @param maxTotal the bytes all requests read whole at once on the node may hold together (503 with
 *     {@code Retry-After} past it)
 */
public record BufferOptions(long maxBody, long maxTotal) {

  public static final long DEFAULT_MAX_BODY = 64 * Sizes.MB;

  public static final Setting<Long> MAX_BODY =
      Setting.size("proxy.buffered-max-body", DEFAULT_MAX_BODY, Sizes.KB, Sizes.GB)
          .about(
              "the largest request body a handler of a type other than `request-response` reads"
                  + " whole (`request-log`, `request-only`, `headers`, `request-response-1.0`);"
                  + " past it 413 naming the limit")
          .details(
              "Also the largest answer of a `request-response-1.0` handler (past it 502, never an"
                  + " answer cut short). Okapi buffers such bodies without a bound.");

  public static final Setting<Long> MAX_TOTAL =
      Setting.size("proxy.buffered-max-total", defaultTotal(), 64 * Sizes.KB, 64 * Sizes.GB)
          .shownDefault("a quarter of the heap (`-Xmx`)")
          .about(
              "the bytes all the bodies read whole at once on this node may take together; a"
                  + " request whose body does not fit is answered 503 with `Retry-After: 1`")
          .details(
              "A body with a `Content-Length` takes its room before a byte is read, a chunked one"
                  + " as it comes; the room is given back once the request is answered (a"
                  + " `request-log` handler's: once the module has its copy too). A body is never"
                  + " sent on cut short: a body that cannot be read whole fails its request. In"
                  + " `/_/metrics`: `okapi_buffered_body_bytes`.");

  /** The {@code proxy.buffered-*} settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(MAX_BODY, MAX_TOTAL);

  public BufferOptions {
    MAX_BODY.check(maxBody);
    MAX_TOTAL.check(maxTotal);
  }

  /**
   * @return the defaults: 64 MiB a body, a quarter of the heap in all
   */
  public static BufferOptions defaults() {
    return new BufferOptions(DEFAULT_MAX_BODY, defaultTotal());
  }

  /**
   * Reads these settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static BufferOptions from(Settings settings) {
    return new BufferOptions(settings.get(MAX_BODY), settings.get(MAX_TOTAL));
  }

  /**
   * @return the largest body one request may have read whole: {@link #maxBody}, or all of {@link
   *     #maxTotal} if that is less
   */
  public long perRequest() {
    return Math.min(maxBody, maxTotal);
  }

  private static long defaultTotal() {
    return Math.max(64 * Sizes.KB, Runtime.getRuntime().maxMemory() / 4);
  }
}
