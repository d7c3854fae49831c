package io.okapigw.core.proxy;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Okapi-style request ids: six random digits and the first path segment ({@code 123456/users}). A
 * module-to-module call appends its own id to the caller's: {@code a;b}.
 */
final class RequestIds {

  private static final int MAX_LENGTH = 2048;

  private static final int DIGITS = 6;

  private RequestIds() {}

  static String next(String incoming, String path) {
    boolean chained = incoming != null && incoming.length() <= MAX_LENGTH && !incoming.isBlank();
    int segmentEnd = path.indexOf('/', 1);
    segmentEnd = segmentEnd < 0 ? path.length() : segmentEnd;
    // one builder, sized once: this runs for every proxied request
    StringBuilder id =
        new StringBuilder((chained ? incoming.length() + 1 : 0) + DIGITS + segmentEnd);
    if (chained) {
      id.append(incoming).append(';');
    }
    int digits = ThreadLocalRandom.current().nextInt(1_000_000);
    for (int unit = 100_000; unit > 0; unit /= 10) {
      id.append((char) ('0' + digits / unit % 10));
    }
    return id.append(path, 0, segmentEnd).toString();
  }
}
