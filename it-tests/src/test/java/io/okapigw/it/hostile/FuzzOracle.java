package io.okapigw.it.hostile;

import io.okapigw.it.hostile.Backend.Recorded;
import io.okapigw.it.hostile.FuzzClient.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * Judges what the gateway did with fuzz cases: anything wrong goes to {@code report}, except
 * what matches a {@link Known} finding, which is counted (and reported too when {@code strict}).
 */
final class FuzzOracle {

  /**
   * Findings of this suite still open, each with a disabled test of its own that says what is
   * expected: the fuzz run counts them instead of failing, so that it keeps finding new ones.
   * {@code -Dfuzz.strict=true} fails on them too. Remove one here once it is fixed.
   */
  enum Known {
    STOPPED_UPLOAD("504 blaming the module, to a request whose body never came whole"
        + " (SlowClientsTest.bodyStoppedMidway_not5xx)"),
    HTTP_VERSION("a request line whose version is not exactly HTTP/1.0 or HTTP/1.1 (http/1.1,"
        + " HTTP/1.2, HTTP/2.0, HTTPS/1.1) answered 501, the request's version word echoed in"
        + " the status line (RequestFramingTest.unsupportedHttpVersion_answeredInHttp11Not501)"),
    CONNECT("CONNECT proxied: the module's 2xx reaches the client with a Content-Length and no"
        + " body, and Vert.x logs ERROR 'Received an invalid message'"
        + " (RequestFramingTest.connect_refusedNotProxied)"),
    PIPELINE_RESET("pipelined requests, then a reset: a WARN with a NullPointerException"
        + " message and a 20-line stack trace, every time"
        + " (LogFloodTest.pipelinedRequestsThenReset_noStackTrace)"),
    CORS_ORIGIN("an Origin that is not a valid origin ('https://a b', non-ASCII) answered 500"
        + " internal error and logged at ERROR (RequestFramingTest.invalidOrigin_403NotInternal)"),
    ROUTER_HOST("a request with an Origin and a Host that is not a host ('a b'): vert.x-web logs"
        + " ERROR 'Unhandled exception in router', every time"
        + " (LogFloodTest.originWithInvalidHost_noErrorLine)");

    final String description;

    Known(String description) {
      this.description = description;
    }
  }

  private static final Pattern STACK_TRACE = Pattern.compile(
      "^\\s+at |^\\s*Caused by|^[\\w$.]+\\.[A-Z]\\w*(Exception|Error)\\b| ERROR ");
  private static final Pattern LOG_LINE = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ");

  private final Backend backend;
  private final boolean strict;
  private final Consumer<String> report;
  private final Map<Known, AtomicInteger> known = new ConcurrentHashMap<>();

  FuzzOracle(Backend backend, boolean strict, Consumer<String> report) {
    this.backend = backend;
    this.strict = strict;
    this.report = report;
  }

  /** Judges the answers to one case. */
  void judge(FuzzCase c, Answer answer) {
    if (answer.failure() != null) {
      if (answer.failure().startsWith("a response cut short") && hasMethod(c, "CONNECT")) {
        known(Known.CONNECT, c.describe());
      } else {
        report.accept(answer.failure() + " (after " + answer.millis() + " ms), " + c.describe());
      }
    }
    for (int i = 0; i < answer.responses().size(); i++) {
      RawResponse response = answer.responses().get(i);
      FuzzRequest request = i < c.requests().size() ? c.requests().get(i) : null;
      if (!response.version().equals("HTTP/1.1") && !response.version().equals("HTTP/1.0")
          || response.status() == 501 && response.body().length == 0 && oddVersion(c)) {
        known(Known.HTTP_VERSION, "answered " + response + ", " + c.describe());
      } else if (response.status() >= 500) {
        judge5xx(c, request, response);
      }
    }
  }

