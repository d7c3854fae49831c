package io.okapigw.folio.module;

import io.vertx.core.Future;

/** The implementation of one descriptor handler (one method and path pattern). */
@FunctionalInterface
public interface Endpoint {

  /**
   * @param request the incoming request, body read
   * @return the reply; a failed future with {@link ModuleError} answers with its status, any other
   *     failure with 500
   */
  Future<Reply> handle(ModuleRequest request);
}
