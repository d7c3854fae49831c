package io.okapigw.core.proxy;

import java.util.Optional;

/**
 * {@code /_/invoke/tenant/{tenant}/{path}}: Okapi's way to call a module without a tenant header
 * (identity providers' callbacks, links in e-mails). The request is proxied for {@code tenant} as a
 * request for {@code /{path}} with the same query.
 *
 * @param tenant the tenant from the path
 * @param path the module path it stands for
 */
public record InvokePath(String tenant, String path) {

  static final String PREFIX = "/_/invoke/tenant/";

  /**
   * @return the tenant and path, or empty if {@code requestPath} is not an invoke path
   */
  public static Optional<InvokePath> parse(String requestPath) {
    if (!requestPath.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int slash = requestPath.indexOf('/', PREFIX.length());
    if (slash <= PREFIX.length()) {
      return Optional.empty();
    }
    return Optional.of(
        new InvokePath(
            requestPath.substring(PREFIX.length(), slash), requestPath.substring(slash)));
  }
}
