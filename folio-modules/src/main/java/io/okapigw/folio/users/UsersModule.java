package io.okapigw.folio.users;

import static io.okapigw.folio.module.StoreEndpoints.byId;
import static io.okapigw.folio.module.StoreEndpoints.collection;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.Librarian;
import io.okapigw.folio.data.Patron;
import io.okapigw.folio.data.Reference;
import io.okapigw.folio.module.JsonStore;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Routes;

/**
 * Simulated mod-users ({@code users} 16.3): users looked up by CQL ({@code barcode=="P000001"}) or
 * id, patron groups, and proxies (none are generated, so every proxy query is empty). The users are
 * the generated patrons and the librarian ({@link Librarian#DEMO}), whom an auth module that looks
 * users up finds here.
 */
public final class UsersModule {

  private UsersModule() {}

  /**
   * @return the module serving the data's patrons and patron groups
   */
  public static ModuleSpec spec(CirculationData data) {
    JsonStore users = new JsonStore("barcode", "username");
    users.putAll(data.patrons().stream().map(Patron::toJson).toList());
    users.put(Librarian.DEMO.toUserJson());
    JsonStore groups = new JsonStore();
    groups.putAll(data.patronGroups().stream().map(Reference::toGroupJson).toList());
    JsonStore proxies = new JsonStore("proxyUserId", "userId");
    return ModuleSpec.of(
        "mod-users",
        new Routes()
            .on("GET", "/users", collection(users, "users"))
            .on("GET", "/users/{id}", byId(users, "user"))
            .on("GET", "/groups", collection(groups, "usergroups"))
            .on("GET", "/groups/{id}", byId(groups, "user group"))
            .on("GET", "/proxiesfor", collection(proxies, "proxiesFor")));
  }
}
