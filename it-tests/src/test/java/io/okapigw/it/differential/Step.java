package io.okapigw.it.differential;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One request of a differential run, sent alike to Okapi and to our gateway.
 *
 * @param line where the script holds it, for the report
 * @param section the script's section heading above it
 * @param method HTTP method
 * @param path path and query ({@code {module}} stands for the echo module's URL)
 * @param headers extra request headers
 * @param body request body, or null
 * @param accepted aspects known to differ, each with why that does not matter
 * @param ignored JSON field names left out of the comparison wherever they occur (generated ids,
 *     dates)
 */
record Step(
    int line,
    String section,
    String method,
    String path,
    List<Map.Entry<String, String>> headers,
    String body,
    Map<Aspect, String> accepted,
    Set<String> ignored) {

  /**
   * @return the request as the report shows it
   */
  String request() {
    String text = method + " " + path + (body == null ? "" : " " + body);
    return text.length() > 110 ? text.substring(0, 107) + "..." : text;
  }
}
