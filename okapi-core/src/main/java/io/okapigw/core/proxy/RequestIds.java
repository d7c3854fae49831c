package io.okapigw.core.proxy;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Okapi-style request ids: six random digits and the first path segment ({@code 123456/users}). A
 * module-to-module call appends its own id to the caller's: {@code a;b}.
 */
final class RequestIds {

  private static final int MAX_LENGTH = 2048;

  private RequestIds() {}

  static String next(String incoming, String path) {
    String digits = Integer.toString(1_000_000 + ThreadLocalRandom.current().nextInt(1_000_000));
    String own = digits.substring(1) + firstSegment(path);
    if (incoming == null || incoming.isBlank() || incoming.length() > MAX_LENGTH) {
      return own;
    }
    return incoming + ";" + own;
  }

  private static String firstSegment(String path) {
    int end = path.indexOf('/', 1);
    return end < 0 ? path : path.substring(0, end);
  }
}
