package io.okapigw.perf.kit.nginx;

import io.okapigw.perf.kit.process.Children;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starts nginx with a {@link NginxConfig} of its own directory, as a child of a benchmark. */
public final class Nginx {

  private Nginx() {}

  /**
   * Writes {@code nginx.conf} into {@code dir}, starts nginx in the foreground and waits until
   * {@code readyPath} answers 200 through it.
   *
   * @param binary nginx ({@link io.okapigw.perf.kit.process.Binaries#nginx})
   * @param dir nginx's own directory (pid, logs, temporary files, the configuration)
   * @param port the port nginx listens on, on 127.0.0.1
   * @param upstreamPorts the servers behind it, on 127.0.0.1
   * @param connections idle keep-alive connections to them
   * @return the process ids of nginx's master and worker
   * @throws IllegalStateException with the end of its log if it does not answer in time
   */
  public static List<Long> start(
      Children children,
      Path binary,
      Path dir,
      int port,
      List<Integer> upstreamPorts,
      int connections,
      String readyPath,
      Duration timeout)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    NginxConfig config =
        new NginxConfig(
            dir,
            port,
            upstreamPorts,
            connections,
            NginxConfig.hasFastcgiUwsgiScgi(version(binary)));
    Path conf = dir.resolve("nginx.conf");
    Files.writeString(conf, config.text());
    Process p =
        children.start(
            "nginx",
            List.of(
                binary.toString(),
                "-p",
                dir.toString(),
                "-e",
                dir.resolve("error.log").toString(),
                "-c",
                conf.toString()));
    children.awaitReady("nginx", p, "http://127.0.0.1:" + port + readyPath, timeout);
    List<Long> pids = new ArrayList<>(List.of(p.pid()));
    p.descendants().forEach(h -> pids.add(h.pid()));
    return pids;
  }

  private static String version(Path nginx) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(nginx.toString(), "-V").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    return out;
  }
}
