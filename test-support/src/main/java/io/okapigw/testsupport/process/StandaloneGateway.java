package io.okapigw.testsupport.process;

import io.okapigw.testsupport.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One gateway in {@code dev} mode (no Hazelcast) in a JVM of its own on 127.0.0.1. */
public final class StandaloneGateway implements AutoCloseable {

  private final JavaProcess process;
  private final String url;

  private StandaloneGateway(JavaProcess process, String url) {
    this.process = process;
    this.url = url;
  }

  /**
   * Starts it on a free port and waits until it answers health (at most 2 minutes).
   *
   * @param jar the gateway's fat jar ({@code okapi-core/target/okapi-core-fat.jar})
   * @param extraArgs more gateway settings, e.g. {@code --instances 2}
   */
  public static StandaloneGateway start(Path jar, List<String> extraArgs) throws IOException {
    int port = FreePorts.belowEphemeralRange();
    List<String> args = new ArrayList<>(List.of("dev", "--port", Integer.toString(port)));
    args.addAll(extraArgs);
    JavaProcess process = JavaProcess.launch(jar, List.of("-Xmx256m"), args);
    String url = "http://127.0.0.1:" + port;
    process.awaitReady(url + "/_/proxy/health", JavaProcess.PATIENCE);
    return new StandaloneGateway(process, url);
  }

  /**
   * As {@link #start(Path, List)}, deploying modules (Okapi's {@code deploy.port-start} and {@code
   * deploy.port-end}) on the ports {@code firstPort} to {@code lastPort}.
   */
  public static StandaloneGateway deploying(Path jar, int firstPort, int lastPort)
      throws IOException {
    return start(
        jar,
        List.of(
            "--deploy.port-start",
            Integer.toString(firstPort),
            "--deploy.port-end",
            Integer.toString(lastPort)));
  }

  /**
   * @return its process (to send it SIGTERM, read its output, await its exit)
   */
  public JavaProcess process() {
    return process;
  }

  /**
   * @return its base URL
   */
  public String url() {
    return url;
  }

  @Override
  public void close() {
    process.close();
  }
}