  private void judge5xx(FuzzCase c, FuzzRequest request, RawResponse response) {
    if (response.status() == 501 && (response.text().contains("only chunked is")
        || c.requests().stream().anyMatch(d -> d.has("Transfer-Encoding")))) {
      return; // RFC 9112 section 6.1: an unknown transfer coding
    }
    if (response.status() == 500 && response.text().equals("internal error: VertxException")
        && request != null && request.has("Origin")) {
      known(Known.CORS_ORIGIN, c.describe());
      return;
    }
    if (response.status() == 504 && response.text().contains("did not answer in time")
        && request != null && (request.bodyIncomplete() || unfinished(request.id()))) {
      known(Known.STOPPED_UPLOAD, c.describe());
      return;
    }
    report.accept("answered " + response + ", " + c.describe());
  }

  private static boolean oddVersion(FuzzCase c) {
    return c.requests().stream().anyMatch(d -> !"HTTP/1.1".equals(d.version)
        && !"HTTP/1.0".equals(d.version));
  }

  private static boolean hasMethod(FuzzCase c, String method) {
    return c.requests().stream().anyMatch(d -> d.method.equals(method));
  }

  private boolean unfinished(String id) {
    Recorded seen = id == null ? null : backend.fuzzed(id);
    return seen != null && !seen.ended().get();
  }

  /**
   * Judges what the module received: only paths in normal form, never a request hidden in a
   * smuggling shape.
   *
   * @param cases the case of a request number ({@code "index.j"})
   */
  void judgeModuleSide(IntFunction<FuzzCase> cases) {
    for (Recorded r : backend.fuzzed()) {
      String problem = r.path().equals(FuzzCorpus.SMUGGLED_PATH)
          ? "a request hidden in a smuggling shape" : NormalForm.problem(r.path());
      if (problem != null) {
        int index = Integer.parseInt(r.fuzz().split("[.]", 2)[0]);
        report.accept("the module received " + r.method() + " " + Escape.text(r.uri()) + ": "
            + problem + ", " + cases.apply(index).describe());
      }
    }
  }

  /**
   * Judges the gateway's log: no stack trace, no ERROR line, but for known findings.
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
      if (line.contains("Failures - 500 ") && line.contains("CORS Rejected - Invalid origin")) {
        known(Known.CORS_ORIGIN, line);
        i = skipStackTrace(lines, i);
      } else if (line.contains("because \"this.response\" is null")) {
        known(Known.PIPELINE_RESET, line);
        i = skipStackTrace(lines, i);
      } else if (line.contains("ConnectionBase - Received an invalid message")) {
        known(Known.CONNECT, line);
      } else if (line.contains("RoutingContext - Unhandled exception in router")
          && i + 1 < lines.size() && lines.get(i + 1).contains("the 'Host' header is required")) {
        known(Known.ROUTER_HOST, line);
        i = skipStackTrace(lines, i);
      } else if (STACK_TRACE.matcher(line).find()) {
        List<String> context = new ArrayList<>(lines.subList(Math.max(0, i - 2),
            Math.min(lines.size(), i + 6)));
        report.accept("the gateway logged:\n    " + String.join("\n    ", context));
        i = skipStackTrace(lines, i);
      }
    }
    return others;
  }

  /** @return the index of the last line of the stack trace after line {@code i}, if any */
  private static int skipStackTrace(List<String> lines, int i) {
    int last = i;
    while (last + 1 < lines.size() && !LOG_LINE.matcher(lines.get(last + 1)).find()) {
      last++;
    }
    return last;
  }

  private void known(Known finding, String detail) {
    known.computeIfAbsent(finding, k -> new AtomicInteger()).incrementAndGet();
    if (strict) {
      report.accept("known finding " + finding + ": " + detail);
    }
  }

  /** @return how often each known finding showed */
  Map<Known, Integer> knownCounts() {
    Map<Known, Integer> counts = new TreeMap<>();
    known.forEach((k, n) -> counts.put(k, n.get()));
    return counts;
  }
}
