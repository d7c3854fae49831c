package io.okapigw.perf.load;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the gateway's count of real auth calls, {@code okapi_auth_calls_total{outcome,tenant}},
 * from Prometheus text: the sum over all outcomes of one tenant (0 when the tenant has made none,
 * e.g. without an auth module).
 */
final class AuthCallMetric {

  static final String NAME = "okapi_auth_calls_total";
  private static final Pattern SAMPLE =
      Pattern.compile("^" + NAME + "\\{([^}]*)\\}\\s+(\\S+)", Pattern.MULTILINE);

  private AuthCallMetric() {}

  /**
   * @throws NumberFormatException if a sample's value is not a number
   */
  static double sum(String prometheusText, String tenant) {
    Pattern label = Pattern.compile("(^|,)\\s*tenant=\"" + Pattern.quote(tenant) + "\"");
    double total = 0;
    Matcher m = SAMPLE.matcher(prometheusText);
    while (m.find()) {
      if (label.matcher(m.group(1)).find()) {
        total += Double.parseDouble(m.group(2));
      }
    }
    return total;
  }
}
