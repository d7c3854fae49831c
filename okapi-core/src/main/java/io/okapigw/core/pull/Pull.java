package io.okapigw.core.pull;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.ModuleId;
import io.okapigw.core.registry.PullSelection;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.VersionFilter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Okapi's {@code POST /_/proxy/pull/modules}: copies the descriptors another Okapi holds that this
 * registry lacks. The first of the pull descriptor's {@code urls} that answers {@code /_/version}
 * is asked for every descriptor but those registered here. As Okapi's {@code PullManager} takes
 * them: Okapi's own module ({@code okapi-*}) is left out before anything is read; a descriptor this
 * gateway's rules refuse ({@link ModuleDescriptor#fromPosted}), or whose dependencies neither the
 * registered modules nor the other pulled ones meet ({@link PullSelection}), is left out and logged
 * by id; the rest are registered at once with the dependency check ({@link Registry#addModules}).
 */
public final class Pull {

  private static final Logger log = LoggerFactory.getLogger(Pull.class);

  /** How long connecting to a remote, and each of its answers, may take. */
  public static final Duration TIMEOUT = Duration.ofMinutes(5);

  /** The product of Okapi's own module, never pulled. */
  private static final String OKAPI = "okapi";

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
   *     no URL answers, 400 for a bad pull descriptor, an answer that is not Okapi's or a
   *     descriptor larger than an admin request body; 502 for an answer larger than {@code
   *     admin.pull-max-bytes}
   */
  public Future<List<JsonObject>> pull(JsonObject descriptor) {
    List<String> urls = urls(descriptor);
    return firstAnswering(urls, 0, new ArrayList<>())
        .compose(
            base ->
                registry
                    .modules()
                    .compose(
                        local ->
                            remote
                                .modules(base, local.stream().map(ModuleDescriptor::id).toList())
                                .compose(all -> add(base, all, local))));
  }

  private Future<List<JsonObject>> add(
      String base, List<JsonObject> remoteList, List<ModuleDescriptor> local) {
    return vertx
        .executeBlocking(() -> select(base, remoteList, local), false)
        .compose(
            kept -> {
              log.info("pull from {}: {} descriptors to add", base, kept.size());
              return registry
                  .addModules(kept, true, VersionFilter.ALL)
                  .map(added -> kept.stream().map(ModuleDescriptor::toSummaryJson).toList());
            });
  }

  /**
   * The remote's descriptors as Okapi's pull takes them: those registered here and the okapi module
   * left out before anything is read; one our rules refuse, or whose dependencies are not met, left
   * out and logged by id; the rest kept.
   */
  private static List<ModuleDescriptor> select(
      String base, List<JsonObject> remoteList, List<ModuleDescriptor> local) {
    Set<String> known = local.stream().map(ModuleDescriptor::id).collect(Collectors.toSet());
    List<ModuleDescriptor> candidates = new ArrayList<>();
    Map<String, String> refused = new LinkedHashMap<>();
    for (JsonObject json : remoteList) {
      String id = String.valueOf(json.getValue("id"));
      if (known.contains(id) || OKAPI.equals(ModuleId.lenient(id).product())) {
        continue;
      }
      try {
        candidates.add(ModuleDescriptor.fromPosted(json));
      } catch (RuntimeException e) { // a remote's descriptor: anything wrong with it is a refusal
        refused.put(id, String.valueOf(e.getMessage()));
      }
    }
    PullSelection selection = PullSelection.of(local, candidates);
    refused.forEach((id, why) -> log.warn("pull from {}: left out {}: {}", base, id, why));
    selection
        .leftOut()
        .forEach((id, why) -> log.warn("pull from {}: left out {}: {}", base, id, why));
    if (!refused.isEmpty() || !selection.leftOut().isEmpty()) {
      log.warn(
          "pull from {}: {} descriptors left out, {} refused by this gateway's rules and {} with"
              + " unmet dependencies: {}",
          base,
          refused.size() + selection.leftOut().size(),
          refused.size(),
          selection.leftOut().size(),
          String.join(", ", concat(refused.keySet(), selection.leftOut().keySet())));
    }
    return selection.kept();
  }

  private static List<String> concat(Collection<String> a, Collection<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
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
