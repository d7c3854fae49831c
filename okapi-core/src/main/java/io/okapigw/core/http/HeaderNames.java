package io.okapigw.core.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A fixed set of header names, matched ignoring case without allocating: candidates are found by
 * the name's length, then compared byte by byte. Made for the request path, where every header of
 * every request is looked up in such a set.
 */
public final class HeaderNames {

  private final AsciiString[][] byLength;

  private HeaderNames(AsciiString[][] byLength) {
    this.byLength = byLength;
  }

  /**
   * @param names header names (ASCII), any case
   */
  public static HeaderNames of(String... names) {
    int longest = Arrays.stream(names).mapToInt(String::length).max().orElse(0);
    List<List<AsciiString>> lists = new ArrayList<>();
    for (int i = 0; i <= longest; i++) {
      lists.add(new ArrayList<>());
    }
    for (String name : names) {
      lists.get(name.length()).add(AsciiString.of(name));
    }
    AsciiString[][] byLength = new AsciiString[longest + 1][];
    for (int i = 0; i <= longest; i++) {
      byLength[i] = lists.get(i).toArray(new AsciiString[0]);
    }
    return new HeaderNames(byLength);
  }

  /**
   * @return a set with this set's names and {@code more}
   */
  public HeaderNames with(String... more) {
    List<String> all = new ArrayList<>(Arrays.asList(more));
    for (AsciiString[] names : byLength) {
      for (AsciiString name : names) {
        all.add(name.toString());
      }
    }
    return of(all.toArray(new String[0]));
  }

  /**
   * @return whether {@code name} is in the set, ignoring case
   */
  public boolean contains(CharSequence name) {
    int length = name.length();
    if (length >= byLength.length) {
      return false;
    }
    for (AsciiString candidate : byLength[length]) {
      if (candidate.contentEqualsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds every header of {@code from} to {@code to} but those named here and those {@code from}'s
   * {@code Connection} header names (RFC 9110 7.6.1). Headers already in {@code to} stay. One pass
   * over {@code from}: no lookup, no copy of a name or value per header.
   */
  public void copyAllBut(MultiMap from, MultiMap to) {
    String connection = from.get("Connection");
    List<String> listed = connection == null ? List.of() : listed(connection);
    if (from instanceof HttpHeaders netty) {
      Iterator<Map.Entry<CharSequence, CharSequence>> it = netty.iteratorCharSequence();
      while (it.hasNext()) {
        Map.Entry<CharSequence, CharSequence> header = it.next();
        copy(header.getKey(), header.getValue(), listed, to);
      }
    } else {
      from.forEach((name, value) -> copy(name, value, listed, to));
    }
  }

  private void copy(CharSequence name, CharSequence value, List<String> listed, MultiMap to) {
    if (!contains(name) && !isListed(name, listed)) {
      to.add(name, value);
    }
  }

  private static boolean isListed(CharSequence name, List<String> listed) {
    for (String l : listed) {
      if (AsciiString.contentEqualsIgnoreCase(l, name)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> listed(String connection) {
    List<String> names = new ArrayList<>();
    for (String token : connection.split(",")) {
      String name = token.trim();
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }
}
