package io.okapigw.perf.kit.launch;

import io.okapigw.core.config.AuthParallel;
import io.okapigw.perf.kit.modules.FakeBodyModule;
import io.okapigw.perf.kit.modules.FixedModule;
import io.okapigw.perf.kit.process.OwnJvm;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** {@link Launcher#processes}: each part in a JVM of its own, killed when this JVM exits. */
final class ProcessLauncher implements Launcher {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final String MODULE_HEAP = "-Xmx256m";

  private final Vertx vertx;
  private final Jars jars;
  private final Path workDir;
  private final String gatewayHeap;
  private final List<JavaProcess> children = new CopyOnWriteArrayList<>();
  private final Thread killer = new Thread(() -> children.forEach(JavaProcess::kill));

  ProcessLauncher(Vertx vertx, Jars jars, Path workDir, String gatewayHeap) {
    this.vertx = vertx;
    this.jars = jars;
    this.workDir = workDir;
    this.gatewayHeap = gatewayHeap;
    Runtime.getRuntime().addShutdownHook(killer);
  }

  @Override
  public Future<String> gateway(AuthParallel mode, Map<String, String> settings) {
    int port = freePort();
    String url = url(port);
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Xmx" + gatewayHeap,
                "-jar",
                jars.gateway().toString(),
                "dev",
                "--port",
                Integer.toString(port),
                "--host",
                "127.0.0.1",
                "--okapi-url",
                url,
                "--auth.parallel",
                mode.name().toLowerCase(Locale.ROOT)));
    settings.forEach((key, value) -> args.addAll(List.of("--" + key, value)));
    return launch("gateway-" + port, args, url + "/_/version");
  }

  @Override
  public Future<String> authtoken(BenchUser user) {
    int port = freePort();
    Path dir = workDir.resolve("authtoken-" + port);
    return launch(
        "authtoken-" + port,
        List.of(
            MODULE_HEAP,
            "-jar",
            jars.authtoken().toString(),
            "--port",
            Integer.toString(port),
            "--host",
            "127.0.0.1",
            "--store",
            "json:" + dir,
            "--signing-key-file",
            dir.resolve("signing.key").toString(),
            "--password-hash-iterations",
            "1000",
            "--token-ttl",
            "1h",
            "--bootstrap",
            user.bootstrapSpec()),
        url(port) + "/admin/health");
  }

  @Override
  public Future<String> fakeModule() {
    int port = freePort();
    return launch(
        "fake-module-" + port,
        module(FakeBodyModule.class, "--port", Integer.toString(port), "--instances", "2"),
        url(port) + FakeBodyModule.path(0));
  }

  @Override
  public Future<String> fixedModule(int size, Duration delay) {
    int port = freePort();
    return launch(
        "fixed-module-" + port,
        module(
            FixedModule.class,
            "--port",
            Integer.toString(port),
            "--size",
            Integer.toString(size),
            "--delay",
            delay.toMillis() + "ms",
            "--instances",
            "2"),
        url(port) + "/");
  }

  @Override
  public Future<Void> close() {
    List<Future<Void>> stopped = children.stream().map(this::stop).toList();
    return Future.join(stopped).<Void>mapEmpty().otherwiseEmpty().onComplete(v -> children.clear());
  }

  /** Starts the JVM and waits for {@code readyUrl} off the event loop. */
  private Future<String> launch(String name, List<String> javaArgs, String readyUrl) {
    Path log = workDir.resolve(name + ".log");
    return vertx.executeBlocking(
        () -> {
          JavaProcess child = JavaProcess.start(name, javaArgs, log);
          children.add(child);
          child.awaitReady(readyUrl, START_TIMEOUT);
          return readyUrl.substring(0, readyUrl.indexOf('/', "http://".length()));
        },
        false);
  }

  /** Stops the process (SIGTERM, then SIGKILL after 10 s) off the event loop. */
  private Future<Void> stop(JavaProcess child) {
    return vertx.executeBlocking(
        () -> {
          child.stop();
          return null;
        },
        false);
  }

  private static List<String> module(Class<?> main, String... args) {
    return OwnJvm.javaArgs(List.of(MODULE_HEAP), main, List.of(args));
  }

  private static String url(int port) {
    return "http://127.0.0.1:" + port;
  }

  /** A child process is told its port on its command line, so the port is chosen before. */
  private static int freePort() {
    return FreePorts.belowEphemeralRange();
  }
}
