package io.okapigw.authtoken.gateway;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Where and how the module tells the gateway to drop cached auth decisions: the {@code gateway-*}
 * settings, each declared here once.
 *
 * @param gateways the gateway's base URLs (its nodes, or one load balancer in front of them), each
 *     without a trailing {@code /}; empty: skip invalidations
 * @param timeout the longest wait for one gateway URL's answer
 * @param failoverAfter how long a gateway URL may stay silent before the next is asked too
 * @param retryDelay the first background retry's delay (doubles, at most 30 s)
 * @param retries background retries per invalidation
 */
public record InvalidationOptions(
    List<String> gateways,
    Duration timeout,
    Duration failoverAfter,
    Duration retryDelay,
    int retries) {

  public static final Setting<String> GATEWAY_URL =
      Setting.text("gateway-url", null, "URL[,URL...]")
          .check(InvalidationOptions::isUrlList, "one http(s) URL or several, comma-separated")
          .about(
              "our gateway, to tell about auth-cache invalidations: every node's URL"
                  + " (comma-separated), or one load balancer's in front of them all; none: skip"
                  + " them")
          .details(
              "Name every node, not one: an invalidation goes to one URL, the one that answered"
                  + " last first; one that cannot be reached, answers 5xx or 401, or stays silent"
                  + " for `gateway-failover-after` is followed by the next at once. The node that"
                  + " takes it drops the entries on every node of the cluster, so with every node"
                  + " named, any one of them may be down (a revocation took 0.01-0.22 s with a node"
                  + " down). With one node's URL, a revocation made while that node is down"
                  + " reaches no node until it is back and a background retry"
                  + " (`gateway-retry-delay`: 1, 3, 7, 15, 31 s after) gets through: it lingered"
                  + " ~31 s, the other nodes granting what was revoked. Leave it unset behind"
                  + " Okapi, which has no such endpoint.");

  public static final Setting<Duration> TIMEOUT =
      Setting.duration(
              "gateway-timeout",
              Duration.ofSeconds(5),
              Duration.ofMillis(1),
              Duration.ofSeconds(60))
          .about("wait at most this for one gateway URL's answer to an invalidation")
          .details(
              "Longer than the gateway's `cluster.ack-timeout` (2s), which its answer may wait for"
                  + " a member that is down.");

  public static final Setting<Duration> FAILOVER_AFTER =
      Setting.duration(
              "gateway-failover-after",
              Duration.ofSeconds(1),
              Duration.ofMillis(1),
              Duration.ofSeconds(60))
          .about(
              "ask the next `gateway-url` too when one has not answered an invalidation within"
                  + " this (a hung node); the first answer counts");

  public static final Setting<Duration> RETRY_DELAY =
      Setting.duration(
              "gateway-retry-delay",
              Duration.ofSeconds(1),
              Duration.ofMillis(1),
              Duration.ofDays(1))
          .about("first background retry of an invalidation after this; doubles, at most 30s");

  public static final Setting<Integer> RETRIES =
      Setting.integer("gateway-retries", 20, 0, 1000).about("background retries per invalidation");

  /** The five, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(GATEWAY_URL, TIMEOUT, FAILOVER_AFTER, RETRY_DELAY, RETRIES);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public InvalidationOptions {
    gateways = gateways.stream().map(InvalidationOptions::checkedUrl).toList();
    TIMEOUT.check(timeout);
    FAILOVER_AFTER.check(failoverAfter);
    RETRY_DELAY.check(retryDelay);
    RETRIES.check(retries);
  }

  private static String checkedUrl(String url) {
    GATEWAY_URL.check(url);
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * @return the declared defaults: no gateway, invalidations skipped
   */
  public static InvalidationOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * @param gatewayUrls the gateway's base URL ({@code http(s)://host:port}), or several,
   *     comma-separated
   * @return invalidations sent to that gateway, every other setting at its default
   */
  public static InvalidationOptions to(String gatewayUrls) {
    return defaults().withGateways(urls(GATEWAY_URL.check(gatewayUrls)));
  }

  /**
   * @return these with other gateway URLs
   */
  public InvalidationOptions withGateways(List<String> urls) {
    return new InvalidationOptions(urls, timeout, failoverAfter, retryDelay, retries);
  }

  /**
   * @param settings flags and conf file
   * @return the five settings, defaults for those not given
   * @throws IllegalArgumentException naming the bad setting
   */
  public static InvalidationOptions from(Settings settings) {
    return new InvalidationOptions(
        urls(settings.get(GATEWAY_URL)),
        settings.get(TIMEOUT),
        settings.get(FAILOVER_AFTER),
        settings.get(RETRY_DELAY),
        settings.get(RETRIES));
  }

  /**
   * @return the URLs of a comma-separated list, none for {@code null}
   */
  private static List<String> urls(String list) {
    return list == null
        ? List.of()
        : Arrays.stream(list.split(",")).map(String::trim).filter(u -> !u.isEmpty()).toList();
  }

  private static boolean isUrlList(String list) {
    List<String> urls = urls(list);
    return !urls.isEmpty() && urls.stream().allMatch(InvalidationOptions::isHttpUrl);
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
