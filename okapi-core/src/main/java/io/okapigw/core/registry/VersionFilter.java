package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;

/**
 * Okapi's {@code preRelease} and {@code npmSnapshot} query parameters: {@code true} or absent (null
 * here) include such versions, {@code false} leaves them out, {@code only} keeps nothing else. As
 * in Okapi, a module that is neither a pre-release nor an npm snapshot is left out when either
 * parameter is {@code only}, and an npm snapshot passes {@code preRelease=only} (it is no
 * pre-release, and {@code npmSnapshot} does not exclude it).
 *
 * @param preRelease null: include; false: exclude; true: only
 * @param npmSnapshot null: include; false: exclude; true: only
 */
public record VersionFilter(Boolean preRelease, Boolean npmSnapshot) {

  /** Every module. */
  public static final VersionFilter ALL = new VersionFilter(null, null);

  /**
   * @param preRelease the {@code preRelease} parameter, or null
   * @param npmSnapshot the {@code npmSnapshot} parameter, or null
   * @throws HttpError 400 naming the parameter unless each is {@code true}, {@code false}, {@code
   *     only} or absent
   */
  public static VersionFilter of(String preRelease, String npmSnapshot) {
    return new VersionFilter(value("preRelease", preRelease), value("npmSnapshot", npmSnapshot));
  }

  private static Boolean value(String name, String value) {
    if (value == null || "true".equals(value)) {
      return null;
    }
    if ("false".equals(value) || "only".equals(value)) {
      return "only".equals(value);
    }
    throw HttpError.badRequest(
        "parameter " + name + " must be true, false or only; was '" + value + "'");
  }

  /**
   * @return whether the module passes the filter
   */
  public boolean matches(ModuleId id) {
    if (id.isPreRelease()) {
      return preRelease == null || preRelease;
    }
    if (id.isNpmSnapshot()) {
      return npmSnapshot == null || npmSnapshot;
    }
    return !Boolean.TRUE.equals(npmSnapshot) && !Boolean.TRUE.equals(preRelease);
  }
}
