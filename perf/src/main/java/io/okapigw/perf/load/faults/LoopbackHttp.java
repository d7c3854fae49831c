package io.okapigw.perf.load.faults;

import java.net.http.HttpClient;
import java.time.Duration;

/** The blocking HTTP client the scenarios' own checks and probes use (HTTP/1.1, no h2c upgrade). */
final class LoopbackHttp {

  static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private LoopbackHttp() {}
}
