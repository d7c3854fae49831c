package io.okapigw.perf.hop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs wrk once and reads what it measured; a run that overstays its time is killed. */
final class Wrk {

  private static final Duration GRACE = Duration.ofSeconds(30);

  private final Path wrk;

  Wrk(Path wrk) {
    this.wrk = wrk;
  }

  /**
   * @param connections open connections (threads: 2, or 1 for a single connection)
   * @throws IllegalStateException if wrk fails or overstays {@code duration} by half a minute
   */
  WrkResult run(String url, int connections, Duration duration, List<String> headers)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(command(url, connections, duration, headers))
            .redirectErrorStream(true)
            .start();
    byte[] out;
    if (!p.waitFor(duration.plus(GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("wrk did not end within " + duration.plus(GRACE));
    }
    out = p.getInputStream().readAllBytes();
    String text = new String(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IllegalStateException("wrk exited with " + p.exitValue() + ":\n" + text);
    }
    return WrkResult.parse(text);
  }

  List<String> command(String url, int connections, Duration duration, List<String> headers) {
    List<String> command = new ArrayList<>();
    command.add(wrk.toString());
    command.add("-t" + Math.min(2, connections));
    command.add("-c" + connections);
    command.add("-d" + Math.max(1, duration.toSeconds()) + "s");
    command.add("--latency");
    for (String h : headers) {
      command.add("-H");
      command.add(h);
    }
    command.add(url);
    return command;
  }
}
