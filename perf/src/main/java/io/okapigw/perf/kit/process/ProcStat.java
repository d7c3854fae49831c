package io.okapigw.perf.kit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The kernel's accounting of a process, read from {@code /proc}: CPU time (user + system, {@code
 * /proc/PID/stat}) and resident memory ({@code /proc/PID/status}). What the process itself thinks
 * it spent does not count: this is what the OS charged it, the same way for nginx and a JVM.
 */
public final class ProcStat {

  /**
   * Clock ticks per second of {@code utime}/{@code stime} ({@code getconf CLK_TCK}): 100 on Linux.
   */
  public static final long TICKS_PER_SECOND = 100;

  private ProcStat() {}

  /**
   * @param stat the content of {@code /proc/PID/stat}
   * @return utime + stime in clock ticks
   * @throws IllegalArgumentException if the text is not a stat line
   */
  static long cpuTicks(String stat) {
    return ticks(stat, 11) + ticks(stat, 12);
  }

  /**
   * @param stat the content of {@code /proc/PID/stat}
   * @return stime (time spent in the kernel for the process) in clock ticks
   */
  static long systemTicks(String stat) {
    return ticks(stat, 12);
  }

  private static long ticks(String stat, int index) {
    // the command name (field 2) is in parentheses and may itself hold spaces and parentheses
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/PID/stat line: " + abbreviate(stat));
    }
    String[] fields = stat.substring(close + 1).trim().split("\\s+");
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15
    if (fields.length < 13) {
      throw new IllegalArgumentException("not a /proc/PID/stat line: " + abbreviate(stat));
    }
    return Long.parseLong(fields[index]);
  }

  /**
   * @param status the content of {@code /proc/PID/status}
   * @param field {@code VmRSS} or {@code VmHWM} (peak)
   * @return the value in bytes, or -1 if the field is missing
   */
  static long memoryBytes(String status, String field) {
    for (String line : status.split("\n")) {
      if (line.startsWith(field + ":")) {
        String value = line.substring(field.length() + 1).trim();
        return Long.parseLong(value.split("\\s+")[0]) * 1024;
      }
    }
    return -1;
  }

  /**
   * @return the summed CPU time of {@code pids} in nanoseconds; a process gone counts 0
   */
  public static long cpuNanos(Collection<Long> pids) {
    return nanos(pids, ProcStat::cpuTicks);
  }

  /**
   * @return the summed system (kernel) CPU time of {@code pids} in nanoseconds
   */
  public static long systemNanos(Collection<Long> pids) {
    return nanos(pids, ProcStat::systemTicks);
  }

  private static long nanos(Collection<Long> pids, ToLongFunction<String> field) {
    long ticks = 0;
    for (long pid : pids) {
      ticks += read(pid, "stat").map(field::applyAsLong).orElse(0L);
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /**
   * @return the process's resident memory in bytes, or -1 if it is gone
   */
  public static long rssBytes(long pid) {
    return read(pid, "status").map(s -> memoryBytes(s, "VmRSS")).orElse(-1L);
  }

  /**
   * @return whether the process runs Java ({@code /proc/PID/comm} is {@code java}); false if it is
   *     gone
   */
  public static boolean isJava(long pid) {
    return read(pid, "comm").map(name -> name.strip().equals("java")).orElse(false);
  }

  private static Optional<String> read(long pid, String file) {
    try {
      return Optional.of(Files.readString(Path.of("/proc", Long.toString(pid), file)));
    } catch (IOException e) {
      return Optional.empty(); // the process is gone
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }
}
