package io.okapigw.core.cluster;

import io.okapigw.config.Settings;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * How a node joins the cluster.
 *
 * @param host the address this node binds to and advertises to the others (default 127.0.0.1)
 * @param port Hazelcast member port (default 5701)
 * @param members TCP/IP members to join ({@code host:port,...}); empty = start a new cluster
 * @param hazelcastConfig a Hazelcast XML or YAML file overriding all of the above, or null
 */
public record ClusterOptions(String host, int port, List<String> members, String hazelcastConfig) {

  public static final Set<String> KEYS =
      Set.of("cluster-host", "cluster-port", "members", "hazelcast-config");

  /**
   * @throws IllegalArgumentException naming a bad setting
   */
  public static ClusterOptions from(Settings settings) {
    String members = settings.string("members", "");
    List<String> list =
        members.isBlank()
            ? List.of()
            : Arrays.stream(members.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    list.forEach(ClusterOptions::checkMember);
    return new ClusterOptions(
        settings.string("cluster-host", "127.0.0.1"),
        settings.integer("cluster-port", 5701, 1, 65535),
        list,
        settings.string("hazelcast-config", null));
  }

  private static void checkMember(String member) {
    int colon = member.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("members: '" + member + "' must be host:port");
    }
    try {
      int port = Integer.parseInt(member.substring(colon + 1));
      if (port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("members: bad port in '" + member + "'");
    }
  }
}
