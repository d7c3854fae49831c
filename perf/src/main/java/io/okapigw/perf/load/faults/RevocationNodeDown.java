package io.okapigw.perf.load.faults;

import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.kit.launch.BenchUser;
import io.okapigw.perf.kit.launch.Logins;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Future;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * {@code revoke-node-down}: a 3-node cluster of our gateway, the authtoken module in a JVM of its
 * own told about every node ({@code gateway-url} lists the three, node 1 first), the users working
 * through nodes 2 and 3. A probe user's permission is revoked {@value #ROUNDS} times with every
 * node up, then {@value #ROUNDS} times after node 1 — the node the module told last — was killed
 * (kill -9): each time, nodes 2 and 3 are asked while the revoke is under way, and when the first
 * request each refused was sent is measured from the revoke's start. Before issue 34, with node 1
 * down the revoke answered 204 and nodes 2 and 3 went on granting until the module's retry reached
 * node 1.
 */
final class RevocationNodeDown {

  static final String ABOUT =
      "`revoke-node-down`: a probe user's permission revoked, with every node of a 3-node cluster"
          + " up and then with node 1 (the one the authtoken module told last) killed: how soon"
          + " nodes 2 and 3 refuse";

  static final int NODES = 3;
  static final int ROUNDS = 5;

  /** Far above the measured time: a node that has not refused by then counts as never. */
  private static final Duration BOUND = Duration.ofSeconds(30);

  private static final String PROBE = "diku_probe";
  private static final String PROBE_PASSWORD = "probe";
  private static final String PERMISSION = "circulation.check-out-by-barcode.post";
  private static final String PATH = "/circulation/check-out-by-barcode";

  private static final HttpClient HTTP = LoopbackHttp.CLIENT;

  /**
   * One revocation.
   *
   * @param answeredMillis when the module answered the revoke
   * @param refusedMillis when the first request each of nodes 2 and 3 refused was sent (its answer
   *     comes later: under load a probe takes hundreds of ms); -1: none within the bound
   * @param grantsAfterAnswer grants on nodes 2 and 3 to requests sent after the answer
   */
  record Round(long answeredMillis, long[] refusedMillis, int grantsAfterAnswer) {

    long slowest() {
      long slowest = 0;
      for (long refused : refusedMillis) {
        if (refused < 0) {
          return -1;
        }
        slowest = Math.max(slowest, refused);
      }
      return slowest;
    }
  }

  private RevocationNodeDown() {}

  static FaultReport run(Stage stage) throws Exception {
    FaultsOptions o = stage.options;
    try (GatewayCluster cluster = GatewayCluster.start(o.gatewayJar(), NODES, o.gatewayArgs());
        AuthtokenJvm authtoken =
            AuthtokenJvm.start(
                stage,
                "authtoken",
                "json:" + stage.dir.resolve("authtoken-store"),
                String.join(",", cluster.urls()),
                List.of(
                    new BootstrapUser(
                        DemoOptions.TENANT, PROBE, PROBE_PASSWORD, List.of(PERMISSION))))) {
      Library library = stage.library(cluster.url(0), authtoken.url());
      List<String> working = cluster.urls().subList(1, NODES);
      LoadDriver driver =
          stage.driver(
              working, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
      String token =
          stage.join(
              () ->
                  Logins.one(
                      stage.vertx,
                      cluster.url(1),
                      new BenchUser(
                          DemoOptions.TENANT, PROBE, PROBE_PASSWORD, List.of(PERMISSION))));
      Probe probe = new Probe(cluster.urls(), authtoken.url(), token);

      Future<PhaseFigures> upPhase = stage.start(() -> driver.phase(o.phase()));
      List<Round> up = probe.rounds(List.of(0, 1, 2));
      PhaseFigures upLoad = Stage.join(upPhase);
      cluster.kill(0);
      Future<PhaseFigures> downPhase = stage.start(() -> driver.phase(o.phase()));
      List<Round> down = probe.rounds(List.of(1, 2));
      PhaseFigures downLoad = Stage.join(downPhase);
      stage.join(driver::finish);
      return report(o, up, down, upLoad, downLoad);
    }
  }

  private static FaultReport report(
      FaultsOptions o,
      List<Round> up,
      List<Round> down,
      PhaseFigures upLoad,
      PhaseFigures downLoad) {
    String load = DemoOptions.TENANT + ", " + o.users() + " users, on nodes 2 and 3";
    FaultReport report =
        new FaultReport(
                "revocation with the node the authtoken module tells killed ("
                    + NODES
                    + "-node cluster, gateway-url lists every node)")
            .row(load, "all up", ROUNDS + " revocations, every node up", upLoad)
            .row(load, "node 1 killed", ROUNDS + " revocations, node 1 killed (kill -9)", downLoad)
            .note("every node up: " + describe(up))
            .note("node 1 killed: " + describe(down));
    long slowestUp = slowest(up);
    long slowestDown = slowest(down);
    int grantsAfter = down.stream().mapToInt(Round::grantsAfterAnswer).sum();
    return report
        .target(
            String.format(
                Locale.ROOT,
                "node 1 killed: nodes 2 and 3 refuse requests sent 1 s after the revoke's start"
                    + " (slowest %d ms; every node up: %d ms)",
                slowestDown,
                slowestUp),
            slowestDown >= 0 && slowestDown <= 1000)
        .target(
            "node 1 killed: no grant once the revoke is answered: " + grantsAfter,
            grantsAfter == 0);
  }

  /**
   * @return the slowest refusal of the rounds in ms, -1 if a node never refused
   */
  private static long slowest(List<Round> rounds) {
    long slowest = 0;
    for (Round r : rounds) {
      if (r.slowest() < 0) {
        return -1;
      }
      slowest = Math.max(slowest, r.slowest());
    }
    return slowest;
  }

  private static String describe(List<Round> rounds) {
    return rounds.stream()
            .map(
                r ->
                    String.format(Locale.ROOT, "%d/%d", r.refusedMillis()[0], r.refusedMillis()[1]))
            .collect(Collectors.joining(", "))
        + " ms from the revoke's start until the first request nodes 2/3 refused was sent; the"
        + " revoke answered after "
        + rounds.stream()
            .map(r -> Long.toString(r.answeredMillis()))
            .collect(Collectors.joining(", "))
        + " ms; "
        + rounds.stream().mapToInt(Round::grantsAfterAnswer).sum()
        + " grants after an answer";
  }

  /** The probe user's revocations and the requests that watch them. Blocking. */
  private record Probe(List<String> nodes, String authtokenUrl, String token) {

    /**
     * Grants the permission again and has it cached on {@code cached} (node indexes), then revokes
     * it and watches nodes 2 and 3; {@value #ROUNDS} times.
     */
    List<Round> rounds(List<Integer> cached) throws IOException, InterruptedException {
      List<Round> rounds = new ArrayList<>();
      for (int i = 0; i < ROUNDS; i++) {
        setPermissions("[\"" + PERMISSION + "\"]");
        for (int node : cached) {
          awaitGranted(node);
        }
        rounds.add(revoke());
      }
      return rounds;
    }

    private Round revoke() throws IOException, InterruptedException {
      long start = System.nanoTime();
      CompletableFuture<Long> answered =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  setPermissions("[]");
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
                return System.nanoTime();
              });
      long[] refused = {-1, -1};
      int grantsAfterAnswer = 0;
      while (!(answered.isDone() && refused[0] >= 0 && refused[1] >= 0)
          && System.nanoTime() - start < BOUND.toNanos()) {
        for (int i = 0; i < 2; i++) {
          boolean afterAnswer = answered.isDone();
          long sent = System.nanoTime();
          int status = status(i + 1);
          if (status == 403 && refused[i] < 0) {
            refused[i] = millis(sent - start);
          } else if (status != 403 && afterAnswer) {
            grantsAfterAnswer++;
          }
        }
      }
      return new Round(millis(answered.join() - start), refused, grantsAfterAnswer);
    }

    private void awaitGranted(int node) throws IOException, InterruptedException {
      long start = System.nanoTime();
      while (status(node) == 403) {
        if (System.nanoTime() - start > BOUND.toNanos()) {
          throw new IllegalStateException("node " + (node + 1) + " did not grant again");
        }
      }
    }

    /**
     * @return the status of the probe's check-out with an unknown barcode: 403 when refused,
     *     another (the module's 4xx for the barcode) when granted
     */
    private int status(int node) throws IOException, InterruptedException {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(nodes.get(node) + PATH))
              .timeout(BOUND)
              .header("X-Okapi-Tenant", DemoOptions.TENANT)
              .header("X-Okapi-Token", token)
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"itemBarcode\":\"no-such-item\",\"userBarcode\":\"no-such-user\"}"))
              .build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private void setPermissions(String json) throws IOException, InterruptedException {
      ProbePermissions.set(authtokenUrl, BOUND, json);
    }

    private static long millis(long nanos) {
      return nanos / 1_000_000;
    }
  }
}
