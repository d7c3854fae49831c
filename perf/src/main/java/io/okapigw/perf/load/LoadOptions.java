package io.okapigw.perf.load;

import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.config.Settings;
import io.okapigw.demo.DemoOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Settings of {@code checkout-checkin}, from {@code --key value} flags.
 *
 * @param gateways {@code --gateway}, one base URL or several separated by commas (the nodes of a
 *     cluster: user {@code i} works at gateway {@code i mod n}, and moves on if its gateway refuses
 *     connections), default {@code http://localhost:9130}; loopback only
 * @param tenant {@code --tenant}, default {@code diku}
 * @param users {@code --users}, default 8; a list ({@code 1,8,32}) runs each count in turn
 * @param duration {@code --duration}, measured time per run, default 60s (1s..24h)
 * @param warmup {@code --warmup}, same load before measuring, default 5s (0..1h)
 * @param username {@code --username}, default {@code diku_admin}
 * @param password {@code --password}, default {@code admin}
 * @param barcodes {@code --barcodes}, the demo's CSV, default {@code data/demo/barcodes.csv};
 *     {@code null} with {@code --items}
 * @param items {@code --items}: use the demo's generated barcodes for N items instead of a CSV
 *     (with {@code --compare}: items of each demo stack); default 1000
 * @param patrons {@code --patrons}, patrons of that generated library, default 1000
 * @param maxOperations {@code --max-operations}, hard cap per run, default 1,000,000
 * @param probeRounds {@code --probe-rounds}, rounds of the per-operation auth-call probe, default 3
 * @param compare {@code --compare}: start demo stacks with auth off, cache off and cache on in turn
 *     and print one table
 * @param jvmWarmup {@code --jvm-warmup}, with {@code --compare}: load on a "cache off" stack before
 *     the first measured stack, so the first mode does not run on a cold JVM; default 20s (0 =
 *     none)
 * @param slices {@code --slices}, with {@code --compare} or {@code --vs}: the measured duration of
 *     each mode (gateway) is split into this many slices, interleaved across the modes; default 6
 *     (1..100, each slice at least 1 s)
 * @param vs {@code --vs}, another gateway (one URL, or a cluster's nodes separated by commas) with
 *     the same modules registered: measured against {@code gateways} in interleaved slices, ratios
 *     to it; empty without the flag; loopback only
 * @param userLookup {@code --user-lookup}, with {@code --compare}: {@code gateway} starts the
 *     stacks' authtoken modules with {@code --user-lookup gateway} (each filter call looks the user
 *     and its permissions up in mod-users and mod-permissions through the gateway, as FOLIO's
 *     mod-authtoken does); default {@code local}
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
    boolean userLookup) {

  public static final Set<String> KEYS =
      Set.of(
          "gateway",
          "tenant",
          "users",
          "duration",
          "warmup",
          "username",
          "password",
          "barcodes",
          "items",
          "patrons",
          "max-operations",
          "probe-rounds",
          "compare",
          "jvm-warmup",
          "slices",
          "vs",
          "user-lookup");
  private static final Set<String> NOT_WITH_COMPARE =
      Set.of("gateway", "tenant", "barcodes", "username", "password", "vs");
  private static final int MAX_USERS = 1000;

  /**
   * @throws IllegalArgumentException naming the bad flag (unknown, out of range, a conflicting
   *     pair, or a gateway that is not a loopback address)
   */
  public static LoadOptions from(Settings s) {
    s.checkKnown(KEYS);
    boolean compare = s.bool("compare", false);
    checkCombination(s, compare);
    Duration duration =
        duration(
            s, "duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24));
    int slices = slices(s, duration, compare || given(s, "vs"));
    List<URI> gateways =
        compare ? List.of() : gateways("--gateway", s.string("gateway", "http://localhost:9130"));
    List<URI> vs = given(s, "vs") ? gateways("--vs", s.string("vs", null)) : List.of();
    for (URI url : vs) {
      if (gateways.contains(url)) {
        throw new IllegalArgumentException(
            "--vs names " + url + ", which --gateway names too:" + " give the other gateway");
      }
    }
    Path barcodes =
        compare || given(s, "items")
            ? null
            : Path.of(s.string("barcodes", "data/demo/barcodes.csv"));
    return new LoadOptions(
        gateways,
        s.string("tenant", "diku"),
        users(s),
        duration,
        duration(s, "warmup", Duration.ofSeconds(5), Duration.ZERO, Duration.ofHours(1)),
        s.string("username", "diku_admin"),
        s.string("password", "admin"),
        barcodes,
        s.integer("items", 1000, 1, 1_000_000),
        s.integer("patrons", 1000, 1, 1_000_000),
        s.integer("max-operations", 1_000_000, 2, 100_000_000),
        s.integer("probe-rounds", 3, 0, 100),
        compare,
        duration(s, "jvm-warmup", Duration.ofSeconds(20), Duration.ZERO, Duration.ofHours(1)),
        slices,
        vs,
        s.get(DemoOptions.USER_LOOKUP) == UserLookup.GATEWAY);
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
    for (String key : NOT_WITH_COMPARE) {
      if (compare && given(s, key)) {
        throw new IllegalArgumentException(
            "--"
                + key
                + " cannot be used with --compare: it "
                + "starts its own demo stacks (set their size with --items and --patrons)");
      }
    }
    for (String key : new String[] {"jvm-warmup", "user-lookup"}) {
      if (!compare && given(s, key)) {
        throw new IllegalArgumentException("--" + key + " only applies with --compare");
      }
    }
    if (!compare && !given(s, "vs") && given(s, "slices")) {
      throw new IllegalArgumentException("--slices only applies with --compare or --vs");
    }
    if (given(s, "barcodes") && given(s, "items")) {
      throw new IllegalArgumentException("give --barcodes FILE or --items N, not both");
    }
    if (!compare && given(s, "patrons") && !given(s, "items")) {
      throw new IllegalArgumentException("--patrons only applies with --items or --compare");
    }
  }

  static int slices(Settings s, Duration duration, boolean sliced) {
    int slices = s.integer("slices", 6, 1, 100);
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

  private static boolean given(Settings s, String key) {
    return s.string(key, null) != null;
  }

  static List<Integer> users(Settings s) {
    String value = s.string("users", "8");
    List<Integer> counts = new ArrayList<>();
    for (String part : value.split(",")) {
      try {
        int n = Integer.parseInt(part.strip());
        if (n < 1 || n > MAX_USERS) {
          throw new NumberFormatException();
        }
        counts.add(n);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--users must be a number or a list like 1,8,32, each "
                + "1.."
                + MAX_USERS
                + ", was '"
                + value
                + "'");
      }
    }
    return List.copyOf(counts);
  }

  static Duration duration(Settings s, String key, Duration def, Duration min, Duration max) {
    Duration d = s.duration(key, def);
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          "--"
              + key
              + " must be between "
              + min.toSeconds()
              + "s and "
              + max.toHours()
              + "h, was "
              + s.string(key, ""));
    }
    return d;
  }
}
