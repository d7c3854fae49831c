package io.okapigw.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

  @Test
  void escape_controlCharacters_asJavaEscapes() {
    assertThat(LogText.escape("\u001b[31mred\u001b[0m")).isEqualTo("\\u001b[31mred\\u001b[0m");
    assertThat(LogText.escape("a\r\nINFO forged")).isEqualTo("a\\u000d\\u000aINFO forged");
    assertThat(LogText.escape("\u0000\u0008\u007f\u0080\u009b\u2028\u2029"))
        .isEqualTo("\\u0000\\u0008\\u007f\\u0080\\u009b\\u2028\\u2029");
  }

  @Test
  void escape_tabAndPrintableText_unchanged() {
    String text = "tab\there, \\u001b stays, \"quotes\", é, \u00a0, 日本";
    assertThat(LogText.escape(text)).isEqualTo(text);
    assertThat(LogText.escape(null)).isEqualTo("null");
  }

  @Test
  void message_ofAFailure_escaped() {
    assertThat(LogText.message(new IllegalStateException("module said \u001b[2J")))
        .isEqualTo("module said \\u001b[2J");
    assertThat(LogText.message(new IllegalStateException())).isEqualTo("null");
  }
}
