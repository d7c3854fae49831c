package io.okapigw.perf.kit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The TCP connections a server on this machine has accepted, counted as {@code ss -tn state
 * established sport = :PORT} counts them, from {@code /proc/net/tcp} (and {@code tcp6}): whether a
 * proxy is connected to a module instance, say, without asking either.
 */
public final class Connections {

  private static final String ESTABLISHED = "01";

  private Connections() {}

  /**
   * @return established connections whose local port is {@code port} (accepted by the server
   *     listening there); 0 if the tables cannot be read
   */
  public static int established(int port) {
    int count = 0;
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      try {
        count += established(Files.readString(Path.of(table)), port);
      } catch (IOException e) {
        // no such table (no IPv6)
      }
    }
    return count;
  }

  /**
   * @param table the content of {@code /proc/net/tcp} or {@code /proc/net/tcp6}
   * @return its established connections with local port {@code port}
   */
  static int established(String table, int port) {
    String hexPort = String.format(":%04X", port);
    int count = 0;
    for (String line : table.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length > 3 && f[1].endsWith(hexPort) && ESTABLISHED.equals(f[3])) {
        count++;
      }
    }
    return count;
  }
}
