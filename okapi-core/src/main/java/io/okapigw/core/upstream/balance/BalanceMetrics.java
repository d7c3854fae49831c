package io.okapigw.core.upstream.balance;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code okapi_module_ejections_total{module, instance}}, {@code
 * okapi_module_protocol_violations_total{module, instance}}, {@code
 * okapi_module_stalls_total{module, instance}}, {@code okapi_module_retries_total{module}} and
 * {@code okapi_module_retry_budget_exhausted_total{module}}. Tags are a module id and an instance
 * URL from discovery: bounded by what is registered, never a tenant, user, token or path. Rare
 * events: looked up when they happen.
 */
final class BalanceMetrics {

  private final MeterRegistry registry;

  BalanceMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void ejected(String moduleId, String instance) {
    Counter.builder("okapi.module.ejections")
        .description("Module instances ejected from the choice after failing")
        .tag("module", moduleId)
        .tag("instance", instance)
        .register(registry)
        .increment();
  }

  void brokeProtocol(String moduleId, String instance) {
    Counter.builder("okapi.module.protocol.violations")
        .description(
            "Answers of module instances nobody asked for (bytes on an idle connection, after an"
                + " answer's end): the connection closed, the instance ejected at once")
        .tag("module", moduleId)
        .tag("instance", instance)
        .register(registry)
        .increment();
  }

  void stalled(String moduleId, String instance) {
    Counter.builder("okapi.module.stalls")
        .description(
            "Module instances taken out of the choice for answering none of their calls in flight")
        .tag("module", moduleId)
        .tag("instance", instance)
        .register(registry)
        .increment();
  }

  void retried(String moduleId) {
    Counter.builder("okapi.module.retries")
        .description("Calls sent again to another instance of the module")
        .tag("module", moduleId)
        .register(registry)
        .increment();
  }

  void budgetExhausted(String moduleId) {
    Counter.builder("okapi.module.retry.budget.exhausted")
        .description("Retries refused because the module's retry budget was used up")
        .tag("module", moduleId)
        .register(registry)
        .increment();
  }
}
