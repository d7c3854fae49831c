package io.okapigw.perf.registryscale;

import io.okapigw.perf.kit.process.ListeningPid;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A JVM's heap after a full GC, by jcmd: the same reading for ours and for Okapi. */
final class Heap {

  private static final Pattern USED = Pattern.compile("used (\\d+)K");

  private Heap() {}

  /**
   * @return the used heap in bytes after {@code GC.run} of the JVM listening on {@code port}, or -1
   *     if it cannot be read
   */
  static long afterGc(int port) {
    OptionalLong pid = ListeningPid.ofJvm(port);
    if (pid.isEmpty()) {
      return -1;
    }
    try {
      jcmd(pid.getAsLong(), "GC.run");
      Matcher m = USED.matcher(jcmd(pid.getAsLong(), "GC.heap_info"));
      return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid),
                command)
            .redirectErrorStream(true)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    p.waitFor(60, TimeUnit.SECONDS);
    return new String(out, StandardCharsets.UTF_8);
  }
}
