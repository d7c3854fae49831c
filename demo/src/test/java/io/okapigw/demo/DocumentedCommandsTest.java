package io.okapigw.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every demo command line in the docs and the gateway script still works. */
class DocumentedCommandsTest {

  @Test
  void documentedCommands_found_andWork() {
    List<Line> lines =
        DocumentedCommands.inDocs(
                Pattern.compile("demo-fat\\.jar|\\./gateway"), Path.of("../gateway"))
            .stream()
            .filter(line -> line.command().equals("demo"))
            .toList();
    assertThat(lines.stream().filter(Line::concrete)).hasSizeGreaterThan(1);
    assertThat(lines.stream().filter(line -> !line.keys().isEmpty())).hasSizeGreaterThan(1);
    assertThat(DocumentedCommands.problems(lines, Main.COMMANDS)).isEmpty();
  }
}
