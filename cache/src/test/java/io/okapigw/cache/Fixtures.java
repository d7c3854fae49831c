package io.okapigw.cache;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;

/** Keys, decisions and caches shared by the tests. */
final class Fixtures {

  static final String TENANT = "diku";
  static final String USER = "a1b2c3d4-0000-4000-8000-000000000001";
  static final String PERMISSIONS = "[\"circulation.check-out-by-barcode.post\"]";

  private Fixtures() {}

  static AuthCacheKey key(String token) {
    return new AuthCacheKey(TENANT, "POST", "/circulation/check-out-by-barcode", "", token);
  }

  static AuthDecision grant(String moduleToken) {
    return AuthDecision.grant(202, moduleToken, USER, PERMISSIONS, Map.of("_", moduleToken));
  }

  static AuthCache cache(AuthCacheOptions options, FakeTime time) {
    return cache(options, time, new SimpleMeterRegistry());
  }

  static AuthCache cache(AuthCacheOptions options, FakeTime time, MeterRegistry registry) {
    return AuthCache.create(options, time, time.clock(), registry);
  }
}
