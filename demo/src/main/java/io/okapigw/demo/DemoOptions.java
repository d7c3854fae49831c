package io.okapigw.demo;

import io.okapigw.config.Settings;
import java.nio.file.Path;
import java.util.Set;

/**
 * What a demo stack runs with.
 *
 * @param port gateway port (default 9130; 0 = any free port)
 * @param patrons generated patrons (default 1000)
 * @param items generated items (default 1000)
 * @param auth whether the tenant has the auth module (and so its filter) enabled, and the
 *     supertenant too, so that the admin API needs the super admin's token (default on)
 * @param cache whether the gateway caches auth decisions (default on)
 * @param dataDir where the authtoken module keeps users and its signing key, and where the barcode
 *     CSV for JMeter is written (default ./data/demo)
 * @param userLookup whether the authtoken module runs with {@code --user-lookup gateway}: every
 *     decision looks the user up in the simulated mod-users and mod-permissions through the
 *     gateway, as FOLIO's mod-authtoken does (flag {@code --user-lookup gateway}; default {@code
 *     local})
 */
public record DemoOptions(
    int port,
    int patrons,
    int items,
    boolean auth,
    boolean cache,
    Path dataDir,
    boolean userLookup) {

  public static final String TENANT = "diku";
  public static final String ADMIN = "diku_admin";
  public static final String ADMIN_PASSWORD = "admin";

  /** The gateway's super admin (tenant supertenant, okapi.all), whose token opens the admin API. */
  public static final String SUPER_ADMIN = "super_admin";

  public static final String SUPER_ADMIN_PASSWORD = "admin";

  public static final Set<String> KEYS =
      Set.of("port", "patrons", "items", "auth", "cache", "data-dir", "user-lookup");

  /** Options with the authtoken module deciding from its own store. */
  public DemoOptions(int port, int patrons, int items, boolean auth, boolean cache, Path dataDir) {
    this(port, patrons, items, auth, cache, dataDir, false);
  }

  /**
   * @throws IllegalArgumentException naming a bad setting
   */
  public static DemoOptions from(Settings settings) {
    settings.checkKnown(KEYS);
    return new DemoOptions(
        settings.integer("port", 9130, 0, 65535),
        settings.integer("patrons", 1000, 1, 1_000_000),
        settings.integer("items", 1000, 1, 1_000_000),
        settings.bool("auth", true),
        settings.bool("cache", true),
        Path.of(settings.string("data-dir", "data/demo")),
        userLookup(settings));
  }

  /**
   * @return whether {@code --user-lookup} (default {@code local}) is {@code gateway}
   * @throws IllegalArgumentException if it is neither {@code local} nor {@code gateway}
   */
  public static boolean userLookup(Settings settings) {
    String value = settings.string("user-lookup", "local");
    return switch (value) {
      case "local" -> false;
      case "gateway" -> true;
      default ->
          throw new IllegalArgumentException(
              "--user-lookup must be local or gateway, was '" + value + "'");
    };
  }

  /**
   * @return these options with another port, auth and cache mode, and data directory
   */
  public DemoOptions with(int newPort, boolean newAuth, boolean newCache, Path newDataDir) {
    return new DemoOptions(newPort, patrons, items, newAuth, newCache, newDataDir, userLookup);
  }

  /**
   * @return a short name of the auth mode: {@code auth off}, {@code cache off}, {@code cache on}
   */
  public String mode() {
    return !auth ? "auth off" : cache ? "cache on" : "cache off";
  }
}
