package io.okapigw.folio.register;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The authtoken module's descriptor ({@code authtoken-module/descriptors/ModuleDescriptor.json}),
 * which the folio-modules build copies into this jar: whoever registers the authtoken module reads
 * it here, with no dependency on the module's code.
 */
public final class AuthtokenDescriptor {

  /** Where the build puts it on the class path. */
  static final String RESOURCE = "/io/okapigw/folio/register/authtoken/ModuleDescriptor.json";

  private AuthtokenDescriptor() {}

  /**
   * @return a fresh copy of the descriptor (id {@code mod-authtoken-<version>})
   * @throws IllegalStateException if the build did not put it on the class path
   */
  public static JsonObject read() {
    try (InputStream in = AuthtokenDescriptor.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("authtoken descriptor " + RESOURCE + " missing");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
