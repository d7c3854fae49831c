package io.okapigw.perf.load;

import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.demo.DemoOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of {@code checkout-checkin}: the values of the settings declared here ({@link #SPEC},
 * with their defaults); {@link #from(Settings)} names a bad one, or a conflicting pair.
 *
 * @param gateways the gateway, or the nodes of a cluster: user {@code i} works at gateway {@code i
 *     mod n}, and moves on if its gateway refuses connections; loopback only; empty with {@code
 *     compare}
 * @param tenant the tenant
 * @param users the user counts, run in turn
 * @param duration measured time per run
 * @param warmup same load before measuring
 * @param username the users' login
 * @param password its password
 * @param barcodes the demo's CSV; {@code null} with {@code items} or {@code compare}
 * @param items the demo's generated barcodes for this many items instead of a CSV (with {@code
 *     compare}: items of each demo stack)
 * @param patrons patrons of that generated library
 * @param maxOperations hard cap per run
 * @param probeRounds rounds of the per-operation auth-call probe
 * @param compare start demo stacks with auth off, cache off and cache on in turn and print one
 *     table
 * @param jvmWarmup with {@code compare}: load on a "cache off" stack before the first measured
 *     stack, so the first mode does not run on a cold JVM
 * @param slices with {@code compare} or {@code vs}: the measured duration of each mode (gateway) in
 *     this many slices, interleaved across the modes
 * @param vs another gateway (or a cluster's nodes) with the same modules registered: measured
 *     against {@code gateways} in interleaved slices, ratios to it; empty without the setting;
 *     loopback only
 * @param userLookup with {@code compare}: whether the stacks' authtoken modules run with {@code
 *     --user-lookup gateway}
 * @param baseline with {@code vs}: a third gateway measured in the same interleaved slices (another
 *     build of ours, say), ratios to {@code vs} and of {@code gateways} to it; empty without the
 *     setting; loopback only
 */
