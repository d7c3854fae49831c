package io.okapigw.authtoken.gateway;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;

/**
 * Where and how the module tells the gateway to drop cached auth decisions: the {@code gateway-*}
 * settings, each declared here once.
 *
 * @param gatewayUrl the gateway's base URL, without a trailing {@code /}; {@code null}: skip
 *     invalidations
 * @param timeout the longest wait for the gateway's answer
 * @param retryDelay the first background retry's delay (doubles, at most 30 s)
 * @param retries background retries per invalidation
 */
public record InvalidationOptions(
    String gatewayUrl, Duration timeout, Duration retryDelay, int retries) {

  public static final Setting<String> GATEWAY_URL =
      Setting.text("gateway-url", null, "URL")
          .check(InvalidationOptions::isHttpUrl, "an http(s) URL")
          .about("our gateway, to tell about auth-cache invalidations; none: skip them")
          .details("Leave it unset behind Okapi, which has no such endpoint.");

  public static final Setting<Duration> TIMEOUT =
      Setting.duration(
              "gateway-timeout",
              Duration.ofSeconds(2),
              Duration.ofMillis(1),
              Duration.ofSeconds(60))
          .about("wait at most this for the gateway's answer to an invalidation");

  public static final Setting<Duration> RETRY_DELAY =
      Setting.duration(
              "gateway-retry-delay",
              Duration.ofSeconds(1),
              Duration.ofMillis(1),
              Duration.ofDays(1))
          .about("first background retry of an invalidation after this; doubles, at most 30s");

  public static final Setting<Integer> RETRIES =
      Setting.integer("gateway-retries", 20, 0, 1000).about("background retries per invalidation");

  /** The four, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(GATEWAY_URL, TIMEOUT, RETRY_DELAY, RETRIES);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public InvalidationOptions {
    if (gatewayUrl != null) {
      GATEWAY_URL.check(gatewayUrl);
      gatewayUrl =
          gatewayUrl.endsWith("/") ? gatewayUrl.substring(0, gatewayUrl.length() - 1) : gatewayUrl;
    }
    TIMEOUT.check(timeout);
    RETRY_DELAY.check(retryDelay);
    RETRIES.check(retries);
  }

  /**
   * @return the declared defaults: no gateway, invalidations skipped
   */
  public static InvalidationOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * @param gatewayUrl the gateway's base URL ({@code http(s)://host:port})
   * @return invalidations sent to that gateway, every other setting at its default
   */
  public static InvalidationOptions to(String gatewayUrl) {
    InvalidationOptions d = defaults();
    return new InvalidationOptions(gatewayUrl, d.timeout, d.retryDelay, d.retries);
  }

  /**
   * @param settings flags and conf file
   * @return the four settings, defaults for those not given
   * @throws IllegalArgumentException naming the bad setting
   */
  public static InvalidationOptions from(Settings settings) {
    return new InvalidationOptions(
        settings.get(GATEWAY_URL),
        settings.get(TIMEOUT),
        settings.get(RETRY_DELAY),
        settings.get(RETRIES));
  }

  private static boolean isHttpUrl(String url) {
    try {
      URI uri = new URI(url);
      return uri.getHost() != null
          && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
