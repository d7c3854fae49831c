package io.okapigw.perf.load;

import io.okapigw.perf.kit.process.ListeningPid;
import io.okapigw.perf.load.GatewayClient.Answer;
import io.okapigw.perf.load.GatewayClient.Counters;
import io.okapigw.perf.load.GatewayClient.NotSent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateways a run spreads its users over, as a load balancer in front of a cluster would: user
 * {@code i} works at gateway {@code i mod n}. A gateway that refuses a connection is taken out for
 * the rest of the run; the request, which never left, goes to a gateway still in, and the user
 * stays there (users of a gateway taken out are spread over the others). A request that fails after
 * it was sent is never resent (it may have taken effect): it fails with {@link Lost}.
 *
 * <p>A gateway's CPU time is what the kernel charged the process listening on its port ({@code
 * /proc/PID/stat}), found once at start, the same way for ours and an Okapi; only for a gateway
 * whose process is not found (a port forwarded into a container, say) is it its own report, {@code
 * process_cpu_time_ns_total} of {@code /_/metrics}, if it has one.
 */
final class Gateways {

  private static final Logger log = LoggerFactory.getLogger(Gateways.class);

  /** A request that failed after it was sent: it may or may not have taken effect. */
  static final class Lost extends RuntimeException {

    private final int gateway;

    Lost(int gateway, URI url, Throwable cause) {
      super("lost in flight at " + url + ": " + cause.getMessage(), cause);
      this.gateway = gateway;
    }

    /**
     * @return the index of the gateway it was sent to
     */
    int gateway() {
      return gateway;
    }
  }

  /** The {@link Counters} of every gateway that answered. */
  record Readings(Map<Integer, Counters> byGateway) {

    /**
     * @return auth calls since {@code before}, on the gateways that answered both times; NaN if one
     *     of them has no {@code /_/metrics}
     */
    double authCallsSince(Readings before) {
      return since(before, Counters::authCalls);
    }

    /**
     * @return CPU nanoseconds the gateway JVMs used since {@code before}, likewise
     */
    double cpuNanosSince(Readings before) {
      return since(before, Counters::cpuNanos);
    }

    private double since(Readings before, ToDoubleFunction<Counters> counter) {
      return byGateway.entrySet().stream()
          .filter(e -> before.byGateway.containsKey(e.getKey()))
          .mapToDouble(
              e ->
                  counter.applyAsDouble(e.getValue())
                      - counter.applyAsDouble(before.byGateway.get(e.getKey())))
          .sum();
    }
  }

  private final Vertx vertx;
  private final GatewayProcesses processes;
  private final List<GatewayClient> clients = new ArrayList<>();
  private final Set<Integer> out = ConcurrentHashMap.newKeySet();
  private final Map<Integer, String> withoutMetrics = new ConcurrentHashMap<>();

