package io.okapigw.core.deployment;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Every process a module's process started, remembered while they run: a process that leaves the
 * module's process group ({@code setsid sleep 1000 &} in a {@code cmdlineStart}) is found by its
 * parent, the module's process or one seen before, and only as long as that parent runs (then it is
 * the child of init). So the descendants are collected every {@link #PERIOD} (one pass over {@code
 * /proc} for all modules), once a module answers, and at its stop before anything is sent a signal;
 * {@link ProcessGroup} stops what was collected, and the groups those processes lead, with the
 * module's group.
 *
 * <p>The limit: a process that leaves the group and whose parent ends between two collections
 * (within {@link #PERIOD}: {@code setsid daemon &} as the last command of a shell that then exits,
 * or a daemon's double fork) is not seen, and outlives the module. Only a process's own kernel
 * bookkeeping (a cgroup, a child subreaper) could tell it; a Java process has neither.
 */
final class Descendants {

  /** How often the descendants of every running module are collected. */
  static final Duration PERIOD = Duration.ofSeconds(1);

  private static final Path PROC = Path.of("/proc");

  /** Per module process, every descendant seen and still running. */
  private static final Map<Process, Set<ProcessHandle>> SEEN = new ConcurrentHashMap<>();

  /** Per module process, what to tell when another descendant is seen. */
  private static final Map<Process, Runnable> LISTENERS = new ConcurrentHashMap<>();

  private static final ScheduledExecutorService SCAN =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "module-process-scan");
            t.setDaemon(true);
            return t;
          });

  static {
    SCAN.scheduleWithFixedDelay(
        Descendants::collectAll, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
  }

  private Descendants() {}

  /**
   * Starts collecting the descendants of {@code process}.
   *
   * @param seen called (on the collecting thread) when another descendant was seen
   */
  static void track(Process process, Runnable seen) {
    LISTENERS.put(process, seen);
    SEEN.putIfAbsent(process, ConcurrentHashMap.newKeySet());
  }

  /** Stops collecting them (the module's processes are gone). */
  static void forget(Process process) {
    SEEN.remove(process);
    LISTENERS.remove(process);
  }

  /**
   * @return the descendants seen so far that still ran when last collected (no {@code /proc} read)
   */
  static List<ProcessHandle> seen(Process process) {
    Set<ProcessHandle> seen = SEEN.get(process);
    return seen == null ? List.of() : List.copyOf(seen);
  }

  /**
   * Collects the descendants of {@code process} now (blocking: reads {@code /proc}).
   *
   * @return every descendant seen so far that still runs (zombies count as ended)
   */
  static List<ProcessHandle> collect(Process process) {
    Set<ProcessHandle> seen = SEEN.get(process);
    if (seen == null) {
      return process.descendants().filter(Descendants::running).toList();
    }
    collect(process, seen, children());
    return List.copyOf(seen);
  }

  private static void collectAll() {
    try {
      if (!SEEN.isEmpty()) {
        Map<Long, List<Long>> children = children();
        SEEN.forEach((process, seen) -> collect(process, seen, children));
      }
    } catch (RuntimeException e) {
      // the next pass tries again; a scan must not end the schedule
    }
  }

  private static void collect(
      Process process, Set<ProcessHandle> seen, Map<Long, List<Long>> children) {
    seen.removeIf(h -> !running(h));
    Deque<Long> roots = new ArrayDeque<>();
    if (process.isAlive()) { // else its pid may be another's by now
      roots.add(process.pid());
    }
    seen.forEach(h -> roots.add(h.pid()));
    boolean more = false;
    while (!roots.isEmpty()) {
      for (long child : children.getOrDefault(roots.poll(), List.of())) {
        Optional<ProcessHandle> handle = ProcessHandle.of(child);
        if (handle.isPresent() && seen.add(handle.get())) {
          roots.add(child);
          more = true;
        }
      }
    }
    Runnable listener = LISTENERS.get(process);
    if (more && listener != null) {
      listener.run();
    }
  }

  /**
   * @return the running processes by parent ({@code /proc}; the JDK's view where there is none)
   */
  private static Map<Long, List<Long>> children() {
    Map<Long, List<Long>> children = new HashMap<>();
    try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path dir : all) {
        long[] stat = stat(dir);
        if (stat != null) {
          children.computeIfAbsent(stat[0], p -> new ArrayList<>()).add(stat[2]);
        }
      }
    } catch (IOException e) {
      ProcessHandle.allProcesses()
          .forEach(
              p ->
                  p.parent()
                      .ifPresent(
                          parent ->
                              children
                                  .computeIfAbsent(parent.pid(), k -> new ArrayList<>())
                                  .add(p.pid())));
    }
    return children;
  }

  /**
   * @return whether the process runs: alive and not a zombie
   */
  static boolean running(ProcessHandle handle) {
    if (!handle.isAlive()) {
      return false;
    }
    Path dir = PROC.resolve(Long.toString(handle.pid()));
    return !Files.isDirectory(dir) || stat(dir) != null;
  }

  /**
   * @return {@code {ppid, pgrp, pid}} of the process at {@code /proc/PID}; null if it is gone or a
   *     zombie
   */
  static long[] stat(Path dir) {
    try {
      String stat = Files.readString(dir.resolve("stat"));
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      if ("Z".equals(fields[0]) || "X".equals(fields[0])) {
        return null;
      }
      return new long[] {
        Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(stat.split(" ", 2)[0])
      };
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
