package io.okapigw.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every demo command line in the docs and the gateway script still works. */
class DocumentedCommandsTest {

  private static final List<Line> LINES =
      DocumentedCommands.inDocs(
              Pattern.compile("demo-fat\\.jar|\\./gateway"), Path.of("../gateway"))
          .stream()
          .filter(line -> line.command().equals("demo"))
          .toList();

  @Test
  void documentedCommands_areFound() {
    assertThat(LINES.stream().filter(Line::concrete)).hasSizeGreaterThan(1);
    assertThat(LINES.stream().filter(line -> !line.keys().isEmpty())).isNotEmpty();
  }

  @Test
  void everyFlag_isADemoSetting_andEveryConcreteLineReads() {
    for (Line line : LINES) {
      assertThat(DemoOptions.SPEC.keys()).as(line.toString()).containsAll(line.keys());
      if (line.concrete()) {
        assertThatCode(() -> DemoOptions.from(DemoOptions.SPEC.read(line.args())))
            .as(line.toString())
            .doesNotThrowAnyException();
      }
    }
  }
}