  /**
   * @param urls the gateways' base URLs, at least one
   * @param users virtual users (each may end up at any gateway: one connection each)
   * @param processes the process listening on a port of this machine, if any ({@link
   *     ListeningPid#ofJvm})
   */
  Gateways(
      Vertx vertx, List<URI> urls, String tenant, int users, IntFunction<OptionalLong> processes) {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no gateway to load");
    }
    this.vertx = vertx;
    this.processes = new GatewayProcesses(processes);
    urls.forEach(url -> clients.add(new GatewayClient(vertx, url, tenant, users)));
  }

  int size() {
    return clients.size();
  }

  /** POSTs JSON as the user, with its token, at its gateway (or another one, see above). */
  Future<Answer> post(VirtualUser user, String path, JsonObject body) {
    return post(user, path, body, clients.size());
  }

  private Future<Answer> post(VirtualUser user, String path, JsonObject body, int tries) {
    int gateway = live(user);
    if (gateway < 0) {
      return Future.failedFuture("every gateway is down: " + urls(down()));
    }
    return clients
        .get(gateway)
        .post(path, body, user.token())
        .recover(
            e -> {
              if (!(e instanceof NotSent)) {
                return Future.failedFuture(new Lost(gateway, url(gateway), e));
              }
              takeOut(gateway, e);
              return tries > 1 ? post(user, path, body, tries - 1) : Future.failedFuture(e);
            });
  }

  /**
   * @return the user's gateway, after moving the user if its own was taken out; -1 if none
   */
  private int live(VirtualUser user) {
    if (!out.contains(user.gateway())) {
      return user.gateway();
    }
    List<Integer> live = new ArrayList<>();
    for (int g = 0; g < clients.size(); g++) {
      if (!out.contains(g)) {
        live.add(g);
      }
    }
    if (live.isEmpty()) {
      return -1;
    }
    user.moveTo(live.get(user.id() % live.size()));
    return user.gateway();
  }

  private void takeOut(int gateway, Throwable cause) {
    if (out.add(gateway)) {
      log.warn("gateway {} taken out of the run: {}", url(gateway), cause.getMessage());
    }
  }

  /**
   * Asks every gateway still in, once, whether it has {@code /_/metrics}. One that answers anything
   * but 200 (Okapi: 404) is never read: its {@link Counters} are {@link Counters#UNKNOWN} from then
   * on. One that refuses the connection is taken out.
   */
  Future<Void> detectMetrics() {
    List<Future<Void>> asked = new ArrayList<>();
    for (int g = 0; g < clients.size(); g++) {
      int gateway = g;
      if (!out.contains(g)) {
        asked.add(
            takenOutIfRefused(g, clients.get(g).metricsStatus())
                .map(status -> noteMetrics(gateway, status)));
      }
    }
    return Future.all(asked).mapEmpty();
  }

  /**
   * @param status what {@code GET /_/metrics} answered, {@code null} if refused
   */
  private Void noteMetrics(int gateway, Integer status) {
    if (status != null && status != 200) {
      withoutMetrics.put(gateway, url(gateway) + " (GET /_/metrics answered " + status + ")");
      log.info("{} has no /_/metrics (answered {}): its auth calls unknown", url(gateway), status);
    }
    return null;
  }

  /**
   * Finds the process behind each gateway by the port it listens on; from then on its CPU time is
   * read from {@code /proc} ({@link GatewayProcesses}).
   */
  Future<Void> findProcesses() {
    List<URI> urls = clients.stream().map(GatewayClient::gateway).toList();
    return vertx.executeBlocking(
        () -> {
          processes.find(urls);
          return null;
        },
        false);
  }

  /**
   * @return where the gateways' CPU times come from, for the report
   */
  String cpuSource() {
    return processes.source(clients.size());
  }

  /**
   * @return whether every gateway asked by {@link #detectMetrics} has {@code /_/metrics}
   */
  boolean metricsKnown() {
    return withoutMetrics.isEmpty();
  }

  /**
   * @return the gateways without {@code /_/metrics}, each with what it answered
   */
  List<String> withoutMetrics() {
    return new TreeMap<>(withoutMetrics).values().stream().toList();
  }

  /**
   * Reads every gateway still in. One that refuses the connection is taken out and left out of the
   * figures; one without {@code /_/metrics} reads {@link Counters#UNKNOWN}.
   */
  Future<Readings> read() {
    Map<Integer, Future<Counters>> reads = new HashMap<>();
    for (int g = 0; g < clients.size(); g++) {
      if (!out.contains(g)) {
        reads.put(
            g,
            withoutMetrics.containsKey(g)
                ? Future.succeededFuture(Counters.UNKNOWN)
                : takenOutIfRefused(g, clients.get(g).counters()));
      }
    }
    return Future.all(new ArrayList<>(reads.values()))
        .compose(
            v -> {
              Map<Integer, Counters> counts = new TreeMap<>();
              reads.forEach(
                  (g, read) -> {
                    if (read.result() != null) {
                      counts.put(g, read.result());
                    }
                  });
              return processes.any()
                  ? vertx.executeBlocking(() -> new Readings(processes.withCpu(counts)), false)
                  : Future.succeededFuture(new Readings(counts));
            });
  }

  /**
   * @return the call's result; {@code null} if the gateway refused it (then it is taken out)
   */
  private <T> Future<T> takenOutIfRefused(int gateway, Future<T> call) {
    return call.recover(
        e -> {
          if (e instanceof NotSent) {
            takeOut(gateway, e);
            return Future.succeededFuture(null);
          }
          return Future.failedFuture(e);
        });
  }

  /**
   * @return the indexes of the gateways taken out so far
   */
  Set<Integer> down() {
    return new TreeSet<>(out);
  }

  URI url(int gateway) {
    return clients.get(gateway).gateway();
  }

  /**
   * @return the URLs of these gateways
   */
  List<String> urls(Set<Integer> gateways) {
    return gateways.stream().map(g -> url(g).toString()).toList();
  }

  Future<Void> close() {
    return Future.join(clients.stream().map(GatewayClient::close).toList()).mapEmpty();
  }
}
