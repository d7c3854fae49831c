package io.okapigw.perf.load.faults;

import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.demo.Library;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The authtoken module's fat jar in a JVM of its own, holding the library's users ({@link
 * Library#users()}) and any more a scenario needs: a process the scenario can freeze (SIGSTOP),
 * kill, or leave without its database. Closing it kills it.
 *
 * @param process the JVM
 * @param url its base URL, {@code http://127.0.0.1:PORT}
 */
record AuthtokenJvm(JavaProcess process, String url) implements AutoCloseable {

  /**
   * Starts it and waits until it answers.
   *
   * @param name its log's name in the stage's directory
   * @param store {@code json:DIR} or a PostgreSQL URI
   * @param gatewayUrls its {@code gateway-url}: one URL or several, comma-separated
   * @param more users beside the library's
   */
  static AuthtokenJvm start(
      Stage stage, String name, String store, String gatewayUrls, List<BootstrapUser> more)
      throws IOException {
    int port = FreePorts.belowEphemeralRange();
    Path dir = stage.dir.resolve(name);
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Xmx256m",
                "-jar",
                stage.options.authtokenJar().toString(),
                "--port",
                Integer.toString(port),
                "--host",
                "127.0.0.1",
                "--store",
                store,
                "--signing-key-file",
                dir.resolve("signing.key").toString(),
                "--password-hash-iterations",
                "1000",
                "--token-ttl",
                "1h",
                "--gateway-url",
                gatewayUrls));
    List<BootstrapUser> users = new ArrayList<>(Library.users());
    users.addAll(more);
    users.forEach(u -> args.addAll(List.of("--bootstrap", spec(u))));
    JavaProcess process = JavaProcess.start(name, args, stage.dir.resolve(name + ".log"));
    String url = "http://127.0.0.1:" + port;
    try {
      process.awaitReady(url + "/admin/health", JavaProcess.PATIENCE);
    } catch (IOException | RuntimeException e) {
      process.close();
      throw e;
    }
    return new AuthtokenJvm(process, url);
  }

  private static String spec(BootstrapUser u) {
    return u.tenant()
        + ":"
        + u.username()
        + ":"
        + u.password()
        + ":"
        + String.join(",", u.permissions());
  }

  @Override
  public void close() {
    process.kill();
  }
}
