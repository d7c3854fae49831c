package io.okapigw.core.http;

import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code X-Okapi-Request-Id} as this gateway writes it. Each hop's element is Okapi's, six random
 * digits and the first path segment ({@code 123456/users}), followed by the key of the call it was
 * sent with: {@code ~}, a handle of 8 characters and a secret of 24 (base64url: 48 and 144 random
 * bits), so {@code 123456/users~AbCdEfGh<24 more>}. A module passes the id it got on when it calls
 * back through the gateway, which recognises the call back by the key (a client cannot know or
 * guess the secret; the six digits alone were guessed). A module-to-module call appends its own
 * element to the caller's id: {@code a;b}, as Okapi's. Logs and traces show ids {@link #loggable
 * without the secrets}.
 */
public final class RequestIds {

  /** A longer incoming id is not chained: the request starts a chain of its own. */
  public static final int MAX_LENGTH = 2048;

  /** The length of a call key: handle and secret. */
  public static final int KEY_LENGTH = 32;

  /** The length of a call key's handle, the part that is not secret. */
  public static final int HANDLE_LENGTH = 8;

  /** At most this many keys of one id are looked at. */
  public static final int MOST_KEYS = MAX_LENGTH / (KEY_LENGTH + 1);

  private static final char KEY_MARK = '~';
  private static final int DIGITS = 6;

  private RequestIds() {}

  /**
   * @param incoming the request's {@code X-Okapi-Request-Id} as it came, or null
   * @param path the request's path
   * @param key the call's key: {@link #KEY_LENGTH} base64url characters
   * @return the id the request is sent on with: the incoming chain, if any, and this hop's element
   */
  public static String next(String incoming, String path, String key) {
    boolean chained = incoming != null && incoming.length() <= MAX_LENGTH && !incoming.isBlank();
    int segmentEnd = path.indexOf('/', 1);
    segmentEnd = segmentEnd < 0 ? path.length() : segmentEnd;
    // one builder, sized once: this runs for every proxied request
    StringBuilder id =
        new StringBuilder(
            (chained ? incoming.length() + 1 : 0) + DIGITS + segmentEnd + 1 + KEY_LENGTH);
    if (chained) {
      id.append(incoming).append(';');
    }
    int digits = ThreadLocalRandom.current().nextInt(1_000_000);
    for (int unit = 100_000; unit > 0; unit /= 10) {
      id.append((char) ('0' + digits / unit % 10));
    }
    return id.append(path, 0, segmentEnd).append(KEY_MARK).append(key).toString();
  }

  /**
   * @return the call keys that end elements of {@code id}, the last element's first; at most {@link
   *     #MOST_KEYS} (a chain of the longest that is passed on holds fewer)
   */
  public static List<String> keys(String id) {
    List<String> keys = new ArrayList<>(2);
    int end = id == null ? 0 : id.length();
    while (end > 0 && keys.size() < MOST_KEYS) {
      int start = id.lastIndexOf(';', end - 1) + 1;
      if (endsWithKey(id, start, end)) {
        keys.add(id.substring(end - KEY_LENGTH, end));
      }
      end = start - 1;
    }
    return keys;
  }

  /**
   * @return {@code id} with the secret of every call key left out, the handles kept: a log line or
   *     a span names the calls without handing out what recognises their call backs
   */
  public static String loggable(String id) {
    return cutKeys(id, KEY_LENGTH - HANDLE_LENGTH);
  }

  /**
   * @return {@code id} with every call key left out, handle and secret: the id as Okapi would have
   *     written it ({@code 123456/users}), what a client may see
   */
  public static String withoutKeys(String id) {
    return cutKeys(id, KEY_LENGTH + 1);
  }

  /**
   * @return {@code id} with the last {@code cut} characters of each element that ends with a call
   *     key left out
   */
  private static String cutKeys(String id, int cut) {
    if (id == null || id.indexOf(KEY_MARK) < 0) {
      return id;
    }
    StringBuilder shown = new StringBuilder(id.length());
    int start = 0;
    while (start <= id.length()) {
      int end = id.indexOf(';', start);
      end = end < 0 ? id.length() : end;
      if (start > 0) {
        shown.append(';');
      }
      shown.append(id, start, endsWithKey(id, start, end) ? end - cut : end);
      start = end + 1;
    }
    return shown.toString();
  }

  /**
   * Makes a module's answer headers fit for a client: {@code X-Okapi-Request-Id} becomes the id
   * {@link #withoutKeys without its keys}, and any other header whose value holds something shaped
   * as a key ({@code ~} or {@code %7E} and 32 base64url characters) is dropped. A module that
   * echoes the id it got so never hands a client the key its call backs are recognised by.
   *
   * @param headers the answer's headers, changed in place
   */
  public static void hideKeys(MultiMap headers) {
    List<String> keyed = null;
    for (Map.Entry<String, String> header : headers) {
      if (!OkapiHeaders.REQUEST_ID.equalsIgnoreCase(header.getKey())
          && holdsKey(header.getValue())) {
        keyed = keyed == null ? new ArrayList<>(1) : keyed;
        keyed.add(header.getKey());
      }
    }
    if (keyed != null) {
      keyed.forEach(headers::remove);
    }
    List<String> ids = headers.getAll(OkapiHeaders.REQUEST_ID);
    if (!ids.isEmpty() && ids.stream().anyMatch(RequestIds::holdsKey)) {
      headers.set(OkapiHeaders.REQUEST_ID, ids.stream().map(RequestIds::withoutKeys).toList());
    }
  }

  /**
   * @return whether {@code value} holds a key's shape anywhere: a mark ({@code ~}, or {@code %7E}
   *     percent-encoded) followed by {@link #KEY_LENGTH} base64url characters
   */
  static boolean holdsKey(String value) {
    if (value == null) {
      return false;
    }
    int run = 0;
    for (int i = value.length() - 1; i >= 0; i--) {
      char c = value.charAt(i);
      if (isKeyChar(c)) {
        run++;
        continue;
      }
      if (c == KEY_MARK && run >= KEY_LENGTH
          || c == '%' && run >= KEY_LENGTH + 2 && value.regionMatches(true, i + 1, "7E", 0, 2)) {
        return true;
      }
      run = 0;
    }
    return false;
  }

  private static boolean isKeyChar(char c) {
    return c >= 'A' && c <= 'Z'
        || c >= 'a' && c <= 'z'
        || c >= '0' && c <= '9'
        || c == '-'
        || c == '_';
  }

  private static boolean endsWithKey(String id, int start, int end) {
    int mark = end - KEY_LENGTH - 1;
    if (mark < start || id.charAt(mark) != KEY_MARK) {
      return false;
    }
    for (int i = mark + 1; i < end; i++) {
      if (!isKeyChar(id.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
