package io.okapigw.core.deployment;

import io.vertx.core.Future;

/** A module this node started: a process or a container. */
interface ModuleHandle {

  /**
   * Starts the module and waits until it answers HTTP on its port.
   *
   * @return fails with a message saying why (nothing is left running then)
   */
  Future<Void> start();

  /** Stops the module and releases what it held (its container); never fails. */
  Future<Void> stop();

  /**
   * @return completes when the started module ends by itself (its process exits, its container's
   *     output ends); never for a {@code cmdlineStart} module, whose shell ends once it started it
   */
  Future<Void> ended();
}
