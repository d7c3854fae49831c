package io.okapigw.core.deployment;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * How a node starts the modules it deploys ({@code deploy.*} settings, with Okapi's keys as their
 * aliases: {@code port_start}, {@code port_end}, {@code dockerUrl}, {@code dockerRegistries},
 * {@code containerHost}, {@code deploy.waitIterations}).
 *
 * @param host the host name in the URLs of deployed instances ({@code http://host:port}), and this
 *     node's id when it is not clustered (Okapi's {@code host}, default {@code localhost})
 * @param portStart the first port given to a deployed module
 * @param portEnd the first port after the range (Okapi's {@code port_end}: {@code port_start + 10}
 *     by default, so ten ports)
 * @param dockerUrl where the Docker Engine API is: {@code unix:///var/run/docker.sock} (default),
 *     {@code tcp://host:port} or {@code http://host:port}
 * @param dockerRegistries Okapi's {@code dockerRegistries}: the registries an image is pulled from,
 *     in order, with their credentials ({@code username}, {@code password}, {@code email}, {@code
 *     serveraddress}, {@code identitytoken}) and image prefix ({@code registry}); null: Docker Hub
 *     without credentials; empty: no pulls
 * @param containerHost where a container's published port is reached from this node (default {@link
 *     #host})
 * @param waitIterations how many times a started module is tried before its deployment fails (the
 *     n-th try after n &times; 200 ms); when set, it wins over a launch descriptor's {@code
 *     waitIterations} (as Okapi's {@code deploy.waitIterations}); null: the descriptor's, else 60
 * @param restart whether a module that ends by itself is started again
 * @param stateDir where the node records the module processes it started ({@code ProcessLedger}),
 *     so that its next start ends those a gateway killed with kill -9 left ({@code Leftovers});
 *     default {@link #defaultStateDir()}
 */
public record DeploymentOptions(
    String host,
    int portStart,
    int portEnd,
    String dockerUrl,
    JsonArray dockerRegistries,
    String containerHost,
    Integer waitIterations,
    boolean restart,
    Path stateDir) {

  public static final String DEFAULT_HOST = "localhost";
  public static final String DEFAULT_DOCKER_URL = "unix:///var/run/docker.sock";

  /** How many tries a started module gets, when neither setting nor descriptor says (Okapi's). */
  public static final int DEFAULT_WAIT_ITERATIONS = 60;

  /** How many ports the range has when {@code port_end} is not set (Okapi's). */
  public static final int DEFAULT_PORTS = 10;

  public static final Setting<String> HOST =
      Setting.text("deploy.host", DEFAULT_HOST, "HOST")
          .about(
              "host name in the URLs of the modules this node deploys (`http://HOST:PORT`), and the"
                  + " node's id when not clustered (Okapi's `host`)");

  public static final Setting<Integer> PORT_START =
      Setting.integer("deploy.port-start", 0, 0, 65535)
          .alias("port_start")
          .shownDefault("port + 1")
          .about("first port given to a module this node deploys");

  public static final Setting<Integer> PORT_END =
      Setting.integer("deploy.port-end", 0, 0, 65535)
          .alias("port_end")
          .shownDefault("port-start + 10")
          .about(
              "first port after the range of deployed modules' ports (as Okapi's `port_end`: the"
                  + " default range has ten ports)");

  public static final Setting<String> DOCKER_URL =
      Setting.text("deploy.docker-url", DEFAULT_DOCKER_URL, "URL")
          .alias("dockerUrl")
          .about(
              "the Docker Engine API: `unix:///PATH` (its socket), `tcp://HOST:PORT` or"
                  + " `http://HOST:PORT`");

  public static final Setting<String> DOCKER_REGISTRIES =
      Setting.json("deploy.docker-registries")
          .alias("dockerRegistries")
          .shownDefault("Docker Hub, no credentials")
          .check(DeploymentOptions::registriesReadable, "a JSON array of objects")
          .about(
              "registries images are pulled from, tried in order: a JSON array of objects with"
                  + " `registry` (the image's prefix) and Docker's credentials (`username`,"
                  + " `password`, `email`, `serveraddress`, `identitytoken`); `[]`: never pull");

  public static final Setting<String> CONTAINER_HOST =
      Setting.text("deploy.container-host", null, "HOST")
          .alias("containerHost")
          .shownDefault("deploy.host")
          .about("where a container's published port is reached from this node");

  public static final Setting<Integer> WAIT_ITERATIONS =
      Setting.integer("deploy.wait-iterations", 0, 0, 10_000)
          .alias("deploy.waitIterations")
          .shownDefault("the descriptor's, else 60")
          .about(
              "how often a started module is tried (the n-th try n × 200 ms after the last) before"
                  + " its deployment fails; wins over a launch descriptor's `waitIterations`");

  public static final Setting<Boolean> RESTART =
      Setting.bool("deploy.restart", false)
          .about(
              "a module this node deployed that ends by itself (its process exits, its container"
                  + " stops) is started again on its port; `false`, as Okapi: it is reported by"
                  + " `/_/discovery/health` and left");

  public static final Setting<String> STATE_DIR =
      Setting.text("deploy.state-dir", null, "DIR")
          .shownDefault("`java.io.tmpdir`/okapigw-USER")
          .about(
              "directory where the node records the module processes it starts (pid and start"
                  + " time, a file per gateway process); at its start a node ends those that a"
                  + " gateway now gone (kill -9) left running, before it starts its modules again");

  /** The {@code deploy.*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          HOST,
          PORT_START,
          PORT_END,
          DOCKER_URL,
          DOCKER_REGISTRIES,
          CONTAINER_HOST,
          WAIT_ITERATIONS,
          RESTART,
          STATE_DIR);

  public DeploymentOptions {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException(HOST.key() + " must be a host name, was '" + host + "'");
    }
    if (portStart < 1 || portEnd < portStart || portEnd > 65536) {
      throw new IllegalArgumentException(
          "the deployed modules' ports must be a range in 1..65535: "
              + PORT_START.key()
              + " "
              + portStart
              + ", "
              + PORT_END.key()
              + " "
              + portEnd);
    }
    if (!dockerUrl.startsWith("unix://")
        && !dockerUrl.startsWith("tcp://")
        && !dockerUrl.startsWith("http://")) {
      throw new IllegalArgumentException(
          DOCKER_URL.key()
              + " must start with unix://, tcp:// or http://, was '"
              + dockerUrl
              + "'");
    }
    dockerRegistries = dockerRegistries == null ? null : dockerRegistries.copy();
    containerHost = containerHost == null ? host : containerHost;
    stateDir = stateDir == null ? defaultStateDir() : stateDir.toAbsolutePath();
  }

  /**
   * @return {@code okapigw-USER} in the JVM's temporary directory ({@code java.io.tmpdir})
   */
  public static Path defaultStateDir() {
    String user = System.getProperty("user.name", "gateway").replaceAll("[^A-Za-z0-9._-]", "_");
    return Path.of(System.getProperty("java.io.tmpdir"), "okapigw-" + user);
  }

  /**
   * @param port the node's port: the default range starts after it
   * @return the defaults of a node listening on {@code port}
   */
  public static DeploymentOptions defaults(int port) {
    int start = Math.min(port + 1, 65535);
    return new DeploymentOptions(
        DEFAULT_HOST,
        start,
        Math.min(start + DEFAULT_PORTS, 65536),
        DEFAULT_DOCKER_URL,
        null,
        null,
        null,
        false,
        null);
  }

  /**
   * Reads these settings.
   *
   * @param port the node's port, for the default range
   * @throws IllegalArgumentException naming a bad setting
   */
  public static DeploymentOptions from(Settings settings, int port) {
    int start = settings.get(PORT_START);
    start = start == 0 ? Math.min(port + 1, 65535) : start;
    int end = settings.get(PORT_END);
    end = end == 0 ? Math.min(start + DEFAULT_PORTS, 65536) : end;
    String registries = settings.get(DOCKER_REGISTRIES);
    int iterations = settings.get(WAIT_ITERATIONS);
    return new DeploymentOptions(
        settings.get(HOST),
        start,
        end,
        settings.get(DOCKER_URL),
        registries == null ? null : new JsonArray(registries),
        settings.get(CONTAINER_HOST),
        settings.has(WAIT_ITERATIONS) ? iterations : null,
        settings.get(RESTART),
        stateDir(settings));
  }

  /**
   * @return this with the range moved after another node port, when it was the default's
   */
  public DeploymentOptions forPort(int oldPort, int newPort) {
    DeploymentOptions old = defaults(oldPort);
    if (old.portStart != portStart || old.portEnd != portEnd) {
      return this;
    }
    DeploymentOptions moved = defaults(newPort);
    return copy(host, moved.portStart, moved.portEnd, waitIterations, restart);
  }

  /**
   * @return this with another port range (the first port, and the first after the range)
   */
  public DeploymentOptions withPorts(int start, int end) {
    return copy(host, start, end, waitIterations, restart);
  }

  /**
   * @return this with another host name for deployed modules' URLs and the node's id
   */
  public DeploymentOptions withHost(String newHost) {
    return copy(newHost, portStart, portEnd, waitIterations, restart);
  }

  /**
   * @return this with {@code deploy.wait-iterations} set (null: the descriptor's, else 60)
   */
  public DeploymentOptions withWaitIterations(Integer iterations) {
    return copy(host, portStart, portEnd, iterations, restart);
  }

  /**
   * @return this with {@code deploy.restart} set
   */
  public DeploymentOptions withRestart(boolean again) {
    return copy(host, portStart, portEnd, waitIterations, again);
  }

  /** This with other components; a container host that was the host follows a new host. */
  private DeploymentOptions copy(
      String newHost, int start, int end, Integer iterations, boolean again) {
    return new DeploymentOptions(
        newHost,
        start,
        end,
        dockerUrl,
        dockerRegistries,
        containerHost.equals(host) ? null : containerHost,
        iterations,
        again,
        stateDir);
  }

  /**
   * @throws IllegalArgumentException naming the setting, for a text that is no path
   */
  private static Path stateDir(Settings settings) {
    String dir = settings.get(STATE_DIR);
    if (dir == null) {
      return null;
    }
    try {
      return Path.of(dir);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          STATE_DIR.key() + " must be a directory, was '" + dir + "'");
    }
  }

  /**
   * @return this with another directory for the records of the module processes started
   */
  public DeploymentOptions withStateDir(Path dir) {
    return new DeploymentOptions(
        host,
        portStart,
        portEnd,
        dockerUrl,
        dockerRegistries,
        containerHost.equals(host) ? null : containerHost,
        waitIterations,
        restart,
        dir);
  }

  /**
   * @return how many tries a module started from {@code descriptor} gets
   */
  int waitIterations(LaunchDescriptor descriptor) {
    if (waitIterations != null) {
      return waitIterations;
    }
    return descriptor.waitIterations() != null
        ? descriptor.waitIterations()
        : DEFAULT_WAIT_ITERATIONS;
  }

  private static boolean registriesReadable(String text) {
    try {
      JsonArray array = new JsonArray(text);
      return array.stream().allMatch(o -> o == null || o instanceof JsonObject);
    } catch (DecodeException | ClassCastException e) {
      return false;
    }
  }
}
