package io.okapigw.core.timer;

import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.registry.TenantModules;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every tenant's timers, read from the store each time: the handlers of each enabled module's
 * {@code _timer} interface (as in Okapi, one declared {@code "interfaceType": "system"}), overlaid
 * with the stored changes.
 */
final class TimerTable {

  /** The system interface whose handlers are timers. */
  static final String INTERFACE = "_timer";

  private static final Logger log = LoggerFactory.getLogger(TimerTable.class);

  private final Vertx vertx;
  private final RegistryStore store;
  private final TimerStore patches;

  /**
   * @param vertx for the worker that reads every tenant's timers out of their descriptors
   * @param store the registry
   * @param patches the changed timers
   */
  TimerTable(Vertx vertx, RegistryStore store, TimerStore patches) {
    this.vertx = vertx;
    this.store = store;
    this.patches = patches;
  }

  /**
   * A tenant's timers and enabled modules (where the system call finds the auth module).
   *
   * @param timers sorted by id, as Okapi lists them
   */
  record TenantTimers(String tenant, List<ModuleDescriptor> enabled, List<Timer> timers) {

    Optional<Timer> find(String id) {
      return timers.stream().filter(t -> t.id().toString().equals(id)).findFirst();
    }

    List<String> enabledIds() {
      return enabled.stream().map(ModuleDescriptor::id).toList();
    }
  }

  /**
   * Whether a timer read earlier is still current, from two small reads: the tenant's enabled
   * module ids and its changed timers (a registered descriptor never changes under its id, so the
   * same ids mean the same handlers).
   *
   * @param read the tenant's timers as read earlier
   * @param timer one of them
   * @return true if the tenant has the same modules enabled and the timer the same change
   */
  Future<Boolean> isCurrent(TenantTimers read, Timer timer) {
    return Future.all(store.enabledModules(read.tenant()), patches.forTenant(read.tenant()))
        .map(
            all -> {
              JsonObject patch =
                  all.<Map<String, JsonObject>>resultAt(1).get(timer.id().toString());
              return read.enabledIds().equals(all.resultAt(0))
                  && (patch == null
                      ? !timer.modified()
                      : timer.modified()
                          && TimerEntry.withTiming(timer.entry(), patch).equals(timer.entry()));
            });
  }

  /**
   * @return the tenant's timers; none if the tenant does not exist
   */
  Future<TenantTimers> tenant(String tenant) {
    return Future.all(
            store.enabledModules(tenant).compose(this::resolve), patches.forTenant(tenant))
        .map(all -> of(tenant, all.resultAt(0), all.resultAt(1)));
  }

  /**
   * @return the tenants that enable one of {@code modules} (their ids only: no descriptor read)
   */
  Future<Set<String>> tenantsUsing(Set<String> modules) {
    return TenantModules.tenantsUsing(store, modules).map(Set::copyOf);
  }

  /**
   * @return every tenant's timers (read out of the descriptors on a worker thread: copying large
   *     descriptors for many tenants must not hold the event loop)
   */
  Future<List<TenantTimers>> all() {
    return store
        .refresh()
        .compose(v -> Future.all(store.tenants(), store.modules(), patches.all()))
        .compose(
            all -> {
              List<TenantDescriptor> tenants = all.resultAt(0);
              return Future.all(tenants.stream().map(t -> store.enabledModules(t.id())).toList())
                  .compose(
                      enabled ->
                          vertx.executeBlocking(
                              () -> {
                                Map<String, ModuleDescriptor> modules =
                                    all.<List<ModuleDescriptor>>resultAt(1).stream()
                                        .collect(
                                            Collectors.toMap(
                                                ModuleDescriptor::id, Function.identity()));
                                List<TimerStore.Patch> changed = all.resultAt(2);
                                List<TenantTimers> timers = new ArrayList<>();
                                for (int i = 0; i < tenants.size(); i++) {
                                  String tenant = tenants.get(i).id();
                                  timers.add(
                                      of(
                                          tenant,
                                          enabled.<List<String>>resultAt(i).stream()
                                              .map(modules::get)
                                              .filter(m -> m != null)
                                              .toList(),
                                          patchesOf(tenant, changed)));
                                }
                                return timers;
                              },
                              false));
            });
  }

  private Future<List<ModuleDescriptor>> resolve(List<String> ids) {
    return Future.all(ids.stream().map(store::module).toList())
        .map(
            all ->
                all.<Optional<ModuleDescriptor>>list().stream().flatMap(Optional::stream).toList());
  }

  private static Map<String, JsonObject> patchesOf(String tenant, List<TimerStore.Patch> all) {
    return all.stream()
        .filter(p -> p.tenant().equals(tenant))
        .collect(Collectors.toMap(TimerStore.Patch::id, TimerStore.Patch::entry));
  }

  static TenantTimers of(
      String tenant, List<ModuleDescriptor> enabled, Map<String, JsonObject> patches) {
    List<Timer> timers = new ArrayList<>();
    enabled.forEach(m -> timers.addAll(timersOf(tenant, m, patches)));
    timers.sort(Comparator.comparing(t -> t.id().toString()));
    return new TenantTimers(tenant, List.copyOf(enabled), List.copyOf(timers));
  }

  /**
   * @return the module's timers for the tenant, each with its stored change if any
   */
  static List<Timer> timersOf(
      String tenant, ModuleDescriptor module, Map<String, JsonObject> patches) {
    List<InterfaceDescriptor> provides = module.provides();
    for (int i = 0; i < provides.size(); i++) {
      InterfaceDescriptor itf = provides.get(i);
      if (INTERFACE.equals(itf.id()) && "system".equals(itf.interfaceType())) {
        JsonArray handlers =
            module.toJson().getJsonArray("provides").getJsonObject(i).getJsonArray("handlers");
        List<Timer> timers = new ArrayList<>();
        for (int seq = 0; seq < itf.handlers().size(); seq++) {
          timers.add(timer(tenant, module, itf, seq, handlers.getJsonObject(seq), patches));
        }
        return timers;
      }
    }
    return List.of();
  }

  private static Timer timer(
      String tenant,
      ModuleDescriptor module,
      InterfaceDescriptor itf,
      int seq,
      JsonObject handler,
      Map<String, JsonObject> patches) {
    TimerId id = new TimerId(TimerId.productOf(module.id()), seq);
    JsonObject patch = patches.get(id.toString());
    JsonObject entry =
        patch == null
            ? TimerEntry.view(handler)
            : TimerEntry.withTiming(TimerEntry.view(handler), patch);
    return new Timer(
        tenant,
        id,
        module,
        itf.handlers().get(seq),
        entry,
        patch != null,
        schedule(tenant, id, entry));
  }

  /**
   * A descriptor's timer faster than {@link Schedule#MIN_PERIOD} fires at that period (a PATCH
   * making one so is refused).
   */
  private static Schedule schedule(String tenant, TimerId id, JsonObject entry) {
    try {
      return Schedule.of(entry);
    } catch (Schedule.TooFrequent e) {
      log.warn("timer {} of tenant {} fires every second: {}", id, tenant, e.getMessage());
      return Schedule.every(Schedule.MIN_PERIOD);
    } catch (IllegalArgumentException e) {
      log.warn("timer {} of tenant {} is off: {}", id, tenant, e.getMessage());
      return Schedule.OFF;
    }
  }
}
