package io.okapigw.core.install;

import io.okapigw.core.registry.ModuleId;
import java.util.Collection;

/**
 * Module ids as install reads them: leniently ({@link ModuleId#lenient}: an id whose version does
 * not parse is a product alone), a product alone meaning "the newest registered version".
 */
final class ModuleIds {

  private ModuleIds() {}

  static ModuleId parse(String id) {
    return ModuleId.lenient(id);
  }

  /**
   * @return the product of a module id: {@code mod-users} for {@code mod-users-19.2.0}
   */
  static String product(String id) {
    return parse(id).product();
  }

  /**
   * @param id a module id or a product alone
   * @param ids module ids to look among
   * @return the newest id of {@code id}'s product among {@code ids} and {@code id} itself (so
   *     {@code id} if none is newer)
   */
  static String newestOf(String id, Collection<String> ids) {
    ModuleId newest = parse(id);
    for (String other : ids) {
      ModuleId candidate = parse(other);
      if (candidate.product().equals(newest.product()) && candidate.compareTo(newest) > 0) {
        newest = candidate;
      }
    }
    return newest.id();
  }
}
