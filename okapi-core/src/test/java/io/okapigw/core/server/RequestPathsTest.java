package io.okapigw.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The normal form {@link RequestPaths} lets through, case by case. */
class RequestPathsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/",
        "/a",
        "/a/",
        "/a/b.c",
        "/a/...",
        "/a/..b",
        "/.well-known/x",
        "/a%3Bx",
        "/%C3%A9",
        "/a%20b",
        "/a%3Fb",
        "/a%25",
        "/_/invoke/tenant/t/x/",
        "/_/discovery/nodes/http%3A%2F%2Fh%3A9130"
      })
  void normalForm_passes(String path) {
    assertThat(RequestPaths.problem(path)).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "*",
        "a/b",
        "//",
        "/a//b",
        "/.",
        "/..",
        "/a/.",
        "/a/./b",
        "/a/../b",
        "/a;..",
        "/a;x=..",
        "/a;x=/../b",
        "/a;",
        "/a;x/b",
        "/a/..;x/b",
        "/a/.;/b",
        "/a/%2e",
        "/a/%2E%2e/b",
        "/a%2Fb",
        "/a%2fb",
        "/a%5Cb",
        "/_/invoke/tenant/t/a%2Fb",
        "/_/x%5Cy",
        "/_/a/../b",
        "/a\\b",
        "/a%7E",
        "/a%41",
        "/a%2D",
        "/a%",
        "/a%2",
        "/a%g0",
        "/a%0g"
      })
  void notNormalForm_refusedSayingWhy(String path) {
    assertThat(RequestPaths.problem(path)).isNotNull();
  }
}