public record LoadOptions(
    List<URI> gateways,
    String tenant,
    List<Integer> users,
    Duration duration,
    Duration warmup,
    String username,
    String password,
    Path barcodes,
    int items,
    int patrons,
    long maxOperations,
    int probeRounds,
    boolean compare,
    Duration jvmWarmup,
    int slices,
    List<URI> vs,
    boolean userLookup,
    List<URI> baseline) {

  static final Setting<String> GATEWAY =
      Setting.text("gateway", "http://localhost:9130", "URL[,URL...]")
          .about(
              "the gateway, or a cluster's nodes separated by commas: user i works at gateway i"
                  + " mod n, and moves on if its gateway refuses connections; loopback only");

  static final Setting<String> TENANT =
      Setting.text("tenant", DemoOptions.TENANT, "TENANT")
          .check(s -> !s.isBlank(), "a tenant id")
          .about("the tenant");

  static final Setting<List<Integer>> USERS =
      Setting.integers("users", List.of(8), 1, 1000)
          .about("virtual users; a list (`1,8,32`) runs each count in turn");

  static final Setting<Duration> DURATION =
      Setting.duration(
              "duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("measured time per run (per mode, with `compare` or `vs`)");

  static final Setting<Duration> WARMUP =
      Setting.duration("warmup", Duration.ofSeconds(5), Duration.ZERO, Duration.ofHours(1))
          .about("the same load before measuring");

  static final Setting<String> USERNAME =
      Setting.text("username", DemoOptions.ADMIN, "USER")
          .check(s -> !s.isBlank(), "a user name")
          .about("every virtual user logs in as this user");

  static final Setting<String> PASSWORD =
      Setting.text("password", DemoOptions.ADMIN_PASSWORD, "PASSWORD")
          .check(s -> !s.isEmpty(), "a password")
          .about("its password");

  static final Setting<String> BARCODES =
      Setting.text("barcodes", "data/demo/barcodes.csv", "FILE")
          .check(s -> !s.isBlank(), "a file path")
          .about("the rows to check out and in: the CSV the demo and the `modules` job write");

  static final Setting<Integer> ITEMS =
      Setting.integer("items", 1000, 1, 1_000_000)
          .about(
              "instead of a CSV, the demo's generated barcodes for this many items (with"
                  + " `compare`: items of each demo stack)");

  static final Setting<Integer> PATRONS =
      Setting.integer("patrons", 1000, 1, 1_000_000).about("patrons of that generated library");

  static final Setting<Integer> MAX_OPERATIONS =
      Setting.integer("max-operations", 1_000_000, 2, 100_000_000)
          .about("hard cap per run, over warm-up, run and probe together");

  static final Setting<Integer> PROBE_ROUNDS =
      Setting.integer("probe-rounds", 3, 0, 100)
          .about("rounds of the probe measuring auth calls per check-out and per check-in");

  static final Setting<Boolean> COMPARE =
      Setting.bool("compare", false)
          .about(
              "start demo stacks with auth off, cache off and cache on, measure them side by side"
                  + " and print one table per user count");

  static final Setting<Duration> JVM_WARMUP =
      Setting.duration("jvm-warmup", Duration.ofSeconds(20), Duration.ZERO, Duration.ofHours(1))
          .about(
              "with `compare`: load on a cache-off stack first, so that the first mode does not"
                  + " run on a cold JVM");

  static final Setting<Integer> SLICES =
      Setting.integer("slices", 6, 1, 100)
          .about(
              "with `compare` or `vs`: each mode's measured time in this many slices, interleaved"
                  + " across the modes; each at least 1s");

  static final Setting<String> VS =
      Setting.text("vs", null, "URL[,URL...]")
          .about(
              "another gateway with the same modules registered (ours and an Okapi, say):"
                  + " measured against `gateway` in interleaved slices, ratios to it; loopback"
                  + " only");

  static final Setting<String> BASELINE =
      Setting.text("baseline", null, "URL")
          .about(
              "with `vs`: a third gateway with the same modules registered (an earlier build of"
                  + " ours, say), measured in the same interleaved slices; the summary gives each"
                  + " gateway's ratios to `vs` and `gateway` ÷ `baseline`; loopback only");

  static final Setting<UserLookup> USER_LOOKUP =
      DemoOptions.USER_LOOKUP.about(
          "with `compare`: `gateway` starts the stacks' authtoken modules with `--user-lookup"
              + " gateway` (each filter call looks the user and its permissions up in mod-users"
              + " and mod-permissions through the gateway, as FOLIO's mod-authtoken does)");

  /** The settings of {@code checkout-checkin}, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(
          GATEWAY,
          TENANT,
          USERS,
          DURATION,
          WARMUP,
          USERNAME,
          PASSWORD,
          BARCODES,
          ITEMS,
          PATRONS,
          MAX_OPERATIONS,
          PROBE_ROUNDS,
          COMPARE,
          JVM_WARMUP,
          SLICES,
          VS,
          BASELINE,
          USER_LOOKUP);

  private static final List<Setting<?>> NOT_WITH_COMPARE =
      List.of(GATEWAY, TENANT, BARCODES, USERNAME, PASSWORD, VS, BASELINE);

  /**
   * @param s read by {@link #SPEC}
   * @throws IllegalArgumentException naming the bad setting (out of range, a conflicting pair, or a
   *     gateway that is not a loopback address)
   */
  public static LoadOptions from(Settings s) {
    boolean compare = s.get(COMPARE);
    checkCombination(s, compare);
    Duration duration = s.get(DURATION);
    int slices = slices(s, duration, compare || s.has(VS));
    List<URI> gateways = compare ? List.of() : gateways("--gateway", s.get(GATEWAY));
    List<URI> vs = s.has(VS) ? gateways("--vs", s.get(VS)) : List.of();
    for (URI url : vs) {
      if (gateways.contains(url)) {
        throw new IllegalArgumentException(
            "--vs names " + url + ", which --gateway names too:" + " give the other gateway");
      }
    }
    if (s.has(BASELINE) && !s.has(VS)) {
      throw new IllegalArgumentException("--baseline needs --vs: it is measured beside both");
    }
    List<URI> baseline = s.has(BASELINE) ? gateways("--baseline", s.get(BASELINE)) : List.of();
    Path barcodes = compare || s.has(ITEMS) ? null : Path.of(s.get(BARCODES));
    return new LoadOptions(
        gateways,
        s.get(TENANT),
        s.get(USERS),
        duration,
        s.get(WARMUP),
        s.get(USERNAME),
        s.get(PASSWORD),
        barcodes,
        s.get(ITEMS),
        s.get(PATRONS),
        s.get(MAX_OPERATIONS),
        s.get(PROBE_ROUNDS),
        compare,
        s.get(JVM_WARMUP),
        slices,
        vs,
        s.get(USER_LOOKUP) == UserLookup.GATEWAY,
        baseline);
  }

  /** Without the password. */
  @Override
  public String toString() {
    return "LoadOptions["
        + (compare ? "compare" : gateways)
        + ", users "
        + users
        + ", duration "
        + duration
        + ", warm-up "
        + warmup
        + "]";
  }

  /**
   * @return the plan of one run with {@code n} users spread over {@code gatewayUrls}
   */
  LoadPlan plan(List<URI> gatewayUrls, int n) {
    return new LoadPlan(
        gatewayUrls, tenant, username, password, n, warmup, duration, probeRounds, maxOperations);
  }

  private static List<URI> gateways(String flag, String value) {
    List<URI> urls = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      if (part.isBlank()) {
        throw new IllegalArgumentException(
            flag
                + " has an empty entry: '"
                + value
                + "' (give"
                + " one URL, or several separated by commas)");
      }
      URI url = LoopbackGuard.check(flag, part.strip());
      if (urls.contains(url)) {
        throw new IllegalArgumentException(flag + " names " + url + " twice");
      }
      urls.add(url);
    }
    return List.copyOf(urls);
  }

  private static void checkCombination(Settings s, boolean compare) {
    for (Setting<?> setting : NOT_WITH_COMPARE) {
      if (compare && s.has(setting)) {
        throw new IllegalArgumentException(
            "--"
                + setting.key()
                + " cannot be used with --compare: it "
                + "starts its own demo stacks (set their size with --items and --patrons)");
      }
    }
    for (Setting<?> setting : List.of(JVM_WARMUP, USER_LOOKUP)) {
      if (!compare && s.has(setting)) {
        throw new IllegalArgumentException("--" + setting.key() + " only applies with --compare");
      }
    }
    if (!compare && !s.has(VS) && s.has(SLICES)) {
      throw new IllegalArgumentException("--slices only applies with --compare or --vs");
    }
    if (s.has(BARCODES) && s.has(ITEMS)) {
      throw new IllegalArgumentException("give --barcodes FILE or --items N, not both");
    }
    if (!compare && s.has(PATRONS) && !s.has(ITEMS)) {
      throw new IllegalArgumentException("--patrons only applies with --items or --compare");
    }
  }

  /**
   * @param sliced whether the measured time is sliced (else any {@code slices} will do)
   * @throws IllegalArgumentException if slices would be shorter than 1 s
   */
  static int slices(Settings s, Duration duration, boolean sliced) {
    int slices = s.get(SLICES);
    if (sliced && duration.dividedBy(slices).compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "--slices "
              + slices
              + " makes slices shorter than 1 s"
              + " for --duration "
              + duration.toSeconds()
              + "s");
    }
    return slices;
  }
}
