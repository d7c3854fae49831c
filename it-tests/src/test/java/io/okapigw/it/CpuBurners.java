package io.okapigw.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU-bound processes beside a test, as {@code .ci/busy} runs them beside a build: {@code yes}
 * writing to nothing, one per burner, until closed (a busy laptop or a shared CI runner).
 * Processes, not threads: they compete with every JVM of the test for the cores, as another program
 * does.
 */
public final class CpuBurners implements AutoCloseable {

  private final List<Process> burners;

  private CpuBurners(List<Process> burners) {
    this.burners = burners;
  }

  /**
   * @param count how many ({@code BURNERS} in {@code .ci/busy}; 2 there by default)
   */
  public static CpuBurners start(int count) throws IOException {
    List<Process> burners = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        burners.add(
            new ProcessBuilder("yes")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectErrorStream(true)
                .start());
      }
    } catch (IOException e) {
      burners.forEach(Process::destroyForcibly);
      throw e;
    }
    return new CpuBurners(burners);
  }

  /**
   * @return how many burners {@code -Dokapigw.burners=N} asks for (default 2, as {@code .ci/busy})
   */
  public static int requested() {
    return Integer.getInteger("okapigw.burners", 2);
  }

  /**
   * @return this machine's load averages over 1, 5 and 15 minutes ({@code /proc/loadavg}), or
   *     {@code ?} where it cannot be read
   */
  public static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return String.join(" ", fields[0], fields[1], fields[2]);
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "?";
    }
  }

  /**
   * @return how many are running
   */
  public int count() {
    return (int) burners.stream().filter(Process::isAlive).count();
  }

  @Override
  public void close() {
    burners.forEach(Process::destroyForcibly);
  }
}
