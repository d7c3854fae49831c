package io.okapigw.it.differential;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One way the two answers to a step differ.
 *
 * @param aspect what differs
 * @param detail where and how ({@code $[0].nodeId: "localhost" | "local"}: Okapi's, then ours)
 */
record Difference(Aspect aspect, String detail) {

  /**
   * Compares two answers. When both are errors (4xx, 5xx) their bodies are texts for people:
   * whatever else differs there is a {@link Aspect#MESSAGE}.
   *
   * @param ignored JSON field names not compared
   * @return every aspect in which ours differs from Okapi's answer, empty if none
   */
  static List<Difference> between(Answer okapi, Answer ours, Set<String> ignored) {
    List<Difference> found = new ArrayList<>();
    if (okapi.status() != ours.status()) {
      found.add(new Difference(Aspect.STATUS, okapi.status() + " | " + ours.status()));
    }
    if (!Objects.equals(okapi.location(), ours.location())) {
      found.add(new Difference(Aspect.LOCATION, okapi.location() + " | " + ours.location()));
    }
    if (okapi.status() >= 400 && ours.status() >= 400) {
      if (!okapi.body().strip().equals(ours.body().strip())) {
        found.add(new Difference(Aspect.MESSAGE, quote(okapi.body()) + " | " + quote(ours.body())));
      }
      return found;
    }
    if (!okapi.kind().equals(ours.kind())) {
      found.add(new Difference(Aspect.TYPE, okapi.contentType() + " | " + ours.contentType()));
    }
    Object okapiJson = json(okapi);
    Object ourJson = json(ours);
    if (okapiJson != null && ourJson != null) {
      String where = JsonDiff.first(okapiJson, ourJson, ignored);
      if (where != null) {
        found.add(new Difference(Aspect.JSON, where));
      }
    } else if (!okapi.body().strip().equals(ours.body().strip())) {
      found.add(new Difference(Aspect.BODY, quote(okapi.body()) + " | " + quote(ours.body())));
    }
    return found;
  }

  private static Object json(Answer answer) {
    if (!answer.kind().equals("json")) {
      return null;
    }
    try {
      return Json.decodeValue(answer.body());
    } catch (DecodeException e) {
      return null;
    }
  }

  static String quote(String text) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return '"' + (flat.length() > 70 ? flat.substring(0, 67) + "..." : flat) + '"';
  }
}
