package io.okapigw.authtoken.filter;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.JsonBody;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.credentials.Credentials;
import io.vertx.core.MultiMap;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the gateway asks the auth filter, read from the headers. Permission lists are
 * comma-separated as Okapi sends them (each part trimmed, empty parts dropped; an absent or blank
 * header is no permission), or a JSON array of names (older gateways); module permissions a JSON
 * object {@code {moduleId: [perms]}}. Garbage in any of them is a 400 naming the header; so is a
 * comma list holding {@code " [ ] { }}, the sign of broken JSON.
 *
 * @param tenant {@code X-Okapi-Tenant}
 * @param token the token, or {@code null}
 * @param userId {@code X-Okapi-User-Id} sent with the token, or {@code null} (none counts without a
 *     token: see {@link Credentials})
 * @param required {@code X-Okapi-Permissions-Required}
 * @param desired {@code X-Okapi-Permissions-Desired}
 * @param modulePermissions {@code X-Okapi-Module-Permissions}, in header order
 * @param requestId {@code X-Okapi-Request-Id} for logs, or {@code null}
 * @param okapiUrl {@code X-Okapi-Url}, where the gateway takes calls from modules, or {@code null}
 */
public record FilterRequest(
    String tenant,
    String token,
    String userId,
    List<String> required,
    List<String> desired,
    Map<String, List<String>> modulePermissions,
    String requestId,
    String okapiUrl) {
  private static final Pattern JSON_CHARACTERS = Pattern.compile("[\"\\[\\]{}]");

  /**
   * @param headers the filter request's headers
   * @return the request
   * @throws ApiException 400 for a missing or bad tenant, a malformed permission header or
   *     conflicting tokens, 431 for a token or user id too long (see {@link
   *     OkapiHeaders#credentials})
   */
  public static FilterRequest parse(MultiMap headers) {
    Credentials credentials = OkapiHeaders.credentials(headers);
    return new FilterRequest(
        OkapiHeaders.tenant(headers),
        credentials.token(),
        credentials.userId(),
        names(headers, OkapiHeaders.PERMISSIONS_REQUIRED),
        names(headers, OkapiHeaders.PERMISSIONS_DESIRED),
        modulePermissions(headers.get(OkapiHeaders.MODULE_PERMISSIONS)),
        headers.get(OkapiHeaders.REQUEST_ID),
        headers.get(OkapiHeaders.URL));
  }

  static List<String> names(MultiMap headers, String header) {
    String value = headers.get(header);
    if (value == null || value.isBlank()) {
      return List.of();
    }
    value = value.trim();
    try {
      if (value.startsWith("[")) {
        return JsonBody.names(new JsonArray(value), header);
      }
      if (JSON_CHARACTERS.matcher(value).find()) {
        throw ApiException.badRequest(header);
      }
      List<String> names = new ArrayList<>();
      for (String part : value.split(",")) {
        if (!part.isBlank()) {
          names.add(part.trim());
        }
      }
      return JsonBody.names(new JsonArray(names), header);
    } catch (DecodeException | ApiException e) {
      throw ApiException.badRequest(
          header + " must be a comma-separated list or a JSON array of permission" + " names");
    }
  }

  static Map<String, List<String>> modulePermissions(String value) {
    if (value == null || value.isBlank()) {
      return Map.of();
    }
    String header = OkapiHeaders.MODULE_PERMISSIONS;
    try {
      Map<String, List<String>> map = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : new JsonObject(value.trim())) {
        if (!(e.getValue() instanceof JsonArray perms) || e.getKey().isBlank()) {
          throw ApiException.badRequest(header);
        }
        map.put(e.getKey(), JsonBody.names(perms, header));
      }
      return map;
    } catch (DecodeException | ApiException e) {
      throw ApiException.badRequest(
          header + " must be a JSON object {\"moduleId\": [\"permission\", ...]}");
    }
  }

  @Override
  public String toString() {
    return "FilterRequest[tenant="
        + tenant
        + ", token="
        + (token == null ? "none" : "present")
        + ", userId="
        + userId
        + ", required="
        + required
        + ", requestId="
        + requestId
        + "]";
  }
}
