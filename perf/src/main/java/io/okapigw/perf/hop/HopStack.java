package io.okapigw.perf.hop;

import io.okapigw.perf.kit.nginx.Nginx;
import io.okapigw.perf.kit.process.Children;
import io.okapigw.perf.kit.process.ListeningPid;
import io.okapigw.perf.kit.process.OwnJvm;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The processes of one comparison, all on 127.0.0.1: the hop module, nginx, our gateway and the
 * authtoken module, each started only when a measured way needs it, and the {@link Target} of each
 * way. Closing it ends them.
 */
final class HopStack implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final String TENANT = "X-Okapi-Tenant: ";

  private final HopOptions options;
  private final Path dir;
  private final Children children;
  private final Map<Via, Target> targets = new EnumMap<>(Via.class);

  private HopStack(HopOptions options, Path dir) {
    this.options = options;
    this.dir = dir;
    this.children = new Children(dir);
  }

  /**
   * Starts what {@code options} measure and registers the module on the gateways.
   *
   * @param nginx the nginx binary, or null when nginx is not measured
   */
  static HopStack start(HopOptions options, Path nginx, Path dir) throws Exception {
    HopStack stack = new HopStack(options, dir);
    try {
      stack.startAll(nginx);
      return stack;
    } catch (Exception | Error e) {
      stack.close();
      throw e;
    }
  }

  Target target(Via via) {
    return targets.get(via);
  }

  /**
   * @return the module's process id
   */
  long modulePid() {
    return modulePid;
  }

  private long modulePid;

  private void startAll(Path nginx) throws Exception {
    for (int port = options.basePort() + 1; port <= options.basePort() + 6; port++) {
      requireFree(port);
    }
    int modulePort = options.basePort() + 1;
    Process module =
        java(
            "module",
            OwnJvm.javaArgs(
                List.of("-Xmx256m"),
                HopModule.class,
                List.of("--port", Integer.toString(modulePort))),
            url(modulePort) + "/hop/0");
    modulePid = module.pid();
    targets.put(
        Via.DIRECT,
        new Target(Via.DIRECT, url(modulePort), tenant(GatewaySetup.NO_AUTH), List.of(), null));
    if (options.vias().contains(Via.NGINX)) {
      startNginx(nginx, modulePort);
    }
    if (options.vias().contains(Via.OURS) || options.vias().contains(Via.OURS_AUTH)) {
      startOurs(modulePort);
    }
    startRelay(Via.VERTX_RELAY, VertxRelay.class, options.basePort() + 5, modulePort);
    startRelay(Via.NETTY_RELAY, NettyRelay.class, options.basePort() + 6, modulePort);
    if (options.vs() != null) {
      setUpVs(modulePort);
    }
  }

  private void startNginx(Path nginx, int modulePort) throws Exception {
    int port = options.basePort() + 2;
    List<Long> pids =
        Nginx.start(
            children,
            nginx,
            dir.resolve("nginx"),
            port,
            List.of(modulePort),
            options.connections(),
            "/hop/0",
            START_TIMEOUT);
    targets.put(
        Via.NGINX, new Target(Via.NGINX, url(port), tenant(GatewaySetup.NO_AUTH), pids, null));
  }

  private void startOurs(int modulePort) throws Exception {
    int port = options.basePort() + 3;
    int authPort = options.basePort() + 4;
    List<String> jvm = new ArrayList<>(List.of("-Xmx" + options.gatewayHeap()));
    jvm.addAll(options.gatewayJvmArgs());
    jvm.addAll(List.of("-jar", options.gatewayJar().toString()));
    List<String> args = new ArrayList<>(List.of("dev", "--port", Integer.toString(port)));
    args.addAll(List.of("--host", "127.0.0.1", "--okapi-url", url(port)));
    args.addAll(options.gatewayArgs());
    jvm.addAll(args);
    Process gateway = java("gateway", jvm, url(port) + "/_/version");
    boolean auth = options.vias().contains(Via.OURS_AUTH);
    Path descriptor = null;
    if (auth) {
      startAuthtoken(authPort);
      descriptor = options.authtokenDescriptor();
    }
    GatewaySetup setup = new GatewaySetup(URI.create(url(port)));
    setup.registerFresh(modulePort, descriptor, authPort);
    URI metrics = URI.create(url(port) + "/_/metrics");
    List<Long> pids = List.of(gateway.pid());
    targets.put(
        Via.OURS, new Target(Via.OURS, url(port), tenant(GatewaySetup.NO_AUTH), pids, metrics));
    if (auth) {
      String token = setup.login();
      targets.put(
          Via.OURS_AUTH,
          new Target(
              Via.OURS_AUTH,
              url(port),
              List.of(TENANT + GatewaySetup.AUTH, "X-Okapi-Token: " + token),
              pids,
              metrics));
    }
  }

  private void startRelay(Via via, Class<?> main, int port, int modulePort) throws Exception {
    if (!options.vias().contains(via)) {
      return;
    }
    Process relay =
        java(
            via.label(),
            OwnJvm.javaArgs(
                List.of("-Xmx" + options.gatewayHeap()),
                main,
                List.of(
                    "--port",
                    Integer.toString(port),
                    "--module-port",
                    Integer.toString(modulePort))),
            url(port) + "/hop/0");
    targets.put(
        via, new Target(via, url(port), tenant(GatewaySetup.NO_AUTH), List.of(relay.pid()), null));
  }

  private void startAuthtoken(int port) throws Exception {
    Path store = Files.createDirectories(dir.resolve("authtoken"));
    java(
        "authtoken",
        List.of(
            "-Xmx256m",
            "-jar",
            options.authtokenJar().toString(),
            "--port",
            Integer.toString(port),
            "--host",
            "127.0.0.1",
            "--store",
            "json:" + store,
            "--signing-key-file",
            store.resolve("signing.key").toString(),
            "--password-hash-iterations",
            "1000",
            "--token-ttl",
            "1h",
            "--bootstrap",
            GatewaySetup.AUTH
                + ":"
                + GatewaySetup.USER
                + ":"
                + GatewaySetup.USER
                + ":"
                + GatewaySetup.PERMISSION),
        url(port) + "/admin/health");
  }

  private void setUpVs(int modulePort) throws Exception {
    URI vs = options.vs();
    new GatewaySetup(vs).registerOver(modulePort);
    OptionalLong pid =
        options.vsPid() > 0 ? OptionalLong.of(options.vsPid()) : ListeningPid.of(vs.getPort());
    targets.put(
        Via.VS,
        new Target(
            Via.VS,
            "http://127.0.0.1:" + vs.getPort(),
            tenant(GatewaySetup.NO_AUTH),
            pid.isPresent() ? List.of(pid.getAsLong()) : List.of(),
            null));
  }

  private Process java(String name, List<String> javaArgs, String readyUrl) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(OwnJvm.java().toString());
    command.addAll(javaArgs);
    Process p = children.start(name, command);
    children.awaitReady(name, p, readyUrl, START_TIMEOUT);
    return p;
  }

  /** A process left over from an earlier run would answer in place of the one started here. */
  private static void requireFree(int port) throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", port));
    } catch (BindException e) {
      throw new IOException(
          "port "
              + port
              + " on 127.0.0.1 is taken (a run still going, or left over?); choose other ports"
              + " with --base-port");
    }
  }

  private static List<String> tenant(String tenant) {
    return List.of(TENANT + tenant);
  }

  private static String url(int port) {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    children.close();
  }
}
