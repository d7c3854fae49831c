package io.okapigw.perf.kit.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Finds the programs the benchmarks run that are not Java: nginx (Debian's {@code /usr/sbin/nginx}
 * or {@code nginx} on the PATH), HAProxy (Debian's {@code /usr/sbin/haproxy} or {@code haproxy} on
 * the PATH) and wrk. A missing one stops the command with a message naming the package that brings
 * it.
 */
public final class Binaries {

  public static final Path DEBIAN_NGINX = Path.of("/usr/sbin/nginx");
  public static final Path DEBIAN_HAPROXY = Path.of("/usr/sbin/haproxy");

  private Binaries() {}

  /**
   * @param path the value of {@code PATH}
   * @return nginx
   * @throws IllegalStateException naming the packages if there is none
   */
  public static Path nginx(String path) {
    return nginx(path, Files::isExecutable);
  }

  static Path nginx(String path, Predicate<Path> executable) {
    if (executable.test(DEBIAN_NGINX)) {
      return DEBIAN_NGINX;
    }
    return onPath("nginx", path, executable)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "nginx is missing (neither "
                        + DEBIAN_NGINX
                        + " nor nginx on the PATH): install it, e.g. apt-get install -y"
                        + " nginx-light (or the package nginx)"));
  }

  /**
   * @param path the value of {@code PATH}
   * @return HAProxy, if there is one
   */
  public static Optional<Path> findHaproxy(String path) {
    return findHaproxy(path, Files::isExecutable);
  }

  static Optional<Path> findHaproxy(String path, Predicate<Path> executable) {
    if (executable.test(DEBIAN_HAPROXY)) {
      return Optional.of(DEBIAN_HAPROXY);
    }
    return onPath("haproxy", path, executable);
  }

  /**
   * @param path the value of {@code PATH}
   * @return HAProxy
   * @throws IllegalStateException naming the package if there is none
   */
  public static Path haproxy(String path) {
    return findHaproxy(path)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "haproxy is missing (neither "
                        + DEBIAN_HAPROXY
                        + " nor haproxy on the PATH): install it, e.g. apt-get install -y haproxy"
                        + " (and stop the service it starts: service haproxy stop)"));
  }

  /**
   * @param path the value of {@code PATH}
   * @return wrk
   * @throws IllegalStateException naming the package if there is none
   */
  public static Path wrk(String path) {
    return wrk(path, Files::isExecutable);
  }

  static Path wrk(String path, Predicate<Path> executable) {
    return onPath("wrk", path, executable)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "wrk is missing (not on the PATH): install it, e.g. apt-get install -y wrk"));
  }

  private static Optional<Path> onPath(String name, String path, Predicate<Path> executable) {
    if (path == null || path.isEmpty()) {
      return Optional.empty();
    }
    return List.of(path.split(":")).stream()
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, name))
        .filter(executable)
        .findFirst();
  }
}
