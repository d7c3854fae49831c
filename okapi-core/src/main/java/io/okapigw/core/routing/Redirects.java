package io.okapigw.core.routing;

import io.okapigw.core.http.HttpError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Follows {@code redirect} entries (filters or handlers) as Okapi's guide describes them: the
 * request is served by whatever serves the entry's {@code redirectPath} (a legacy {@code path}
 * entry keeps the rest of the path after its prefix), collecting the filters found on the way;
 * redirects found there are followed in turn. A loop or a target nothing serves is a 500 naming it,
 * with Okapi's messages.
 */
final class Redirects {

  /**
   * Where the redirects led.
   *
   * @param filters every non-redirect filter met, original path first
   * @param handler the handler finally serving the request
   * @param redirects the redirect entries followed
   * @param path the path the handler gets
   */
  record Resolved(List<Route> filters, Route handler, List<Route> redirects, String path) {}

  private final RoutingTable table;
  private final String method;
  private final Set<Route> followed = new LinkedHashSet<>();
  private final List<Route> filters = new ArrayList<>();
  private Route handler;
  private String path;

  Redirects(RoutingTable table, String method) {
    this.table = table;
    this.method = method;
  }

  Optional<Resolved> resolve(String requestPath, Route requestHandler, List<Route> matched) {
    path = requestPath;
    handler = requestHandler == null || requestHandler.entry().isRedirect() ? null : requestHandler;
    for (Route f : matched) {
      if (f.entry().isRedirect()) {
        follow(f, requestPath, "");
      } else {
        filters.add(f);
      }
    }
    if (requestHandler != null && requestHandler.entry().isRedirect()) {
      follow(requestHandler, requestPath, "");
    }
    return Optional.ofNullable(handler)
        .map(h -> new Resolved(filters, h, List.copyOf(followed), path));
  }

  private void follow(Route redirect, String from, String loop) {
    if (!followed.add(redirect)) {
      throw new HttpError(500, "Redirect loop: " + loop + " -> " + redirect.entry().redirectPath());
    }
    String to = target(redirect, from);
    String chain = loop + " -> " + to;
    boolean found = false;
    for (Route f : table.filters(method, to)) {
      found = true;
      if (f.entry().isRedirect()) {
        follow(f, to, chain);
      } else if (!filters.contains(f)) {
        filters.add(f);
      }
    }
    Route next = table.handler(method, to);
    if (next != null) {
      found = true;
      if (next.entry().isRedirect()) {
        follow(next, to, chain);
      } else {
        handler = next;
        path = to;
      }
    }
    if (!found) {
      throw new HttpError(
          500, "Redirecting " + from + " to " + to + " FAILED. No suitable module found");
    }
  }

  private static String target(Route redirect, String from) {
    String pattern = redirect.entry().pathPattern();
    String staticPath = redirect.entry().staticPath();
    boolean legacyPrefix = !staticPath.equals(pattern) && from.startsWith(staticPath);
    return redirect.entry().redirectPath()
        + (legacyPrefix ? from.substring(staticPath.length()) : "");
  }
}
