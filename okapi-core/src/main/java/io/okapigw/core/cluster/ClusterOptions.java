package io.okapigw.core.cluster;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.util.Arrays;
import java.util.List;

/**
 * How a node joins the cluster.
 *
 * @param host the address this node binds to and advertises to the others (default 127.0.0.1)
 * @param port Hazelcast member port (default 5701)
 * @param members TCP/IP members to join ({@code host:port,...}); empty = start a new cluster
 * @param hazelcastConfig a Hazelcast XML or YAML file overriding all of the above, or null
 */
public record ClusterOptions(String host, int port, List<String> members, String hazelcastConfig) {

  public static final Setting<String> HOST =
      Setting.text("cluster-host", "127.0.0.1", "HOST")
          .about("address this node binds Hazelcast and the event bus to and advertises")
          .details("In containers: its container name (`gateway-1`).");

  public static final Setting<Integer> PORT =
      Setting.integer("cluster-port", 5701, 1, 65535).about("Hazelcast member port");

  public static final Setting<String> MEMBERS =
      Setting.text("members", "", "HOST:PORT,...")
          .check(ClusterOptions::validMembers, "host:port,host:port,... (ports 1-65535)")
          .shownDefault("none")
          .about("members to join over TCP/IP (multicast is off); none: start a new cluster")
          .details("List every node, or at least one that runs.");

  public static final Setting<String> HAZELCAST_CONFIG =
      Setting.text("hazelcast-config", null, "FILE")
          .about("a Hazelcast XML or YAML file replacing the three settings above");

  /** The settings of command {@code cluster} beyond a node's. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(HOST, PORT, MEMBERS, HAZELCAST_CONFIG);

  /**
   * @throws IllegalArgumentException naming a bad setting
   */
  public static ClusterOptions from(Settings settings) {
    return new ClusterOptions(
        settings.get(HOST),
        settings.get(PORT),
        split(settings.get(MEMBERS)),
        settings.get(HAZELCAST_CONFIG));
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
