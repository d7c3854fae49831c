package io.okapigw.it.hostile;

import io.okapigw.it.hostile.Backend.Recorded;
import io.okapigw.it.hostile.FuzzClient.Answer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * Judges what the gateway did with fuzz cases; anything wrong goes to {@code report}:
 *
 * <ul>
 *   <li>a connection neither answered nor closed in time, or bytes that are not an HTTP/1.x
 *       response where one is due, or a response cut short;
 *   <li>a 5xx: the module is well-behaved, so any 5xx is the gateway's. Allowed are the answers the
 *       RFCs give a client's request: 501 for a transfer coding other than chunked (RFC 9112 §6.1)
 *       and for {@code CONNECT} (RFC 9110 §9.1), 505 for an HTTP major version other than 1 (RFC
 *       9110 §15.6.6);
 *   <li>the module receiving a path not in normal form ({@link NormalForm}), a request hidden in a
 *       smuggling shape, or a request for {@code /secure/*} (alice's permission) whose bytes do not
 *       hold alice's token: decided as another client's;
 *   <li>the gateway logging a stack trace or at ERROR.
 * </ul>
 */
final class FuzzOracle {

  private static final Pattern STACK_TRACE =
      Pattern.compile("^\\s+at |^\\s*Caused by|^[\\w$.]+\\.[A-Z]\\w*(Exception|Error)\\b| ERROR ");
  private static final Pattern LOG_LINE = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ");

  private final Backend backend;
  private final String token;
  private final Consumer<String> report;

  /**
   * @param token alice's token: the only credential that opens {@code /secure/*}
   */
  FuzzOracle(Backend backend, String token, Consumer<String> report) {
    this.backend = backend;
    this.token = token;
    this.report = report;
  }

  /** Judges the answers to one case. */
  void judge(FuzzCase c, Answer answer) {
    if (answer.failure() != null) {
      report.accept(answer.failure() + " (after " + answer.millis() + " ms), " + c.describe());
    }
    for (int i = 0; i < answer.responses().size(); i++) {
      RawResponse response = answer.responses().get(i);
      FuzzRequest request = i < c.requests().size() ? c.requests().get(i) : null;
      if (!response.version().equals("HTTP/1.1") && !response.version().equals("HTTP/1.0")) {
        report.accept(
            "answered in "
                + Escape.text(response.version())
                + ": "
                + response
                + ", "
                + c.describe());
      } else if (response.status() >= 500 && !allowed(response, request)) {
        report.accept("answered " + response + ", " + c.describe());
      }
    }
  }

  /**
   * @return whether a 5xx is what the RFCs have a server answer the request (a response to HEAD has
   *     no body to say why: its request says)
   */
  private static boolean allowed(RawResponse response, FuzzRequest request) {
    String text = response.text();
    boolean head = request != null && request.isHead() && text.isEmpty();
    return switch (response.status()) {
      case 501 ->
          text.contains("only chunked is")
              || text.contains("CONNECT is not supported")
              || head && request.has("Transfer-Encoding");
      case 505 ->
          (head || text.contains("is not supported; HTTP/1.1 is"))
              && request != null
              && request.version != null
              && !request.version.matches("HTTP/1\\.\\d");
      default -> false;
    };
  }

  /**
   * Judges what the module received: only paths in normal form, never a request hidden in a
   * smuggling shape.
   *
   * @param cases the case of a request number ({@code "index.j"})
   */
  void judgeModuleSide(IntFunction<FuzzCase> cases) {
    for (Recorded r : backend.fuzzed()) {
      String problem =
          r.path().equals(FuzzCorpus.SMUGGLED_PATH)
              ? "a request hidden in a smuggling shape"
              : NormalForm.problem(r.path());
      int index = Integer.parseInt(r.fuzz().split("[.]", 2)[0]);
      if (problem == null) {
        problem = NormalForm.targetProblem(r.uri());
      }
      if (problem == null && r.path().startsWith("/secure/") && !carriesToken(cases, index, r)) {
        problem = "a request without alice's token decided as hers";
      }
      if (problem != null) {
        report.accept(
            "the module received "
                + r.method()
                + " "
                + Escape.text(r.uri())
                + ": "
                + problem
                + ", "
                + cases.apply(index).describe());
      }
    }
  }

  private boolean carriesToken(IntFunction<FuzzCase> cases, int index, Recorded r) {
    FuzzRequest request = cases.apply(index).request(r.fuzz());
    return request != null
        && new String(request.bytes(), StandardCharsets.ISO_8859_1).contains(token);
  }

  /**
   * Judges the gateway's log: no stack trace, no ERROR line.
   *
   * @return the log's lines other than the failure log's, by kind (logger and start), counted
   */
  Map<String, Integer> judgeLog(String log) {
    Map<String, Integer> others = new TreeMap<>();
    List<String> lines = log.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.contains(" Failures - ") && !line.contains(" ERROR ")) {
        continue;
      }
      if (LOG_LINE.matcher(line).find()) {
        String kind = line.substring(13);
        others.merge(kind.substring(0, Math.min(kind.length(), 110)), 1, Integer::sum);
      }
      if (STACK_TRACE.matcher(line).find()) {
        List<String> context =
            new ArrayList<>(lines.subList(Math.max(0, i - 2), Math.min(lines.size(), i + 6)));
        report.accept("the gateway logged:\n    " + String.join("\n    ", context));
        i = skipStackTrace(lines, i);
      }
    }
    return others;
  }

  /**
   * @return the index of the last line of the stack trace after line {@code i}, if any
   */
  private static int skipStackTrace(List<String> lines, int i) {
    int last = i;
    while (last + 1 < lines.size() && !LOG_LINE.matcher(lines.get(last + 1)).find()) {
      last++;
    }
    return last;
  }
}
