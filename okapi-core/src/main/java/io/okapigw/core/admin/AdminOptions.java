package io.okapigw.core.admin;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;

/**
 * Where the admin API ({@code /_/}) is served.
 *
 * @param port a listener of its own for the admin API (and everything else), e.g. on loopback only;
 *     {@link #NONE} (default) for none; 0 picks a free port
 * @param host the interface that listener binds to (default 127.0.0.1)
 * @param servedOnPublic whether the public listener serves {@code /_/} too (default true, as
 *     Okapi); when false it answers 403 there, except {@code /_/proxy/health} and {@code
 *     /_/invoke/tenant/...}
 */
public record AdminOptions(int port, String host, boolean servedOnPublic) {

  /** No admin listener of its own. */
  public static final int NONE = -1;

  public static final String DEFAULT_HOST = "127.0.0.1";

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

  /** The {@code admin.*} settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(PORT, HOST, PUBLIC);

  public AdminOptions {
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
    return new AdminOptions(settings.get(PORT), settings.get(HOST), settings.get(PUBLIC));
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
    return new AdminOptions(newPort, host, servedOnPublic);
  }
}
