package io.okapigw.it.differential;

/**
 * What a gateway answered to a step, its own URLs and okapi module id already replaced by
 * placeholders so that the two gateways' answers compare.
 *
 * @param status the status code
 * @param location the Location header, or null
 * @param contentType the Content-Type header, or null
 * @param body the body, empty if none
 */
record Answer(int status, String location, String contentType, String body) {

  /**
   * @return {@code json}, {@code text} or {@code none}: what kind of body the Content-Type says
   */
  String kind() {
    if (contentType == null || body.isEmpty()) {
      return "none";
    }
    return contentType.contains("json") ? "json" : "text";
  }

  /**
   * @param limit at most this many characters of the body
   * @return the answer as the report shows it: status, location, the start of the body
   */
  String brief(int limit) {
    String text = body.replaceAll("\\s+", " ").strip();
    return status
        + (location == null ? "" : " Location: " + location)
        + (text.isEmpty()
            ? ""
            : " " + (text.length() > limit ? text.substring(0, limit) + "..." : text));
  }
}
