package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which admin calls only the supertenant's users may make ({@link SupertenantOnly#refusal}), by
 * method, normalized path, query and the tenant the request is for.
 */
class SupertenantOnlyRulesTest {

  @ParameterizedTest
  @CsvSource({
    "GET, /_/env, diku, true",
    "GET, /_/env/X, , true",
    "GET, /_/environment, diku, false",
    "DELETE, /_/deployment/modules/i1, diku, true",
    "GET, /_/discovery/modules, diku, false",
    "GET, /_/discovery/health, diku, false",
    "PUT, /_/discovery/nodes/n1, diku, true",
    "POST, /_/proxy/pull/modules, diku, true",
    "GET, /_/proxy/modules, diku, false",
    "POST, /_/proxy/modules, diku, true",
    "GET, /_/proxy/auth-cache, diku, false",
    "POST, /_/proxy/tenants, diku, true",
    "GET, /_/proxy/tenants, diku, false",
    "GET, /_/proxy/tenants/diku, diku, false",
    "PUT, /_/proxy/tenants/diku, diku, true",
    "POST, /_/proxy/tenants/diku/modules, diku, false",
    "POST, /_/proxy/tenants/di%6Bu/modules, diku, false",
    "PATCH, /_/proxy/tenants/diku/timers, diku, false",
    "GET, /_/proxy/tenants/other/timers, diku, true",
    "GET, /_/proxy/tenants/Diku/modules, diku, true",
    "POST, /_/proxy/tenants, supertenant, false",
    "POST, /_/deployment/modules, supertenant, false",
    "GET, /_/version, diku, false",
    "GET, /_/metrics, diku, false"
  })
  void refusal_byMethodPathAndTenant(String method, String path, String tenant, boolean refused) {
    assertThat(SupertenantOnly.refusal(method, path, MultiMap.caseInsensitiveMultiMap(), tenant))
        .as(method + " " + path + " for " + tenant)
        .matches(r -> r.isPresent() == refused);
  }

  @ParameterizedTest
  @CsvSource({"true, true", "TRUE, true", "false, false", "yes, true"})
  void refusal_deployParameterUnlessFalse(String value, boolean refused) {
    MultiMap params = MultiMap.caseInsensitiveMultiMap().add("deploy", value);
    Optional<String> reason =
        SupertenantOnly.refusal("POST", "/_/proxy/tenants/diku/install", params, "diku");
    assertThat(reason.isPresent()).isEqualTo(refused);
    assertThat(
            SupertenantOnly.refusal("POST", "/_/proxy/tenants/diku/install", params, "supertenant"))
        .isEmpty();
    MultiMap twice =
        MultiMap.caseInsensitiveMultiMap().add("deploy", "false").add("deploy", "true");
    assertThat(SupertenantOnly.refusal("POST", "/_/proxy/tenants/diku/install", twice, "diku"))
        .isPresent();
  }
}
