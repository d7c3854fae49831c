package io.okapigw.perf.load;

import static java.util.stream.Collectors.joining;

import io.okapigw.perf.kit.process.ListeningPid;
import io.okapigw.perf.kit.process.ProcStat;
import io.okapigw.perf.load.GatewayClient.Counters;
import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes behind the gateways of a run, found once by the port each listens on: their CPU
 * time is what the kernel charged them ({@code /proc/PID/stat}), the same way for ours and an
 * Okapi. A gateway whose process is not found (a port forwarded into a container, say) keeps the
 * CPU time of its own report. Its methods read {@code /proc}: call them off the event loop.
 */
final class GatewayProcesses {

  private static final Logger log = LoggerFactory.getLogger(GatewayProcesses.class);

  private final IntFunction<OptionalLong> finder;
  private final Map<Integer, Long> pids = new ConcurrentHashMap<>();

  /**
   * @param finder the process listening on a port of this machine, if any ({@link
   *     ListeningPid#ofJvm})
   */
  GatewayProcesses(IntFunction<OptionalLong> finder) {
    this.finder = finder;
  }

  /** Looks for the process of each gateway, by index. */
  void find(List<URI> gateways) {
    for (int g = 0; g < gateways.size(); g++) {
      OptionalLong pid = finder.apply(gateways.get(g).getPort());
      if (pid.isPresent()) {
        pids.put(g, pid.getAsLong());
        log.info("{}: CPU time of process {} from /proc", gateways.get(g), pid.getAsLong());
      }
    }
  }

  boolean any() {
    return !pids.isEmpty();
  }

  /**
   * @param counts counters by gateway index, as the gateways reported them
   * @return the same with the CPU time of each gateway's process, where it was found; a process
   *     behind several gateways counts once, for the first
   */
  Map<Integer, Counters> withCpu(Map<Integer, Counters> counts) {
    Set<Long> counted = new HashSet<>();
    Map<Integer, Counters> result = new HashMap<>();
    new TreeMap<>(counts)
        .forEach(
            (g, c) -> {
              Long pid = pids.get(g);
              long cpu = pid == null ? -1 : counted.add(pid) ? ProcStat.cpuNanos(List.of(pid)) : 0;
              result.put(g, pid == null ? c : new Counters(c.authCalls(), cpu));
            });
    return result;
  }

  /**
   * @param gateways how many gateways there are
   * @return where their CPU times come from, for the report
   */
  String source(int gateways) {
    if (pids.isEmpty()) {
      return "process_cpu_time_ns_total of /_/metrics";
    }
    String proc =
        "/proc/PID/stat of pid "
            + new TreeSet<>(pids.values()).stream().map(String::valueOf).collect(joining(", "));
    return pids.size() == gateways
        ? proc
        : proc + "; process_cpu_time_ns_total of /_/metrics for the others";
  }
}
