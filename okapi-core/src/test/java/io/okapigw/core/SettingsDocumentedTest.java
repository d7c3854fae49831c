package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every gateway setting is in {@code help} and in the settings tables of the docs. */
class SettingsDocumentedTest {

  @Test
  void everySetting_inHelpReadmeAndOperations() throws IOException {
    String readme = settingsColumn(Path.of("../README.md"));
    String operations = settingsColumn(Path.of("../docs/operations.md"));
    for (String key : GatewayOptions.KEYS) {
      assertThat(Main.USAGE).as("help").contains("--" + key + " ");
      assertThat(readme).as("README.md settings").contains("`" + key + "`");
      assertThat(operations).as("docs/operations.md settings").contains("`" + key + "`");
    }
  }

  /**
   * @return the settings named in the first column of the doc's tables
   */
  private static String settingsColumn(Path doc) throws IOException {
    return Files.readAllLines(doc).stream()
        .filter(line -> line.startsWith("| `"))
        .map(line -> line.split("\\|")[1])
        .collect(Collectors.joining("\n"));
  }
}
