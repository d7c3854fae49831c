package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.okapigw.core.config.GatewaySettings;
import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every dev and cluster command line in the docs and the gateway script still works: its flags are
 * gateway settings, and one written out in full (without a -conf file) reads by the rules.
 */
class DocumentedCommandsTest {

  private static final List<Line> LINES =
      DocumentedCommands.inDocs(
              Pattern.compile("okapi-core-fat\\.jar\"?|\\./gateway"),
              Path.of("../gateway"),
              Path.of("../perf/bench"))
          .stream()
          .filter(line -> List.of("dev", "cluster").contains(line.command()))
          .toList();

  @Test
  void documentedCommands_areFound() {
    assertThat(LINES).extracting(Line::command).contains("dev", "cluster");
    assertThat(LINES.stream().filter(Line::concrete)).hasSizeGreaterThan(3);
  }

  @Test
  void everyFlag_isAGatewaySetting_andEveryConcreteLineReads() {
    for (Line line : LINES) {
      List<String> keys = line.keys().stream().filter(key -> !key.equals("conf")).toList();
      assertThat(GatewaySettings.ALL.keys()).as(line.toString()).containsAll(keys);
      if (line.concrete() && !line.keys().contains("conf")) {
        assertThatCode(() -> Main.COMMANDS.spec(line.command()).read(line.args()))
            .as(line.toString())
            .doesNotThrowAnyException();
      }
    }
  }
}
