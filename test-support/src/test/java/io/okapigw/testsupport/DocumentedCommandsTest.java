package io.okapigw.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Commands;
import io.okapigw.config.Setting;
import io.okapigw.config.SettingsSpec;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command lines are found in code only, joined over continuations, cut at shell syntax. */
class DocumentedCommandsTest {

  private static final Pattern TOOL = Pattern.compile("tool\\.jar\"?|\\$tool\"?");

  @TempDir Path dir;

  private List<Line> find(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return DocumentedCommands.find(TOOL, List.of(dir));
  }

  @Test
  void markdown_codeOnly_indentedOrFenced() throws IOException {
    List<Line> lines =
        find(
            "a.md",
            """
            Run `java -jar tool.jar load --users
            8` in prose: not code.

                java -jar tool.jar load --users 8 \\
                    --duration 60s   # a comment

            ```sh
            java -jar tool.jar serve --port 1 &
            ```
            """);
    assertThat(lines)
        .extracting(Line::toString)
        .containsExactly(
            dir.resolve("a.md") + ":4: load --users 8 --duration 60s",
            dir.resolve("a.md") + ":8: serve --port 1");
    assertThat(lines.get(0).keys()).containsExactly("users", "duration");
    assertThat(lines.get(0).args()).containsExactly("--users", "8", "--duration", "60s");
    assertThat(lines).allMatch(Line::concrete);
  }

  /** A quoted argument is one word, as the shell passes it: its blanks make no flags. */
  @Test
  void quotedArgument_oneWord() throws IOException {
    List<Line> lines =
        find("a.md", "    java -jar tool.jar faults --gateway-args '--auth.breaker.failures 0'\n");
    assertThat(lines.get(0).keys()).containsExactly("gateway-args");
    assertThat(lines.get(0).args()).containsExactly("--gateway-args", "--auth.breaker.failures 0");
  }

  /** A picture beside the docs (docs/jaeger-checkout-trace.png) is no text to read. */
  @Test
  void directory_binaryFilesSkipped() throws IOException {
    Files.write(dir.resolve("shot.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff});
    assertThat(find("a.md", "    java -jar tool.jar serve --port 1\n"))
        .extracting(Line::toString)
        .containsExactly(dir.resolve("a.md") + ":1: serve --port 1");
  }

  @Test
  void script_variablesAndOptionalWords_notConcrete_butTheirKeysCount() throws IOException {
    List<Line> lines =
        find(
            "run.sh",
            """
            for jar in tool.jar other.jar; do test -f $jar; done
            java -jar "$tool" serve --port=$port > log 2>&1 || exit 1
            # usage: tool.jar load [--users N | --items N] [--duration D]
            """);
    assertThat(lines).extracting(Line::command).containsExactly("serve", "load");
    assertThat(lines).noneMatch(Line::concrete);
    assertThat(lines.get(0).keys()).containsExactly("port");
    assertThat(lines.get(1).keys()).containsExactly("users", "items", "duration");
  }

  @Test
  void problems_unknownCommandOrFlag_orAValueAgainstTheRules() throws IOException {
    Setting<Integer> users = Setting.integer("users", 8, 1, 100);
    Commands commands =
        Commands.of("tool.jar").add("load", "loads", SettingsSpec.of(users), s -> {});
    List<Line> lines =
        find(
            "run.sh",
            """
            java -jar tool.jar load --users 8
            java -jar tool.jar load --users 0
            java -jar tool.jar load --user $n
            java -jar tool.jar lod
            java -jar tool.jar load -conf load.json --users 1
            """);
    assertThat(DocumentedCommands.problems(lines, commands))
        .containsExactly(
            lines.get(1) + ": users must be between 1 and 100, was '0'",
            lines.get(2) + ": no such setting user",
            lines.get(3) + ": no command lod");
  }
}
