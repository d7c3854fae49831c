package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.VersionFilter;
import io.vertx.core.MultiMap;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The query parameters of install, upgrade, enable and disable, as Okapi 6.1.5 reads them.
 *
 * @param simulate plan only: answer the plan, change nothing, call no module
 * @param preRelease {@code preRelease}: null (true, the default) considers every module, FALSE only
 *     modules without a pre-release version, TRUE ({@code only}) only pre-releases
 * @param npmSnapshot {@code npmSnapshot}, read as {@code preRelease} for npm snapshot versions
 * @param purge a disabled module is told to drop the tenant's data; an enabled one is told so
 *     first, then enabled afresh
 * @param tenantParameters {@code key=value,...} handed to {@code _tenant} 1.2 and 2.0
 * @param invoke null or {@code true}: call modules; {@code false}: call none; else a regular
 *     expression the ids of the modules to call must match
 * @param async answer 201 with the job at once and run it in the background
 * @param ignoreErrors a module that fails is left as it was and the others still run
 * @param reinstall enable modules already enabled again
 * @param depCheck resolve dependencies (default); false runs the request as given
 * @param parallel accepted for Okapi compatibility (at least 1); modules run one at a time
 * @param deploy Okapi's {@code deploy}: modules enabled are deployed first if they have no
 *     instance, modules disabled or replaced undeployed after if no tenant uses them
 */
public record InstallOptions(
    boolean simulate,
    Boolean preRelease,
    Boolean npmSnapshot,
    boolean purge,
    String tenantParameters,
    String invoke,
    boolean async,
    boolean ignoreErrors,
    boolean reinstall,
    boolean depCheck,
    int parallel,
    boolean deploy) {

  /** Defaults: as a plain enable or disable without parameters. */
  public static final InstallOptions DEFAULTS =
      new InstallOptions(false, null, null, false, null, null, false, false, false, true, 1, false);

  /**
   * @throws HttpError 400 naming a parameter with a bad value or an {@code invoke} that is not a
   *     regular expression
   */
  public static InstallOptions from(MultiMap params) {
    String invoke = params.get("invoke");
    if (invoke != null && !"true".equals(invoke) && !"false".equals(invoke)) {
      try {
        Pattern.compile(invoke);
      } catch (PatternSyntaxException e) {
        throw HttpError.badRequest("invoke: not a regular expression: " + e.getDescription());
      }
    }
    int parallel = integer(params, "parallel", 1);
    if (parallel < 1) {
      throw HttpError.badRequest("parallel must be 1 or higher");
    }
    boolean depCheck = bool(params, "depCheck", true);
    if (!depCheck && parallel > 1) {
      throw HttpError.badRequest(
          "Install Option parallel can not be greater than 1 when"
              + " Install Option depCheck is false");
    }
    return new InstallOptions(
        bool(params, "simulate", false),
        versionFilter(params, "preRelease").orElse(null),
        versionFilter(params, "npmSnapshot").orElse(null),
        bool(params, "purge", false),
        params.get("tenantParameters"),
        invoke,
        bool(params, "async", false),
        bool(params, "ignoreErrors", false),
        bool(params, "reinstall", false),
        depCheck,
        parallel,
        bool(params, "deploy", false));
  }

  /**
   * @return whether install calls this module ({@code invoke})
   */
  public boolean invokes(String moduleId) {
    return invoke == null
        || "true".equals(invoke)
        || !"false".equals(invoke) && moduleId.matches(invoke);
  }

  /**
   * @return whether {@code preRelease} and {@code npmSnapshot} let the module be considered
   */
  boolean considers(String moduleId) {
    return new VersionFilter(preRelease, npmSnapshot).matches(ModuleIds.parse(moduleId));
  }

  private static boolean bool(MultiMap params, String name, boolean defaultValue) {
    String v = params.get(name);
    if (v == null) {
      return defaultValue;
    }
    if ("true".equals(v) || "false".equals(v)) {
      return Boolean.parseBoolean(v);
    }
    throw HttpError.badRequest("Bad boolean for parameter " + name + ": " + v);
  }

  private static int integer(MultiMap params, String name, int defaultValue) {
    String v = params.get(name);
    try {
      return v == null ? defaultValue : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("Bad integer for parameter " + name + ": " + v);
    }
  }

  private static Optional<Boolean> versionFilter(MultiMap params, String name) {
    String v = params.get(name);
    if (v == null || "true".equals(v)) {
      return Optional.empty();
    }
    if ("false".equals(v) || "only".equals(v)) {
      return Optional.of("only".equals(v));
    }
    throw HttpError.badRequest(
        "Expected \"true\", \"false\", \"only\" or undefined/null for"
            + " parameter "
            + name
            + ", but got: "
            + v);
  }
}
