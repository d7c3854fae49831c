package io.okapigw.demo;

import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.StartDeadline;
import java.nio.file.Path;

/**
 * What a demo stack runs with: the values of the settings declared here ({@link #SPEC}, with their
 * defaults), which {@code demo --help} and the table in {@code docs/settings.md} show.
 *
 * @param port the gateway's port (0: any free one)
 * @param patrons generated patrons
 * @param items generated items
 * @param auth whether the tenant has the auth module (and so its filter) enabled, and the
 *     supertenant too, so that the admin API needs the super admin's token
 * @param cache whether the gateway caches auth decisions
 * @param dataDir where the authtoken module keeps users and its signing key, and where the barcode
 *     CSV for JMeter is written
 * @param userLookup whether the authtoken module runs with {@code --user-lookup gateway}: every
 *     decision looks the user up in the simulated mod-users and mod-permissions through the
 *     gateway, as FOLIO's mod-authtoken does
 * @param tracing whether the gateway exports OpenTelemetry traces, to a Jaeger started beside it
 *     when its binary is built (else where the {@code OTEL_*} environment says)
 */
public record DemoOptions(
    int port,
    int patrons,
    int items,
    boolean auth,
    boolean cache,
    Path dataDir,
    boolean userLookup,
    boolean tracing) {

  public static final String TENANT = "diku";
  public static final String ADMIN = "diku_admin";
  public static final String ADMIN_PASSWORD = "admin";

  /** The gateway's super admin (tenant supertenant, okapi.all), whose token opens the admin API. */
  public static final String SUPER_ADMIN = "super_admin";

  public static final String SUPER_ADMIN_PASSWORD = "admin";

  public static final Setting<Integer> PORT =
      Setting.integer("port", 9130, 0, 65535).about("the gateway's port; 0 picks a free one");

  public static final Setting<Integer> PATRONS =
      Setting.integer("patrons", 1000, 1, 1_000_000).about("patrons of the generated library");

  public static final Setting<Integer> ITEMS =
      Setting.integer("items", 1000, 1, 1_000_000).about("items of the generated library");

  public static final Setting<Boolean> AUTH =
      Setting.bool("auth", true)
          .about(
              "enable the authtoken module (and so its filter) for the tenant and the supertenant,"
                  + " so that the admin API needs the super admin's token; off: no auth at all");

  public static final Setting<Boolean> CACHE =
      Setting.bool("cache", true).about("the gateway caches auth decisions");

  public static final Setting<String> DATA_DIR =
      Setting.text("data-dir", "data/demo", "DIR")
          .check(s -> !s.isBlank(), "a directory")
          .about(
              "where the authtoken module keeps users and its signing key, and where `barcodes.csv`"
                  + " for the load driver and JMeter is written");

  public static final Setting<UserLookup> USER_LOOKUP =
      UserLookup.SETTING.about(
          "`gateway`: the authtoken module looks each decision's user and permissions up in"
              + " mod-users and mod-permissions through the gateway, as FOLIO's mod-authtoken");

  public static final Setting<Boolean> TRACING =
      Setting.bool("tracing", false)
          .about(
              "the gateway exports traces to a Jaeger started beside it (UI on port 16686; its"
                  + " binary: -Dokapigw.jaeger, OKAPIGW_JAEGER, or where .ci/jaeger.sh builds it; its UI"
                  + " assets: -Dokapigw.jaeger.ui, OKAPIGW_JAEGER_UI, see"
                  + " docs/operations.md \"Tracing and access logs\"), and the demo prints the trace URL of a"
                  + " check-out it runs");

  /** The settings of {@code demo}, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(PORT, PATRONS, ITEMS, AUTH, CACHE, DATA_DIR, USER_LOOKUP, TRACING)
          .and(StartDeadline.SETTINGS);

  /** Options without tracing. */
  public DemoOptions(
      int port,
      int patrons,
      int items,
      boolean auth,
      boolean cache,
      Path dataDir,
      boolean userLookup) {
    this(port, patrons, items, auth, cache, dataDir, userLookup, false);
  }

  /** Options with the authtoken module deciding from its own store. */
  public DemoOptions(int port, int patrons, int items, boolean auth, boolean cache, Path dataDir) {
    this(port, patrons, items, auth, cache, dataDir, false);
  }

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting
   */
  public static DemoOptions from(Settings settings) {
    return new DemoOptions(
        settings.get(PORT),
        settings.get(PATRONS),
        settings.get(ITEMS),
        settings.get(AUTH),
        settings.get(CACHE),
        Path.of(settings.get(DATA_DIR)),
        settings.get(USER_LOOKUP) == UserLookup.GATEWAY,
        settings.get(TRACING));
  }

  /**
   * @return these options with another port, auth and cache mode, and data directory
   */
  public DemoOptions with(int newPort, boolean newAuth, boolean newCache, Path newDataDir) {
    return new DemoOptions(
        newPort, patrons, items, newAuth, newCache, newDataDir, userLookup, tracing);
  }

  /**
   * @return a short name of the auth mode: {@code auth off}, {@code cache off}, {@code cache on}
   */
  public String mode() {
    return !auth ? "auth off" : cache ? "cache on" : "cache off";
  }
}
