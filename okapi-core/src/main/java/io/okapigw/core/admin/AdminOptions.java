package io.okapigw.core.admin;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.Sizes;

/**
 * Where the admin API ({@code /_/}) is served.
 *
 * @param port a listener of its own for the admin API (and everything else), e.g. on loopback only;
 *     {@link #NONE} (default) for none; 0 picks a free port
 * @param host the interface that listener binds to (default 127.0.0.1)
 * @param servedOnPublic whether the public listener serves {@code /_/} too (default true, as
 *     Okapi); when false it answers 403 there, except {@code /_/proxy/health} and {@code
 *     /_/invoke/tenant/...}
 * @param pullMaxBytes the largest answer {@code /_/proxy/pull/modules} reads from a remote
 *     registry, counted on the wire and again decoded (gzip, deflate); default {@link
 *     #DEFAULT_PULL_MAX_BYTES}
 */
public record AdminOptions(int port, String host, boolean servedOnPublic, long pullMaxBytes) {

  /** No admin listener of its own. */
  public static final int NONE = -1;

  public static final String DEFAULT_HOST = "127.0.0.1";

  /** 64 MiB: FOLIO's descriptors of a release, in full, many times over. */
  public static final long DEFAULT_PULL_MAX_BYTES = 64 * Sizes.MB;

  public static final Setting<Integer> PORT =
      Setting.integer("admin.port", NONE, 0, 65535)
          .shownDefault("none")
          .about(
              "a listener of its own for the admin API (`/_/`), e.g. on loopback only; 0 picks a"
                  + " free port")
          .details("It serves everything the public listener does.");

  public static final Setting<String> HOST =
      Setting.text("admin.host", DEFAULT_HOST, "HOST").about("interface of that listener");

  public static final Setting<Boolean> PUBLIC =
      Setting.bool("admin.public", true)
          .about("serve `/_/` on the public listener too")
          .details(
              "`false` (needs `admin.port`) answers 403 there, except `/_/proxy/health` and"
                  + " `/_/invoke/tenant/...`.");

  public static final Setting<Long> PULL_MAX_BYTES =
      Setting.size("admin.pull-max-bytes", DEFAULT_PULL_MAX_BYTES, Sizes.KB, Sizes.GB)
          .about(
              "the largest answer `/_/proxy/pull/modules` reads from a remote registry, on the wire"
                  + " and decoded (gzip, deflate); larger: 502 naming this setting, nothing added")
          .details(
              "Each pulled descriptor may be at most as large as an admin request body (1MB, 400"
                  + " naming it beyond). A pull holds the answer, decoded, and its descriptors in"
                  + " memory at once: about three times this at most.");

  /** The {@code admin.*} settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(PORT, HOST, PUBLIC, PULL_MAX_BYTES);

  /** The same, pulls bounded by {@link #DEFAULT_PULL_MAX_BYTES}. */
  public AdminOptions(int port, String host, boolean servedOnPublic) {
    this(port, host, servedOnPublic, DEFAULT_PULL_MAX_BYTES);
  }

  public AdminOptions {
    PULL_MAX_BYTES.check(pullMaxBytes);
    if (port != NONE) {
      PORT.check(port);
    }
    if (port == NONE && !servedOnPublic) {
      throw new IllegalArgumentException(
          "admin.public=false needs admin.port: the admin API must be served somewhere");
    }
  }

  /**
   * @return the defaults: no admin listener, {@code /_/} on the public listener
   */
  public static AdminOptions defaults() {
    return new AdminOptions(NONE, DEFAULT_HOST, true);
  }

  /**
   * Reads these settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static AdminOptions from(Settings settings) {
    return new AdminOptions(
        settings.get(PORT), settings.get(HOST), settings.get(PUBLIC), settings.get(PULL_MAX_BYTES));
  }

  /**
   * @return whether the admin API has a listener of its own
   */
  public boolean hasListener() {
    return port != NONE;
  }

  /**
   * @return this with another port (a free one picked for 0)
   */
  public AdminOptions withPort(int newPort) {
    return new AdminOptions(newPort, host, servedOnPublic, pullMaxBytes);
  }
}
