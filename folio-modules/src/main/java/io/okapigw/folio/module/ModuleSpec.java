package io.okapigw.folio.module;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A simulated module before it runs: its descriptor and the endpoints implementing it.
 *
 * @param descriptor the module descriptor
 * @param routes the endpoints, one per descriptor handler
 */
public record ModuleSpec(JsonObject descriptor, Routes routes) {

  /**
   * @param name descriptor file name without extension, e.g. {@code mod-users}: read from the class
   *     path at {@code descriptors/<name>.json}
   * @param routes the endpoints
   * @throws IllegalStateException if the descriptor is missing or not JSON
   */
  public static ModuleSpec of(String name, Routes routes) {
    return new ModuleSpec(descriptor(name), routes);
  }

  /**
   * @param name descriptor file name without extension, e.g. {@code mod-circulation}
   * @return the descriptor from the class path
   * @throws IllegalStateException if the descriptor is missing or not JSON
   */
  public static JsonObject descriptor(String name) {
    String resource = "descriptors/" + name + ".json";
    try (InputStream in = ModuleSpec.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no module descriptor " + resource + " on the class path");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    } catch (DecodeException e) {
      throw new IllegalStateException(resource + " is not valid JSON: " + e.getMessage(), e);
    }
  }

  /**
   * @return the module id from the descriptor
   */
  public String id() {
    return descriptor.getString("id");
  }
}
