package io.okapigw.core.deployment;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At a node's start, before it starts its modules again: the module processes that gateways now
 * gone recorded in {@code deploy.state-dir} ({@link ProcessLedger}) and that still run are ended,
 * SIGTERM, then SIGKILL for what is left after {@link ProcessGroup#GRACE}; so a gateway killed with
 * kill -9 and started again replaces what it had started rather than doubling it, and no port is
 * still held when its modules start again. A recorded process is taken only if it runs with the
 * start time recorded (a pid used again is another process), and so is every member of a process
 * group that a recorded process leads or led, while a recorded process is still in it. A file whose
 * gateway still runs (its pid with its start time) is left alone; one from before the machine's
 * last boot is removed.
 */
final class Leftovers {

  private static final Logger log = LoggerFactory.getLogger(Leftovers.class);

  private static final long POLL_MILLIS = 100;

  private Leftovers() {}

  /**
   * Ends what gateways that are gone left running (blocking).
   *
   * @return how many processes were ended
   */
  static int end(Path dir) {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    int ended = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "gateway-*.json")) {
      for (Path file : files) {
        ended += endRecorded(file);
      }
    } catch (IOException e) {
      log.warn("{} not read: {}", dir, e.toString());
    }
    return ended;
  }

  private static int endRecorded(Path file) {
    JsonObject state;
    try {
      state = new JsonObject(Files.readString(file));
    } catch (IOException | RuntimeException e) {
      log.warn("{} not readable ({}): removed", file, e.toString());
      delete(file);
      return 0;
    }
    JsonObject gateway = state.getJsonObject("gateway", new JsonObject());
    if (runs(gateway.getLong("pid", -1L), gateway.getString("start"))) {
      return 0; // a gateway that runs: its processes are its own
    }
    int ended = 0;
    if (ProcessLedger.bootId().equals(state.getString("boot", ""))) {
      Map<Long, String> recorded = new LinkedHashMap<>();
      List<String> instances = new ArrayList<>();
      state
          .getJsonArray("launches", new JsonArray())
          .forEach(
              launch -> {
                JsonObject one = (JsonObject) launch;
                instances.add(
                    one.getString("srvcId")
                        + " "
                        + one.getString("instId")
                        + " port "
                        + one.getInteger("port"));
                one.getJsonArray("processes")
                    .forEach(
                        p -> {
                          JsonObject process = (JsonObject) p;
                          recorded.put(process.getLong("pid"), process.getString("start"));
                        });
              });
      ended = end(recorded);
      if (ended > 0) {
        log.warn(
            "ended {} module processes left running by gateway process {}, which is gone: {}",
            ended,
            gateway.getLong("pid"),
            instances);
      }
    }
    delete(file);
    return ended;
  }

  /** SIGTERM, then SIGKILL for what is left after the grace; waits (bounded) for their end. */
  private static int end(Map<Long, String> recorded) {
    Map<Long, String> all = new LinkedHashMap<>(targets(recorded, Map.of()));
    all.keySet().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
    if (!gone(recorded, all)) {
      Map<Long, String> left = targets(recorded, all);
      all.putAll(left);
      left.keySet().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      if (!gone(recorded, all)) {
        log.warn("module processes {} still run after SIGKILL", targets(recorded, all).keySet());
      }
    }
    return all.size();
  }

  /** Waits up to the grace for the targets (and their groups) to end. */
  private static boolean gone(Map<Long, String> recorded, Map<Long, String> targets) {
    long deadline = System.nanoTime() + ProcessGroup.GRACE.toNanos();
    while (!targets(recorded, targets).isEmpty()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /**
   * @param known targets taken before, each with its start time
   * @return what runs of the recorded processes, the known targets and the members of the groups
   *     led by a recorded process that still hold one of them; by pid, with start times
   */
  private static Map<Long, String> targets(Map<Long, String> recorded, Map<Long, String> known) {
    Map<Long, String> verified = new LinkedHashMap<>();
    recorded.forEach((pid, start) -> keepIfRuns(verified, pid, start));
    known.forEach((pid, start) -> keepIfRuns(verified, pid, start));
    Map<Long, List<Long>> groups = groups();
    long self = ProcessHandle.current().pid();
    Long ownGroup = groupOf(self, groups);
    Map<Long, String> targets = new LinkedHashMap<>(verified);
    for (long leader : recorded.keySet()) {
      List<Long> members = groups.getOrDefault(leader, List.of());
      if (!Long.valueOf(leader).equals(ownGroup)
          && members.stream().anyMatch(verified::containsKey)) {
        for (long member : members) {
          String start = ProcessLedger.startTime(member);
          if (start != null) {
            targets.putIfAbsent(member, start);
          }
        }
      }
    }
    targets.remove(self);
    targets.remove(1L);
    return targets;
  }

  private static void keepIfRuns(Map<Long, String> into, long pid, String start) {
    if (runs(pid, start)) {
      into.put(pid, start);
    }
  }

  private static boolean runs(long pid, String start) {
    return pid > 0
        && start != null
        && !start.isEmpty()
        && start.equals(ProcessLedger.startTime(pid));
  }

  /**
   * @return the running processes by process group ({@code /proc}; none where there is none)
   */
  private static Map<Long, List<Long>> groups() {
    Map<Long, List<Long>> groups = new HashMap<>();
    try (DirectoryStream<Path> all = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path dir : all) {
        long[] stat = Descendants.stat(dir);
        if (stat != null) {
          groups.computeIfAbsent(stat[1], g -> new ArrayList<>()).add(stat[2]);
        }
      }
    } catch (IOException e) {
      // no /proc: the recorded processes alone
    }
    return groups;
  }

  private static Long groupOf(long pid, Map<Long, List<Long>> groups) {
    for (Map.Entry<Long, List<Long>> group : groups.entrySet()) {
      if (group.getValue().contains(pid)) {
        return group.getKey();
      }
    }
    return null;
  }

  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.warn("{} not removed: {}", file, e.toString());
    }
  }
}
