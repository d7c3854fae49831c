package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.ModuleDescriptor;
import io.vertx.core.Future;

/**
 * What {@code install?deploy=true} asks of deployment, as Okapi does it: before the modules are
 * told, every module the plan enables (or keeps) is deployed if it has no instance; after, every
 * module it disables or replaces is undeployed if no tenant uses it any more.
 */
public interface AutoDeploy {

  /** No deployment: {@code deploy=true} is refused. */
  AutoDeploy NONE =
      new AutoDeploy() {
        @Override
        public Future<Void> deploy(ModuleDescriptor module) {
          return Future.failedFuture(
              HttpError.badRequest("deploy=true: this node deploys no modules"));
        }

        @Override
        public Future<Void> undeploy(ModuleDescriptor module) {
          return Future.succeededFuture();
        }
      };

  /**
   * Deploys the module on every node, unless it has an instance already.
   *
   * @return fails with the reason a node could not start it
   */
  Future<Void> deploy(ModuleDescriptor module);

  /** Stops and removes the instances nodes deployed of the module, unless a tenant uses it. */
  Future<Void> undeploy(ModuleDescriptor module);
}
