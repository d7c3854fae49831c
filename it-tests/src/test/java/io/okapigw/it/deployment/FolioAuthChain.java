package io.okapigw.it.deployment;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * FOLIO's login chain as one release set (Quesnelia: mod-users 19.3.2, mod-permissions 6.5.0,
 * mod-login 7.11.2, mod-users-bl 7.7.5, mod-authtoken 2.15.3), built from source by {@code
 * recipes/folio-auth-chain-quesnelia.sh} into {@code -Dokapigw.auth-chain=DIR} (default {@code
 * /work/ref/quesnelia}): each module's fat jar and the descriptor its build writes ({@code
 * DIR/NAME/target/NAME-fat.jar}, {@code DIR/NAME/target/ModuleDescriptor.json}).
 *
 * @param dir where the recipe built it
 */
record FolioAuthChain(Path dir) {

  /**
   * In the order they are registered (each after those it requires) and enabled: storage and
   * mod-login, then mod-authtoken and mod-users-bl (it requires {@code authtoken}).
   */
  static final List<String> MODULES =
      List.of("mod-users", "mod-permissions", "mod-login", "mod-authtoken", "mod-users-bl");

  /**
   * @return the chain, or empty (with a notice saying what is missing and how to build it)
   */
  static Optional<FolioAuthChain> find() {
    FolioAuthChain chain =
        new FolioAuthChain(
            Path.of(System.getProperty("okapigw.auth-chain", "/work/ref/quesnelia")));
    for (String name : MODULES) {
      for (Path needed : List.of(chain.jar(name), chain.descriptorFile(name))) {
        if (!Files.exists(needed)) {
          System.err.printf(
              "NOTICE: the FOLIO auth chain tests are skipped: %s is missing (build it:"
                  + " ANCHOR=%s MIRROR=DIR bash recipes/folio-auth-chain-quesnelia.sh, or"
                  + " -Dokapigw.auth-chain=DIR)%n",
              needed, chain.dir());
          return Optional.empty();
        }
      }
    }
    return Optional.of(chain);
  }

  Path jar(String name) {
    return dir.resolve(name).resolve("target").resolve(name + "-fat.jar");
  }

  private Path descriptorFile(String name) {
    return dir.resolve(name).resolve("target/ModuleDescriptor.json");
  }

  private JsonObject built(String name) {
    try {
      return new JsonObject(Files.readString(descriptorFile(name)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The module's descriptor as its build wrote it, but: its launch descriptor runs its jar on this
   * JVM's java ({@code exec}, the database from {@code /_/env}), and the interfaces it requires
   * that no module of the chain provides ({@code configuration}, {@code password-validator}, {@code
   * request-storage}: mod-users-bl's, not called by a login) moved to {@code optional}, so that the
   * chain alone can be enabled; the same descriptor goes to both gateways.
   */
  JsonObject descriptor(String name) {
    JsonObject module = built(name);
    Set<String> provided = new HashSet<>();
    for (String other : MODULES) {
      built(other).getJsonArray("provides", new JsonArray()).stream()
          .map(p -> ((JsonObject) p).getString("id"))
          .forEach(provided::add);
    }
    JsonArray requires = new JsonArray();
    JsonArray optional = module.getJsonArray("optional", new JsonArray()).copy();
    for (Object o : module.getJsonArray("requires", new JsonArray())) {
      (provided.contains(((JsonObject) o).getString("id")) ? requires : optional).add(o);
    }
    module.put("requires", requires).put("optional", optional);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    module.put(
        "launchDescriptor",
        new JsonObject()
            .put(
                "exec",
                java
                    + " -Xmx256m -Dport=%p -Dhttp.port=%p -jar "
                    + jar(name)
                    + (name.equals("mod-authtoken") ? "" : " -Dhttp.port=%p"))
            .put("waitIterations", 100));
    return module;
  }

  /**
   * @return the names of the permission sets of {@code modules} that grant all of a module's API
   *     ({@code perms.all}, {@code users.all}, ...): what the chain's administrator gets
   */
  List<String> allPermissions(List<String> modules) {
    return modules.stream()
        .flatMap(m -> built(m).getJsonArray("permissionSets", new JsonArray()).stream())
        .map(p -> ((JsonObject) p).getString("permissionName"))
        .filter(p -> p.endsWith(".all"))
        .distinct()
        .toList();
  }
}
