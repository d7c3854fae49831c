package io.okapigw.it.differential;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a differential run's steps from a text file, one request a line:
 *
 * <pre>
 * ## Discovery                              a section heading, for the report
 * # a comment
 * &#64;header X-Okapi-Tenant: t1            a request header of the next step
 * &#64;ignore id, startDate                 JSON fields the next step does not compare
 * &#64;differs status: why that is fine     an aspect the next step is known to differ in
 * &#64;differs[7] status: why               the same, for Okapi versions starting with 7 only
 * POST /_/proxy/tenants {"id": "t1"}        method, path and query, optional body
 * </pre>
 *
 * <p>{@code {module}} in a path, header or body stands for the echo module's base URL, {@code
 * {okapi}} in a path for the gateway's okapi module id ({@code okapi-6.1.5}), {@code {node}} and
 * {@code {nodeUrl}} for its first node's id and URL.
 */
final class StepScript {

  private final List<Step> steps = new ArrayList<>();
  private String section = "";
  private final List<Map.Entry<String, String>> headers = new ArrayList<>();
  private final Map<Aspect, String> accepted = new LinkedHashMap<>();
  private final Set<String> ignored = new LinkedHashSet<>();

  private final String okapiVersion;

  private StepScript(String okapiVersion) {
    this.okapiVersion = okapiVersion;
  }

  /**
   * @param resource a class path resource
   * @param moduleUrl what {@code {module}} stands for
   * @param okapiVersion the version of the Okapi compared with: {@code @differs[7]} lines apply
   *     only to versions starting with {@code 7}
   * @return its steps in order
   * @throws IllegalArgumentException naming the line of a line it cannot read
   */
  static List<Step> load(String resource, String moduleUrl, String okapiVersion)
      throws IOException {
    try (InputStream in = StepScript.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return parse(text.replace("{module}", moduleUrl), okapiVersion);
    }
  }

  static List<Step> parse(String text, String okapiVersion) {
    StepScript script = new StepScript(okapiVersion);
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      try {
        script.read(i + 1, lines[i].strip());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return script.steps;
  }

  private void read(int line, String text) {
    if (text.startsWith("## ")) {
      section = text.substring(3).strip();
    } else if (text.isEmpty() || text.startsWith("#")) {
      return;
    } else if (text.startsWith("@header ")) {
      String header = text.substring("@header ".length());
      int colon = header.indexOf(':');
      headers.add(
          Map.entry(header.substring(0, colon).strip(), header.substring(colon + 1).strip()));
    } else if (text.startsWith("@ignore ")) {
      for (String field : text.substring("@ignore ".length()).split(",")) {
        ignored.add(field.strip());
      }
    } else if (text.startsWith("@differs[")) {
      int close = text.indexOf(']');
      if (okapiVersion.startsWith(text.substring("@differs[".length(), close))) {
        read(line, "@differs " + text.substring(close + 1).strip());
      }
    } else if (text.startsWith("@differs ")) {
      String rest = text.substring("@differs ".length());
      int colon = rest.indexOf(':');
      if (colon < 0 || rest.substring(colon + 1).isBlank()) {
        throw new IllegalArgumentException("@differs ASPECT: REASON (the reason is required)");
      }
      accepted.put(Aspect.named(rest.substring(0, colon)), rest.substring(colon + 1).strip());
    } else {
      request(line, text);
    }
  }

  private void request(int line, String text) {
    String[] parts = text.split(" ", 3);
    if (parts.length < 2 || !parts[0].matches("[A-Z]+") || !parts[1].startsWith("/")) {
      throw new IllegalArgumentException("expected METHOD /path [body], was " + text);
    }
    steps.add(
        new Step(
            line,
            section,
            parts[0],
            parts[1],
            List.copyOf(headers),
            parts.length == 3 ? parts[2] : null,
            Map.copyOf(accepted),
            Set.copyOf(ignored)));
    headers.clear();
    accepted.clear();
    ignored.clear();
  }
}
