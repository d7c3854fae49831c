package io.okapigw.it.differential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The figures and the table of a differential run, as Markdown. */
final class Report {

  private final String okapiVersion;
  private final List<Outcome> outcomes;

  Report(String okapiVersion, List<Outcome> outcomes) {
    this.okapiVersion = okapiVersion;
    this.outcomes = outcomes;
  }

  List<Outcome> unexplained() {
    return outcomes.stream().filter(o -> !o.unexplained().isEmpty()).toList();
  }

  List<Outcome> stale() {
    return outcomes.stream().filter(o -> !o.stale().isEmpty()).toList();
  }

  /**
   * @return one line: steps, identical, differing, of which unexplained, accepted, messages only
   */
  String summary() {
    long differing = outcomes.stream().filter(o -> !o.differences().isEmpty()).count();
    long accepted =
        outcomes.stream().filter(o -> o.unexplained().isEmpty() && !o.accepted().isEmpty()).count();
    long messages = outcomes.stream().filter(Outcome::messageOnly).count();
    return String.format(
        "Okapi %s: %d steps, %d answered alike, %d differ: %d in a way that matters and is not"
            + " explained, %d only as the script explains, %d only in error texts; %d stale"
            + " explanations",
        okapiVersion,
        outcomes.size(),
        outcomes.size() - differing,
        differing,
        unexplained().size(),
        accepted,
        messages,
        stale().size());
  }

  /** Writes the summary and a table of every differing step. */
  void write(Path file) throws IOException {
    StringBuilder text = new StringBuilder("# Side by side with Okapi " + okapiVersion + "\n\n");
    text.append(summary())
        .append("\n\n| line | section | request | aspect | Okapi \\| ours | why |\n");
    text.append("| --- | --- | --- | --- | --- | --- |\n");
    for (Outcome outcome : outcomes) {
      for (Difference d : outcome.differences()) {
        Step step = outcome.step();
        String why = outcome.reason(d);
        text.append(
            String.format(
                "| %d | %s | `%s` | %s | %s | %s |%n",
                step.line(),
                step.section(),
                step.request().replace("|", "\\|"),
                d.aspect().name().toLowerCase(),
                cell(d.detail()),
                why != null ? why : d.aspect().matters() ? "**unexplained**" : "error text"));
      }
    }
    Map<Aspect, Long> byAspect =
        outcomes.stream()
            .flatMap(o -> o.differences().stream())
            .collect(Collectors.groupingBy(Difference::aspect, Collectors.counting()));
    text.append("\nDifferences by aspect: ").append(byAspect).append('\n');
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  /** Writes every step with both answers, for reading what a difference is about. */
  void writeAnswers(Path file) throws IOException {
    StringBuilder text = new StringBuilder();
    for (Outcome outcome : outcomes) {
      text.append(outcome.step().line())
          .append(' ')
          .append(outcome.step().request())
          .append("\n  Okapi: ")
          .append(outcome.okapi().brief(600))
          .append("\n  ours:  ")
          .append(outcome.ours().brief(600))
          .append('\n');
    }
    Files.writeString(file, text);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("`", "'");
  }
}
