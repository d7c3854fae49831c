package io.okapigw.core.cluster;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * How a node joins the cluster: Hazelcast set up from these settings (TCP/IP members), or from a
 * Hazelcast XML (or YAML) configuration as Okapi takes it ({@code
 * -hazelcast-config-file|-cp|-url}).
 *
 * @param host the address this node binds to and advertises to the others (default 127.0.0.1);
 *     null: with a Hazelcast configuration and no {@code cluster-host}, the event bus takes the
 *     Hazelcast member's address, as in Okapi
 * @param port without a Hazelcast configuration the Hazelcast member port (default 5701); with one
 *     (which sets the member port) the event bus port, as Okapi's {@code -cluster-port}; 0 for a
 *     free one
 * @param members TCP/IP members to join ({@code host:port,...}); empty = start a new cluster
 * @param hazelcastConfig where a Hazelcast configuration replacing the settings above is, or null
 * @param quorum how many members a node must see to say ready ({@code cluster-quorum}); 0: more
 *     than half of the most it has seen, a member that left by stopping no longer counted
 */
public record ClusterOptions(
    String host, int port, List<String> members, HazelcastConfig hazelcastConfig, int quorum) {

  /** With the automatic quorum. */
  public ClusterOptions(
      String host, int port, List<String> members, HazelcastConfig hazelcastConfig) {
    this(host, port, members, hazelcastConfig, 0);
  }

  /**
   * A Hazelcast configuration to load.
   *
   * @param source where it is: a file, a class-path resource or a URL
   * @param location its name there
   */
  public record HazelcastConfig(Source source, String location) {
    /** Where a Hazelcast configuration is read from. */
    public enum Source {
      FILE,
      CLASSPATH,
      URL
    }
  }

  public static final Setting<String> HOST =
      Setting.text("cluster-host", "127.0.0.1", "HOST")
          .about("address this node binds Hazelcast and the event bus to and advertises")
          .details(
              "In containers: its container name (`gateway-1`). With a Hazelcast configuration,"
                  + " as Okapi's `-cluster-host`: the event bus's address (default: the Hazelcast"
                  + " member's).");

  public static final Setting<Integer> PORT =
      Setting.integer("cluster-port", 5701, 1, 65535)
          .about("Hazelcast member port")
          .details(
              "With a Hazelcast configuration (which sets the member port), as Okapi's"
                  + " `-cluster-port`: the event bus port (default: a free one).");

  public static final Setting<String> MEMBERS =
      Setting.text("members", "", "HOST:PORT,...")
          .check(ClusterOptions::validMembers, "host:port,host:port,... (ports 1-65535)")
          .shownDefault("none")
          .about("members to join over TCP/IP (multicast is off); none: start a new cluster")
          .details("List every node, or at least one that runs.");

  public static final Setting<String> HAZELCAST_CONFIG =
      Setting.text("hazelcast-config", null, "FILE")
          .alias("hazelcast-config-file")
          .about(
              "a Hazelcast XML or YAML file replacing --members and Hazelcast's own port; then"
                  + " --cluster-port is the event bus's port (as Okapi's), which without this file"
                  + " is a free one chosen at each start");

  public static final Setting<String> HAZELCAST_CONFIG_CP =
      Setting.text("hazelcast-config-cp", null, "RESOURCE")
          .about("a Hazelcast XML resource on the class path instead, as Okapi's option");

  public static final Setting<String> HAZELCAST_CONFIG_URL =
      Setting.text("hazelcast-config-url", null, "URL")
          .about("a Hazelcast XML at a URL instead, as Okapi's option");

  public static final Setting<Integer> QUORUM =
      Setting.integer("cluster-quorum", 0, 0, 1000)
          .shownDefault("0: more than half of the most members seen")
          .about("how many members a node must see to say ready")
          .details(
              "A node that sees fewer (cut off from its peers, or their survivor) answers"
                  + " `/readiness` and `/_/proxy/health` 503 and never serves a tenant whose"
                  + " modules it cannot all see. 0: more than half of the most members it has"
                  + " seen, a member that stopped (SIGTERM) no longer counted; 1: never cut off.");

  /** The settings of command {@code cluster} beyond a node's. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          HOST, PORT, MEMBERS, HAZELCAST_CONFIG, HAZELCAST_CONFIG_CP, HAZELCAST_CONFIG_URL, QUORUM);

  /**
   * @throws IllegalArgumentException naming a bad setting, or two Hazelcast configurations
   */
  public static ClusterOptions from(Settings settings) {
    HazelcastConfig config = hazelcastConfig(settings);
    if (config == null) {
      return new ClusterOptions(
          settings.get(HOST),
          settings.get(PORT),
          split(settings.get(MEMBERS)),
          null,
          settings.get(QUORUM));
    }
    return new ClusterOptions(
        settings.has(HOST) ? settings.get(HOST) : null,
        settings.has(PORT) ? settings.get(PORT) : 0,
        List.of(),
        config,
        settings.get(QUORUM));
  }

  private static HazelcastConfig hazelcastConfig(Settings settings) {
    List<HazelcastConfig> given =
        Stream.of(
                config(settings, HAZELCAST_CONFIG, HazelcastConfig.Source.FILE),
                config(settings, HAZELCAST_CONFIG_CP, HazelcastConfig.Source.CLASSPATH),
                config(settings, HAZELCAST_CONFIG_URL, HazelcastConfig.Source.URL))
            .flatMap(Stream::ofNullable)
            .toList();
    if (given.size() > 1) {
      throw new IllegalArgumentException(
          "hazelcast-config, hazelcast-config-cp and hazelcast-config-url: give one of them");
    }
    return given.isEmpty() ? null : given.get(0);
  }

  private static HazelcastConfig config(
      Settings settings, Setting<String> setting, HazelcastConfig.Source source) {
    String location = settings.get(setting);
    return location == null ? null : new HazelcastConfig(source, location);
  }

  private static List<String> split(String members) {
    return Arrays.stream(members.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  private static boolean validMembers(String members) {
    return split(members).stream().allMatch(ClusterOptions::validMember);
  }

  private static boolean validMember(String member) {
    int colon = member.lastIndexOf(':');
    if (colon <= 0) {
      return false;
    }
    try {
      int port = Integer.parseInt(member.substring(colon + 1));
      return port >= 1 && port <= 65535;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
