package io.okapigw.core.pull;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.VersionFilter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Okapi's {@code POST /_/proxy/pull/modules}: copies the descriptors another Okapi holds that this
 * registry lacks. The first of the pull descriptor's {@code urls} that answers {@code /_/version}
 * is asked for every descriptor but those registered here (Okapi's module is never copied); those
 * are registered at once, all or none, with Okapi's dependency check ({@link Registry#addModules}).
 */
public final class Pull {

  private static final Logger log = LoggerFactory.getLogger(Pull.class);

  /** How long connecting to a remote, and each of its answers, may take. */
  public static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final Vertx vertx;
  private final Registry registry;
  private final RemoteRegistry remote;

  /**
   * @param maxBytes the largest answer read from a remote, on the wire and decoded ({@code
   *     admin.pull-max-bytes})
   * @param maxDescriptorBytes the largest descriptor pulled: an admin request body's limit
   */
  public Pull(Vertx vertx, Registry registry, long maxBytes, long maxDescriptorBytes) {
    this.vertx = vertx;
    this.registry = registry;
    this.remote = new RemoteRegistry(vertx, TIMEOUT, maxBytes, maxDescriptorBytes);
  }

  /**
   * @param descriptor Okapi's pull descriptor, {@code {"urls": [...]}}
   * @return the modules added (Okapi's short form: id, name, tags), in the remote's order; 404 if
   *     no URL answers, 400 for a bad descriptor, an answer that is not Okapi's, a descriptor
   *     larger than an admin request body, or descriptors that cannot be registered; 502 for an
   *     answer larger than {@code admin.pull-max-bytes}
   */
  public Future<List<JsonObject>> pull(JsonObject descriptor) {
    List<String> urls = urls(descriptor);
    return firstAnswering(urls, 0, new ArrayList<>())
        .compose(
            base ->
                registry
                    .modules()
                    .compose(
                        local -> {
                          List<String> ids = local.stream().map(ModuleDescriptor::id).toList();
                          return remote.modules(base, ids).compose(all -> add(base, all, ids));
                        }));
  }

  private Future<List<JsonObject>> add(String base, List<JsonObject> remoteList, List<String> ids) {
    Set<String> known = Set.copyOf(ids);
    return vertx
        .executeBlocking(
            () -> {
              List<ModuleDescriptor> missing = new ArrayList<>();
              for (JsonObject json : remoteList) {
                if (!known.contains(String.valueOf(json.getValue("id")))) {
                  ModuleDescriptor module = ModuleDescriptor.fromPosted(json);
                  if (!"okapi".equals(module.moduleId().product())) {
                    missing.add(module);
                  }
                }
              }
              return missing;
            },
            false)
        .compose(
            missing -> {
              log.info("pull from {}: {} descriptors to add", base, missing.size());
              return registry
                  .addModules(missing, true, VersionFilter.of(null, null))
                  .map(added -> missing.stream().map(ModuleDescriptor::toSummaryJson).toList());
            });
  }

  /** The first URL whose {@code /_/version} answers 200; 404 with each URL's failure if none. */
  private Future<String> firstAnswering(List<String> urls, int i, List<String> failures) {
    if (i == urls.size()) {
      return Future.failedFuture(
          HttpError.notFound(
              "pull: none of remote URLs work"
                  + (failures.isEmpty() ? "" : ": " + String.join("; ", failures))));
    }
    String url = urls.get(i);
    return remote
        .version(url)
        .map(
            version -> {
              log.info("pull: remote registry at {} is version {}", url, version);
              return url;
            })
        .recover(
            e -> {
              failures.add(url + ": " + firstLine(e.getMessage()));
              return firstAnswering(urls, i + 1, failures);
            });
  }

  private static String firstLine(String message) {
    String m = message == null ? "no answer" : message;
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /** Okapi's pull descriptor: {@code urls}, an array of strings, and nothing else. */
  private static List<String> urls(JsonObject descriptor) {
    Set<String> unknown =
        descriptor.fieldNames().stream().filter(f -> !f.equals("urls")).collect(Collectors.toSet());
    if (!unknown.isEmpty()) {
      throw HttpError.badRequest("Unrecognized field of a pull descriptor (urls): " + unknown);
    }
    if (!(descriptor.getValue("urls") instanceof JsonArray urls)) {
      throw HttpError.badRequest("pull: urls must be an array of the remote Okapis' URLs");
    }
    List<String> list = new ArrayList<>();
    for (Object url : urls) {
      if (!(url instanceof String s) || s.isBlank()) {
        throw HttpError.badRequest("pull: urls must be an array of the remote Okapis' URLs");
      }
      list.add(s);
    }
    return list;
  }

  public Future<Void> close() {
    return remote.close();
  }
}
