package io.okapigw.core.admin;

import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.routing.RoutingTable;
import io.okapigw.core.routing.RoutingTables;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who can use the admin API: protected once an auth module is enabled for the supertenant; open to
 * anyone who reaches a listener serving {@code /_/} until then. Logs a warning naming the risk at
 * start and whenever the admin API becomes open, and reports it in {@code /_/proxy/health}.
 */
public final class AdminExposure {

  private static final Logger log = LoggerFactory.getLogger(AdminExposure.class);

  private final RoutingTables tables;
  private final AdminOptions options;
  private final String publicAddress;
  private Boolean lastProtected;

  /**
   * @param tables the routing tables (the supertenant's tells whether an auth filter is on)
   * @param options where the admin API is served
   * @param publicAddress the public listener, {@code host:port}
   */
  public AdminExposure(RoutingTables tables, AdminOptions options, String publicAddress) {
    this.tables = tables;
    this.options = options;
    this.publicAddress = publicAddress;
  }

  /**
   * @return the module whose auth filter guards the admin API, if any
   */
  public Optional<String> authModule() {
    return tables.forTenant(TenantDescriptor.SUPERTENANT).flatMap(RoutingTable::authModule);
  }

  /**
   * @return the protection state for {@code /_/proxy/health}
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("protected", authModule().isPresent())
        .put("authModule", authModule().orElse(null))
        .put("publicListener", options.servedOnPublic())
        .put("adminListener", options.hasListener() ? adminAddress() : null);
  }

  /** Logs the state if it is the first look or it changed; a warning while the API is open. */
  public synchronized void logState() {
    boolean isProtected = authModule().isPresent();
    if (lastProtected != null && lastProtected == isProtected) {
      return;
    }
    lastProtected = isProtected;
    warning()
        .ifPresentOrElse(
            log::warn,
            () ->
                log.info(
                    "admin API protected: every /_/ call is" + " checked by the auth filter of {}",
                    authModule().orElseThrow()));
  }

  /**
   * @return the warning naming the risk while the admin API is open; empty once protected
   */
  public Optional<String> warning() {
    if (authModule().isPresent()) {
      return Optional.empty();
    }
    return Optional.of(
        "admin API OPEN: no auth module is enabled for the supertenant, so anyone"
            + " who can reach "
            + servedAt()
            + " can register modules, re-point discovery and read"
            + " other users' tokens. Enable an auth module for the supertenant, or serve /_/ only on"
            + " a private listener (admin.port, admin.host, admin.public=false); see"
            + " docs/operations.md, 'Securing a deployment'");
  }

  private String servedAt() {
    if (!options.hasListener()) {
      return publicAddress;
    }
    return options.servedOnPublic() ? publicAddress + " and " + adminAddress() : adminAddress();
  }

  private String adminAddress() {
    return options.host() + ":" + options.port();
  }
}
