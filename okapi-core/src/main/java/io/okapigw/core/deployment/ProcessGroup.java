package io.okapigw.core.deployment;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A module's processes: it is started by {@code setsid} as the leader of a process group of its own
 * (where {@code setsid} exists), so that everything it starts, even what outlives its parent
 * ({@code cmdlineStart: "java -jar m.jar &"}), is found in {@code /proc} by the group and stopped
 * with it: SIGTERM, then SIGKILL for what is left after {@link #GRACE}. What left the group ({@code
 * setsid sleep 1000 &}) is stopped with it too, as far as it was seen as a descendant ({@link
 * Descendants}, which says the limit), and so are the groups such a process leads. Without {@code
 * setsid} the process and its descendants are stopped so. Groups not stopped when the JVM exits (a
 * gateway stopped without its drain) are killed then.
 */
final class ProcessGroup {

  private static final Logger log = LoggerFactory.getLogger(ProcessGroup.class);

  /** How long a module's processes get to end after SIGTERM before they are killed. */
  static final Duration GRACE = Duration.ofSeconds(10);

  private static final long POLL_MILLIS = 100;
  private static final Path PROC = Path.of("/proc");
  private static final Optional<Path> SETSID =
      List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid")).stream()
          .filter(Files::isExecutable)
          .findFirst();

  /** Every group started and not yet stopped: killed if the JVM exits first. */
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> LIVE.forEach(p -> members(p).forEach(ProcessHandle::destroyForcibly)),
                "module-processes-exit"));
  }

  private ProcessGroup() {}

  /**
   * Remembers a started group, to be killed if the JVM exits before it is stopped.
   *
   * @param seen called when another descendant of it was seen ({@link Descendants})
   */
  static void started(Process process, Runnable seen) {
    LIVE.add(process);
    Descendants.track(process, seen);
  }

  /** Collects what the group's process started so far (blocking), see {@link Descendants}. */
  static void collect(Process process) {
    Descendants.collect(process);
  }

  /**
   * @return what a command is prefixed with to lead a group of its own (empty without setsid)
   */
  static List<String> leader() {
    return SETSID.map(p -> List.of(p.toString())).orElse(List.of());
  }

  /**
   * @param path the {@code PATH} a name without {@code /} is looked up in
   * @return whether {@code program} names an executable file, as {@code exec} would find it
   */
  static boolean executable(String program, String path) {
    if (program.contains("/")) {
      return Files.isExecutable(Path.of(program));
    }
    for (String dir : (path == null ? "" : path).split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends SIGTERM to the group (or the process and its descendants), and SIGKILL to what is left
   * after {@link #GRACE}; off the event loop.
   *
   * @return done once nothing of it runs
   */
  static Future<Void> terminate(Vertx vertx, Process process) {
    LIVE.remove(process);
    long deadline = System.nanoTime() + GRACE.toNanos();
    return vertx
        .<Void>executeBlocking(
            () -> {
              members(process).forEach(ProcessHandle::destroy);
              return null;
            },
            false)
        .compose(v -> gone(vertx, process, deadline))
        .recover(
            stillThere ->
                vertx.executeBlocking(
                    () -> {
                      members(process).forEach(ProcessHandle::destroyForcibly);
                      return null;
                    },
                    false))
        .onComplete(v -> Descendants.forget(process));
  }

  /**
   * Waits until nothing accepts connections on {@code port} of this host any more, as Okapi waits
   * for a stopped module's port to close (at most {@link #GRACE}; then logged, and done).
   */
  static Future<Void> portClosed(Vertx vertx, int port) {
    long deadline = System.nanoTime() + GRACE.toNanos();
    Promise<Void> closed = Promise.promise();
    pollPort(vertx, port, deadline, closed);
    return closed.future();
  }

  private static void pollPort(Vertx vertx, int port, long deadline, Promise<Void> closed) {
    vertx
        .executeBlocking(() -> accepts(port), false)
        .onComplete(
            open -> {
              if (open.failed() || !open.result()) {
                closed.complete();
              } else if (System.nanoTime() > deadline) {
                log.warn("port {} still accepts connections after its module stopped", port);
                closed.complete();
              } else {
                vertx.setTimer(POLL_MILLIS, t -> pollPort(vertx, port, deadline, closed));
              }
            });
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Succeeds once nothing of the group runs; fails once the deadline passed. */
  private static Future<Void> gone(Vertx vertx, Process process, long deadline) {
    Promise<Void> done = Promise.promise();
    poll(vertx, process, deadline, done);
    return done.future();
  }

  private static void poll(Vertx vertx, Process process, long deadline, Promise<Void> done) {
    vertx
        .executeBlocking(() -> members(process).isEmpty(), false)
        .onComplete(
            empty -> {
              if (empty.succeeded() && empty.result()) {
                done.complete();
              } else if (System.nanoTime() > deadline) {
                done.fail("still running after " + GRACE);
              } else {
                vertx.setTimer(POLL_MILLIS, t -> poll(vertx, process, deadline, done));
              }
            });
  }

  /**
   * @return the running processes of the group (the process and its descendants without setsid),
   *     every descendant seen ({@link Descendants}) and the members of the groups those lead
   */
  static List<ProcessHandle> members(Process process) {
    List<ProcessHandle> seen = Descendants.collect(process);
    Set<Long> leaders = new HashSet<>();
    if (SETSID.isPresent()) {
      leaders.add(process.pid());
    }
    seen.forEach(h -> leaders.add(h.pid()));
    Set<ProcessHandle> members = new LinkedHashSet<>();
    if (process.isAlive()) {
      members.add(process.toHandle());
    }
    members.addAll(seen);
    try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path dir : all) {
        long[] stat = Descendants.stat(dir);
        if (stat != null && leaders.contains(stat[1])) {
          ProcessHandle.of(stat[2]).filter(ProcessHandle::isAlive).ifPresent(members::add);
        }
      }
    } catch (IOException e) {
      process.descendants().filter(ProcessHandle::isAlive).forEach(members::add);
    }
    return List.copyOf(members);
  }
}
