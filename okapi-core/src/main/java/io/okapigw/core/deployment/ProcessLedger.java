package io.okapigw.core.deployment;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The module processes a node started, recorded while they run in a file of the node's own under
 * {@code deploy.state-dir}: the gateway's process (pid and start time), and for each launch its
 * instance, its port and its processes, the one started and every descendant {@link Descendants}
 * saw, each by pid and start time. The file is written when a process is started, when it answers
 * and whenever another descendant is seen; it is removed once none runs. The next start of a
 * gateway on the same directory ends what a gateway that is gone left running ({@link Leftovers});
 * the start times make sure that a pid used again by another process is never taken for one of
 * these.
 */
final class ProcessLedger {

  private static final Logger log = LoggerFactory.getLogger(ProcessLedger.class);

  private static final AtomicInteger FILES = new AtomicInteger();

  /** Rewrites files off the threads that notice a change (the event loop among them). */
  private static final ExecutorService WRITER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "module-process-ledger");
            t.setDaemon(true);
            return t;
          });

  private final Path dir;
  private final Path file;
  private final Map<Process, Launch> launches = new ConcurrentHashMap<>();
  private final AtomicBoolean writeDue = new AtomicBoolean();

  /** A launch: what it is for, and the start time of each of its processes seen so far. */
  private record Launch(String srvcId, String instId, int port, Map<Long, String> starts) {}

  /**
   * @param dir the directory of {@code deploy.state-dir}; created when the first process starts
   */
  ProcessLedger(Path dir) {
    this.dir = dir;
    this.file =
        dir.resolve(
            "gateway-" + ProcessHandle.current().pid() + "-" + FILES.incrementAndGet() + ".json");
  }

  /** Records a process just started (blocking: writes the file). */
  void add(Process process, String srvcId, String instId, int port) {
    launches.put(process, new Launch(srvcId, instId, port, new ConcurrentHashMap<>()));
    write();
  }

  /** Records what was seen of a launch by now (blocking: writes the file). */
  void update(Process process) {
    write();
  }

  /** Records the file again soon, off the caller's thread (another descendant was seen). */
  void changed() {
    if (writeDue.compareAndSet(false, true)) {
      WRITER.execute(
          () -> {
            writeDue.set(false);
            write();
          });
    }
  }

  /** Forgets a launch whose processes ended; the file is rewritten (or removed) soon. */
  void remove(Process process) {
    if (launches.remove(process) != null) {
      changed();
    }
  }

  private synchronized void write() {
    try {
      JsonArray all = new JsonArray();
      launches.forEach((process, launch) -> all.add(json(process, launch)));
      if (all.isEmpty()) {
        Files.deleteIfExists(file);
        return;
      }
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      JsonObject gateway =
          new JsonObject()
              .put("pid", ProcessHandle.current().pid())
              .put("start", startTime(ProcessHandle.current().pid()));
      JsonObject state =
          new JsonObject().put("gateway", gateway).put("boot", bootId()).put("launches", all);
      Path written = dir.resolve(file.getFileName() + ".tmp");
      Files.writeString(written, state.encodePrettily());
      try {
        Files.move(
            written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | UnsupportedOperationException e) {
      log.warn(
          "the module processes started are not recorded in {} ({}): a gateway that dies leaves"
              + " what escaped their process groups running",
          file,
          e.toString());
    }
  }

  private static JsonObject json(Process process, Launch launch) {
    List<ProcessHandle> seen = new ArrayList<>();
    if (process.isAlive()) {
      seen.add(process.toHandle());
    }
    seen.addAll(Descendants.seen(process));
    JsonArray processes = new JsonArray();
    for (ProcessHandle handle : seen) {
      String start = launch.starts().computeIfAbsent(handle.pid(), ProcessLedger::startOrEmpty);
      if (!start.isEmpty()) {
        processes.add(new JsonObject().put("pid", handle.pid()).put("start", start));
      }
    }
    return new JsonObject()
        .put("srvcId", launch.srvcId())
        .put("instId", launch.instId())
        .put("port", launch.port())
        .put("processes", processes);
  }

  private static String startOrEmpty(long pid) {
    String start = startTime(pid);
    return start == null ? "" : start;
  }

  /**
   * @return when the process started: {@code /proc/PID/stat}'s start time (clock ticks since the
   *     machine booted) where there is {@code /proc}, else the JDK's start instant; null if it does
   *     not run (or is a zombie)
   */
  static String startTime(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (Files.isDirectory(Path.of("/proc", "self"))) {
      try {
        String text = Files.readString(stat);
        // pid (comm) state ppid ...: comm may hold spaces and parentheses; starttime is field 22
        String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return "Z".equals(fields[0]) || "X".equals(fields[0]) ? null : fields[19];
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .flatMap(h -> h.info().startInstant())
        .map(i -> Long.toString(i.toEpochMilli()))
        .orElse(null);
  }

  /**
   * @return this boot's id ({@code /proc/sys/kernel/random/boot_id}), empty where there is none:
   *     start times count from the boot
   */
  static String bootId() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
    } catch (IOException e) {
      return "";
    }
  }
}
