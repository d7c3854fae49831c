package io.okapigw.perf.kit.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The process listening on a TCP port, found as {@code ss -ltnp} finds it: the socket's inode in
 * {@code /proc/net/tcp} (and {@code tcp6}), then the process holding a descriptor of that socket.
 * Sees only processes this user may inspect.
 */
public final class ListeningPid {

  private static final String LISTEN = "0A";

  private ListeningPid() {}

  /**
   * @param port a TCP port of this machine
   * @return the pid of the process listening on it, or empty if none is found
   */
  public static OptionalLong of(int port) {
    Optional<String> inode = inode(port);
    return inode.isEmpty() ? OptionalLong.empty() : holder("socket:[" + inode.get() + "]");
  }

  /**
   * @param port a TCP port of this machine
   * @return the pid of the Java process listening on it (a gateway in a JVM), or empty if none is
   *     found or the one found is another program (a container engine's port forwarder, say)
   */
  public static OptionalLong ofJvm(int port) {
    OptionalLong pid = of(port);
    return pid.isPresent() && ProcStat.isJava(pid.getAsLong()) ? pid : OptionalLong.empty();
  }

  /**
   * @param table the content of {@code /proc/net/tcp} or {@code /proc/net/tcp6}
   * @return the inode of the socket listening on {@code port}, if any
   */
  static Optional<String> listeningInode(String table, int port) {
    String hexPort = String.format(":%04X", port);
    for (String line : table.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length > 9 && f[1].endsWith(hexPort) && LISTEN.equals(f[3])) {
        return Optional.of(f[9]);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> inode(int port) {
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      try {
        Optional<String> inode = listeningInode(Files.readString(Path.of(table)), port);
        if (inode.isPresent()) {
          return inode;
        }
      } catch (IOException e) {
        // no such table (no IPv6): try the other
      }
    }
    return Optional.empty();
  }

  private static OptionalLong holder(String socket) {
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        if (holds(proc, socket)) {
          return OptionalLong.of(Long.parseLong(proc.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      // /proc unreadable: unknown
    }
    return OptionalLong.empty();
  }

  private static boolean holds(Path proc, String socket) {
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
      for (Path fd : fds) {
        if (socket.equals(readLink(fd))) {
          return true;
        }
      }
    } catch (IOException | SecurityException e) {
      // gone, or not ours to look at
    }
    return false;
  }

  private static String readLink(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return "";
    }
  }
}
