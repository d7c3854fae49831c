package io.okapigw.perf.kit.haproxy;

import io.okapigw.perf.kit.process.Children;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Starts HAProxy with a {@link HaproxyConfig} in a directory of its own, as a child of a run. */
public final class Haproxy {

  private Haproxy() {}

  /**
   * Writes {@code haproxy.cfg} into {@code dir}, checks it ({@code -c}), starts HAProxy in the
   * foreground ({@code -db}) and waits until {@code readyPath} answers 200 through it.
   *
   * @param binary HAProxy ({@link io.okapigw.perf.kit.process.Binaries#haproxy})
   * @param dir where the configuration is written
   * @param config what it runs
   * @param readyPath a path that answers 200 through it once it balances
   * @return HAProxy's process id
   * @throws IllegalStateException with HAProxy's words if the configuration is refused, or the end
   *     of its log if it does not answer in time
   */
  public static long start(
      Children children,
      Path binary,
      Path dir,
      HaproxyConfig config,
      String readyPath,
      Duration timeout)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path cfg = dir.resolve("haproxy.cfg");
    Files.writeString(cfg, config.text());
    check(binary, cfg);
    Process p = children.start("haproxy", List.of(binary.toString(), "-db", "-f", cfg.toString()));
    children.awaitReady("haproxy", p, "http://127.0.0.1:" + config.port() + readyPath, timeout);
    return p.pid();
  }

  private static void check(Path binary, Path cfg) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(binary.toString(), "-c", "-q", "-f", cfg.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException("HAProxy refused " + cfg + ": " + out.strip());
    }
  }
}
