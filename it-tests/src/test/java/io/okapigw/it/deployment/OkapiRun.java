package io.okapigw.it.deployment;

import io.okapigw.it.ReferenceOkapi;
import io.okapigw.it.deployment.SingleServerSequence.Step;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/** Steps run against an Okapi built from source, in {@code dev} mode. */
final class OkapiRun {

  private OkapiRun() {}

  /**
   * Starts Okapi on a free port with a port range of its own, runs the sequence, stops Okapi (which
   * stops what it deployed).
   *
   * @param log where Okapi's output goes
   */
  static List<Step> sequence(ReferenceOkapi okapi, String registry, Path log) throws IOException {
    return with(okapi, log, 5, url -> SingleServerSequence.run(url, registry));
  }

  /**
   * Starts Okapi on a free port with {@code ports} ports of its own to deploy modules on ({@code
   * port_start}, {@code port_end}), runs {@code work} with its URL, stops Okapi (which stops what
   * it deployed).
   *
   * @param log where Okapi's output goes
   */
  static <T> T with(ReferenceOkapi okapi, Path log, int ports, Function<String, T> work)
      throws IOException {
    int port = FreePorts.belowEphemeralRange();
    int range = FreePorts.belowEphemeralRange();
    String url = "http://127.0.0.1:" + port;
    try (JavaProcess process =
        JavaProcess.start(
            "Okapi",
            okapi.java(),
            List.of(
                "-Dport=" + port,
                "-Dokapiurl=" + url,
                "-Dport_start=" + range,
                "-Dport_end=" + (range + ports),
                "-Dloglevel=WARN",
                "-jar",
                okapi.jar().toString(),
                "dev"),
            Files.createDirectories(log).resolve("okapi.log"))) {
      process.awaitReady(url + "/_/version", Duration.ofMinutes(2));
      try {
        return work.apply(url);
      } finally {
        process.stop();
      }
    }
  }
}
