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
}
